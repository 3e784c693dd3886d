// pnp serve: the page. It shows what /api/state says and fetches it again on every
// `change` event of /events; pictures are asked for by their content hash, so a
// picture that did not change is not fetched again.
"use strict";

const $ = (id) => document.getElementById(id);
const view = { lang: new URLSearchParams(location.search).get("lang") || "", mode: "cards", zoom: 1, state: null, showProblems: false };
const CSS_DPI = 96;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const enc = encodeURIComponent;

async function load() {
  const response = await fetch(`/api/state${view.lang ? `?lang=${enc(view.lang)}` : ""}`);
  if (!response.ok) { $("status").textContent = await response.text(); return; }
  const state = await response.json();
  view.state = state;
  view.lang = state.lang;
  render(state);
}

function render(state) {
  document.title = `${state.title} · pnp preview`;
  $("title").textContent = state.title;
  const select = $("lang");
  select.replaceChildren(...state.languages.map((code) => el("option", { value: code, selected: code === state.lang ? "" : null }, code)));
  renderError(state);
  renderProblems(state);
  const scroll = window.scrollY;
  $("content").replaceChildren(...(view.mode === "cards" ? renderCards(state) : renderSheets(state)));
  window.scrollTo(0, scroll);
  $("status").textContent = `updated ${new Date().toLocaleTimeString()}`;
}

function renderError(state) {
  const box = $("error");
  box.hidden = !state.error.length;
  box.replaceChildren(
    el("h2", {}, state.sections.length ? "The game cannot be loaded: the last good pictures are shown" : "The game cannot be loaded"),
    problemList(state.error),
  );
}

// What pnp check says now: a load that failed says only why (the banner's problems,
// counted here too), else the problems of the game as loaded.
function shownProblems(state) { return state.error.length ? state.error : state.problems; }

function renderProblems(state) {
  const problems = shownProblems(state);
  const count = (severity) => problems.filter((p) => p.severity === severity).length;
  const [errors, warnings, notes] = [count("error"), count("warning"), count("note")];
  const button = $("problems-toggle");
  button.textContent = problems.length
    ? `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}${notes ? `, ${notes} not checked` : ""}` : "no problems";
  button.classList.toggle("bad", errors > 0);
  const box = $("problems");
  box.hidden = !(view.showProblems && problems.length);
  box.replaceChildren(el("h2", {}, "Problems (pnp check)"), problemList(problems));
}

function problemList(problems) {
  return el("ul", { class: "problems" }, problems.map((p) =>
    el("li", { class: p.severity },
      el("span", { class: "sev" }, p.severity), " ", p.where, ": ", p.message, ` [${p.code}]`,
      p.item ? [" ", el("a", { href: "#", onclick: (e) => { e.preventDefault(); showItem(p.item); } }, `→ ${p.item}`)] : [],
    )));
}

function px(mm) { return Math.round(mm / 25.4 * CSS_DPI * view.zoom); }

function renderCards(state) {
  if (!state.sections.length) return [el("p", { class: "empty" }, "Nothing to show yet.")];
  return state.sections.map((section) => el("section", { class: "deck", id: `deck-${section.id}` },
    el("h2", { class: "deck" }, section.name, " ", el("small", {}, `${section.items.length} ${section.items.length === 1 ? "component" : "components"}`)),
    el("div", { class: "grid" }, section.items.map((item) => renderItem(state, section, item))),
  ));
}

function renderItem(state, section, item) {
  const key = `${section.id}/${item.id}`;
  const blank = item.left_out ? [el("div", { class: "face left-out", style: `width:${px(item.left_out.width_mm)}px;height:${px(item.left_out.height_mm)}px` },
    "not drawn: its data has errors")] : [];
  const faces = blank.concat(item.sides.map((side) => {
    const marks = side.marks.map((m) => m.box
      ? el("div", { class: "mark", title: state.problems[m.problem].message,
          style: `left:${m.box[0] * 100}%;top:${m.box[1] * 100}%;width:${m.box[2] * 100}%;height:${m.box[3] * 100}%` })
      : el("div", { class: "mark whole", title: state.problems[m.problem].message }));
    return el("div", { class: "face", "data-side": side.side },
      el("img", { src: `/face/${enc(state.lang)}/${enc(section.id)}/${enc(item.id)}/${enc(side.side)}.png?v=${side.digest}`, "data-digest": side.digest,
        width: px(side.width_mm), height: px(side.height_mm), alt: `${item.id} (${side.side})`, loading: "lazy" }),
      marks);
  }));
  const caption = el("div", { class: "caption" }, el("b", {}, item.id), item.title ? ` · ${item.title}` : "", item.copies > 1 ? ` · ×${item.copies}` : "");
  return el("div", { class: `item${item.problems.length ? " bad" : ""}`, "data-key": key, title: item.problems.map((n) => state.problems[n].message).join("\n"),
    onclick: () => showItem(key) }, el("div", { class: "faces" }, faces), caption);
}

function renderSheets(state) {
  if (!state.sheets.length) return [el("p", { class: "empty" }, "No sheets to show.")];
  return state.sheets.map((sheet) => {
    const pages = el("div", { class: "sheets" }, el("p", { class: "empty" }, "drawing the sheets…"));
    fetch(`/api/sheets/${enc(state.lang)}/${sheet.index}`).then((r) => r.json()).then(({ pages: count }) => {
      pages.replaceChildren(...Array.from({ length: count }, (_, i) =>
        el("img", { src: `/sheet/${enc(state.lang)}/${sheet.index}/${i + 1}.png?g=${state.generation}`, alt: `${sheet.name}, page ${i + 1}`,
          style: `width:${px(105)}px` })));  // half an A4 page's width
    });
    return el("section", { class: "sheet" }, el("h2", { class: "deck" }, sheet.name), pages);
  });
}

async function showItem(key) {
  const [section, item] = key.split("/");
  const node = document.querySelector(`.item[data-key="${CSS.escape(key)}"]`);
  if (node) node.scrollIntoView({ block: "center" });
  const response = await fetch(`/api/card/${enc(view.lang)}/${enc(section)}/${enc(item)}`);
  if (!response.ok) return;
  const card = await response.json();
  $("card-body").replaceChildren(
    el("h2", {}, card.id, card.title ? ` · ${card.title}` : ""),
    el("p", { class: "empty" }, `${card.deck ? `deck ${card.deck}, type ${card.type}, ` : ""}${card.copies} cop${card.copies === 1 ? "y" : "ies"} · ${card.where}`),
    card.problems.length ? problemList(card.problems) : [],
    card.fields.length ? el("table", {}, el("tr", {}, el("th", {}, "field"), el("th", {}, "value"), el("th", {}, "where")),
      card.fields.map((f) => el("tr", {}, el("td", {}, f.name), el("td", {}, el("pre", {}, typeof f.value === "string" ? f.value : JSON.stringify(f.value))),
        el("td", { class: "where" }, f.where)))) : [],
  );
  if (!$("card").open) $("card").showModal();
}

$("lang").addEventListener("change", (e) => {
  view.lang = e.target.value;
  history.replaceState(null, "", `?lang=${enc(view.lang)}`);
  load();
});
for (const mode of ["cards", "sheets"]) {
  $(`view-${mode}`).addEventListener("click", () => {
    view.mode = mode;
    $("view-cards").classList.toggle("on", mode === "cards");
    $("view-sheets").classList.toggle("on", mode === "sheets");
    if (view.state) render(view.state);
  });
}
$("zoom").addEventListener("input", (e) => { view.zoom = Number(e.target.value); if (view.state) render(view.state); });
$("problems-toggle").addEventListener("click", () => { view.showProblems = !view.showProblems; if (view.state) renderProblems(view.state); });

const events = new EventSource("/events");
events.addEventListener("change", () => load());
events.addEventListener("hello", () => load());
events.addEventListener("error", () => { $("status").textContent = "reconnecting to pnp serve…"; });
