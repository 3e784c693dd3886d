"""The starter game (`pnp new`) translated into Arabic, Hebrew, Hindi and Japanese, set
with fonts from Debian's packages (.ci/run installs them): each translation builds, passes
`pnp check`, and reads back from the PDF as it was written (words in their logical order,
Devanagari conjuncts as their code points, Japanese as it is). Arabic and Hebrew are
built with `direction: rtl`, so their layouts are mirrored."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from conftest import edit, run
from pdfread import card_boxes, placed_text, reader, sized_text

pytest.importorskip("uharfbuzz")
pytest.importorskip("bidi")

DEBIAN = Path("/usr/share/fonts/truetype")
# language -> (package, regular font, bold font): small packages with the script's letters
FONTS = {
    "ar": ("fonts-kacst-one", DEBIAN / "kacst-one" / "KacstOne.ttf", DEBIAN / "kacst-one" / "KacstOne-Bold.ttf"),
    "he": ("culmus", DEBIAN / "culmus" / "FrankRuehlCLM-Medium.ttf", DEBIAN / "culmus" / "FrankRuehlCLM-Bold.ttf"),
    "hi": ("fonts-lohit-deva", DEBIAN / "lohit-devanagari" / "Lohit-Devanagari.ttf", DEBIAN / "lohit-devanagari" / "Lohit-Devanagari.ttf"),
    "ja": ("fonts-motoya-l-cedar", DEBIAN / "motoya-l-cedar" / "MTLc3m.ttf", DEBIAN / "motoya-l-cedar" / "MTLc3m.ttf"),
    "th": ("fonts-thai-tlwg", DEBIAN / "tlwg" / "Loma.ttf", DEBIAN / "tlwg" / "Loma-Bold.ttf"),
}
FAMILIES = ("sans", "serif")
MM = 72 / 25.4
END = "The game ends when the deck runs out; whoever holds the most cards wins."

# The starter game's texts (English, as `pnp new` writes them, the end of the game filled
# in) and their translations: one catalogue per language.
SOURCE = (
    "Starter",
    "Starter © Ann Smith.",
    "Play card",
    "Cards",
    "Sun",
    "Moon",
    "Dawn",
    "Draw a card.",
    "Noon",
    "Play **two** cards this turn.",
    "Dusk",
    "Every other player discards a card.",
    "Midnight",
    "Rules",
    "*Starter: a card game for 2-4 players, about 15 minutes.*",
    "# Components {#components}",
    "- {{ total(cards) }} cards (see `cards.yaml`): suits Sun and Moon, values 1 to 9.",
    "# Set-up {#setup}",
    "Shuffle the deck and deal five cards to each player.",
    "# Playing {#playing}",
    "On your turn, play one [card]{.index} and do what it says; the game ends as [](#end) says.",
    "Ann plays *Dawn* and draws a card.",
    "# End of the game {#end}",
    END,
    "p.",
    "Contents",
    "Index",
    "Example",
)
TRANSLATIONS = {
    "ar": (
        "البداية",
        "البداية © آن سميث.",
        "بطاقة لعب",
        "البطاقات",
        "الشمس",
        "القمر",
        "الفجر",
        "اسحب بطاقة.",
        "الظهر",
        "العب **بطاقتين** في هذا الدور.",
        "الغسق",
        "يتخلص كل لاعب آخر من بطاقة.",
        "منتصف الليل",
        "القواعد",
        "*البداية: لعبة بطاقات من 2 إلى 4 لاعبين، مدتها نحو 15 دقيقة.*",
        "# المكونات {#components}",
        "- {{ total(cards) }} بطاقات: لونان هما الشمس والقمر، وقيم من 1 إلى 9.",
        "# التحضير {#setup}",
        "اخلط الرزمة ووزع خمس بطاقات على كل لاعب.",
        "# مجرى اللعب {#playing}",
        "في دورك، العب [بطاقة]{.index} واحدة ونفذ ما تقوله؛ تنتهي اللعبة كما يصف القسم [](#end).",
        "تلعب آن *الفجر* وتسحب بطاقة.",
        "# نهاية اللعبة {#end}",
        "تنتهي اللعبة عندما تنفد الرزمة؛ ويفوز من يملك أكثر البطاقات.",
        "ص.",
        "المحتويات",
        "الفهرس",
        "مثال",
    ),
    "he": (
        "התחלה",
        "התחלה © אן סמית.",
        "קלף משחק",
        "קלפים",
        "שמש",
        "ירח",
        "שחר",
        "קח קלף.",
        "צהריים",
        "שחק **שני** קלפים בתור הזה.",
        "דמדומים",
        "כל שחקן אחר משליך קלף.",
        "חצות",
        "חוקים",
        "*התחלה: משחק קלפים ל-2 עד 4 שחקנים, כ-15 דקות.*",
        "# רכיבים {#components}",
        "- {{ total(cards) }} קלפים: הסדרות שמש וירח, ערכים 1 עד 9.",
        "# הכנה {#setup}",
        "ערבב את החפיסה וחלק חמישה קלפים לכל שחקן.",
        "# מהלך המשחק {#playing}",
        "בתורך, שחק [קלף]{.index} אחד ובצע את מה שכתוב עליו; המשחק מסתיים כפי שמתאר [](#end).",
        "אן משחקת *שחר* ולוקחת קלף.",
        "# סוף המשחק {#end}",
        "המשחק מסתיים כשהחפיסה נגמרת; מי שמחזיק הכי הרבה קלפים מנצח.",
        "עמ׳",
        "תוכן העניינים",
        "מפתח",
        "דוגמה",
    ),
    "hi": (
        "शुरुआत",
        "शुरुआत © ऐन स्मिथ।",
        "खेल पत्ता",
        "पत्ते",
        "सूर्य",
        "चंद्रमा",
        "भोर",
        "एक पत्ता उठाएँ।",
        "दोपहर",
        "इस चाल में **दो** पत्ते खेलें।",
        "संध्या",
        "बाकी सभी खिलाड़ी एक-एक पत्ता छोड़ते हैं।",
        "आधी रात",
        "नियम",
        "*शुरुआत: 2 से 4 खिलाड़ियों के लिए पत्तों का खेल, लगभग 15 मिनट।*",
        "# सामग्री {#components}",
        "- {{ total(cards) }} पत्ते: रंग सूर्य और चंद्रमा, मान 1 से 9।",
        "# तैयारी {#setup}",
        "पत्तों को फेंटें और हर खिलाड़ी को पाँच पत्ते बाँटें।",
        "# खेल {#playing}",
        "अपनी बारी में एक [पत्ता]{.index} खेलें और जो उस पर लिखा है वह करें; खेल वैसे समाप्त होता है जैसा [](#end) बताता है।",
        "ऐन *भोर* खेलती है और एक पत्ता उठाती है।",
        "# खेल का अंत {#end}",
        "गड्डी खत्म होने पर खेल समाप्त होता है; जिसके पास सबसे ज़्यादा पत्ते हों, वह जीतता है।",
        "पृ.",
        "विषय-सूची",
        "अनुक्रमणिका",
        "उदाहरण",
    ),
    "ja": (
        "はじまり",
        "はじまり © アン・スミス",
        "プレイカード",
        "カード",
        "太陽",
        "月",
        "夜明け",
        "カードを1枚引く。",
        "正午",
        "このターンはカードを **2枚** 出す。",  # spaces: pnp reads asterisks as markup only around whole words
        "夕暮れ",
        "他のプレイヤー全員がカードを1枚捨てる。",
        "真夜中",
        "ルール",
        "*はじまり：2〜4人用のカードゲーム、約15分。*",
        "# 内容物 {#components}",
        "- カード{{ total(cards) }}枚：スートは太陽と月、数値は1から9。",
        "# 準備 {#setup}",
        "山札をシャッフルし、各プレイヤーにカードを5枚ずつ配る。",
        "# ゲームの進行 {#playing}",
        "自分の手番に[カード]{.index}を1枚出し、その効果を実行する。ゲームの終わり方は[](#end)を参照。",
        "アンは「夜明け」を出し、カードを1枚引く。",
        "# ゲームの終了 {#end}",
        "山札がなくなるとゲームは終了し、カードを最も多く持っているプレイヤーが勝つ。",
        "p.",
        "目次",
        "索引",
        "例",
    ),
    "th": (  # words run together, spaces between phrases: the lines break where ICU's dictionary finds a word's end
        "เริ่มต้น",
        "เริ่มต้น © แอน สมิธ",
        "การ์ดเล่น",
        "การ์ด",
        "ดวงอาทิตย์",
        "ดวงจันทร์",
        "รุ่งอรุณ",
        "จั่วการ์ดหนึ่งใบ",
        "เที่ยงวัน",
        "ในตานี้ให้เล่นการ์ด **สอง** ใบ",  # spaces: pnp reads asterisks as markup only around whole words
        "พลบค่ำ",
        "ผู้เล่นคนอื่นทุกคนทิ้งการ์ดคนละหนึ่งใบ",
        "เที่ยงคืน",
        "กติกา",
        "*เริ่มต้น: เกมการ์ดสำหรับผู้เล่น 2-4 คน ใช้เวลาประมาณ 15 นาที*",
        "# ส่วนประกอบ {#components}",
        "- การ์ด {{ total(cards) }} ใบ: ชุดดวงอาทิตย์และดวงจันทร์ ค่าตั้งแต่ 1 ถึง 9",
        "# การเตรียมเกม {#setup}",
        "สับกองการ์ดแล้วแจกการ์ดให้ผู้เล่นแต่ละคนคนละห้าใบ",
        "# การเล่น {#playing}",
        "ในตาของคุณ ให้เล่น[การ์ด]{.index}หนึ่งใบและทำตามที่การ์ดบอก เกมจบลงตามที่ [](#end) อธิบายไว้",
        "แอนเล่น *รุ่งอรุณ* และจั่วการ์ดหนึ่งใบ",
        "# การจบเกม {#end}",
        "เกมจะจบลงเมื่อกองการ์ดหมด ผู้ที่ถือการ์ดมากที่สุดเป็นผู้ชนะ",
        "หน้า",
        "สารบัญ",
        "ดัชนี",
        "ตัวอย่าง",
    ),
}


def _po(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def starter_in(lang: str, folder: Path) -> Path:
    """The starter game with its catalogue for `lang` translated and the language's font
    as every family of the game; skipped when the font is not installed."""
    package, regular, bold = FONTS[lang]
    if not regular.is_file() or not bold.is_file():
        pytest.skip(f"the font {regular} is not installed (Debian package {package}; .ci/run installs it)")
    result = run("new", folder, "--title", "Starter", "--translation", lang)
    assert result.exit_code == 0, result.output
    game = folder
    # KacstOne has no Latin letters: the Arabic edition's cover and back cover print the author
    # and the licence in Arabic (pnp check says where Latin text would print blank: test_covers.py)
    author, licence = ("آن سميث", "جميع الحقوق محفوظة") if lang == "ar" else ("Ann Smith", "CC BY 4.0")
    edit(game / "game.yaml", "author: Your Name", f"author: {author}")
    edit(game / "game.yaml", "CHOOSE-A-LICENCE", licence)
    edit(game / "game.yaml", "© Your Name.", "© Ann Smith.")
    edit(game / "rules.md", "Write how the game ends and who wins.", END)
    edit(
        game / "game.yaml",
        "  back: Play card",
        "  back: Play card\n  pnp.rulebook.page: p.   # a cross-reference's 'p. 4'\n  pnp.rulebook.contents: Contents\n  pnp.rulebook.index: Index\n  pnp.rulebook.example: Example",
    )
    (game / "fonts").mkdir()
    lines = []
    for font in {regular, bold}:
        shutil.copy(font, game / "fonts" / font.name)
    lines.append(f"{lang}:")  # the families in this language
    for family in FAMILIES:
        lines += [f"  {family}: {regular.name}", f"  {family}-bold: {bold.name}", f"  {family}-italic: {regular.name}", f"  {family}-semibold: {bold.name}"]
    (game / "fonts" / "fonts.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("i18n", "update", game).exit_code == 0
    po = game / "locale" / f"{lang}.po"
    catalogue = po.read_text(encoding="utf-8")
    for source, translated in zip(SOURCE, TRANSLATIONS[lang]):
        entry = f'msgid {_po(source)}\nmsgstr ""'
        assert entry in catalogue, source
        catalogue = catalogue.replace(entry, f"msgid {_po(source)}\nmsgstr {_po(translated)}")
    po.write_text(catalogue, encoding="utf-8")
    if lang in ("ar", "he"):
        edit(game / "game.yaml", "\nstrings:", f"\ndirection:\n  {lang}: rtl\n\nstrings:")
    return game


def built(game: Path, lang: str, out: Path) -> dict[str, Path]:
    """`pnp check` and `pnp build` of the game in `lang`: its PDFs by kind (cards, rules)."""
    checked = run("check", game, "--lang", lang)
    said = checked.output.splitlines()
    assert checked.exit_code == 0 and said[-1] == "0 errors, 1 warning", checked.output
    # the one warning: pnp has no catalogue of its own words in this language (its ruler
    # caption and sheet labels are set unshaped in the bundled font, so they stay English)
    assert f"own words in '{lang}'" in said[0] and said[0].endswith(f"pnp/i18n/own/{lang}.po [own-words-missing]"), checked.output
    result = run("build", game, "--lang", lang, "--out", out)
    assert result.exit_code == 0, result.output
    pdfs = sorted((out / game.name).rglob("*.pdf"))
    return {kind: next(p for p in pdfs if p.name.startswith(kind)) for kind in ("cards", "rules")}


def _read(path: Path, page: int) -> str:
    """A page's text as pypdf extracts it, Arabic presentation forms read as their letters."""
    return unicodedata.normalize("NFKC", reader(path).pages[page].extract_text())


# What each language's PDFs must read back, in its words' logical order: a card's text and
# title, and a paragraph of the rulebook (its page: the third, after the cover and contents).
READ_BACK = {
    "ar": (("اسحب بطاقة.", "يتخلص كل لاعب آخر من بطاقة.", "منتصف الليل"), ("اخلط الرزمة ووزع خمس بطاقات على كل لاعب", "تنتهي اللعبة عندما تنفد الرزمة")),
    "he": (("קח קלף.", "כל שחקן אחר משליך קלף.", "צהריים"), ("ערבב את החפיסה וחלק חמישה קלפים לכל שחקן", "המשחק מסתיים כשהחפיסה נגמרת")),
    "hi": (("एक पत्ता उठाएँ।", "संध्या", "चंद्रमा", "आधी रात"), ("पत्तों को फें", "गड्डी खत्म होने पर खेल समाप्त होता है")),
    "ja": (
        ("カードを", "枚引く。", "他のプレイヤー全員がカードを", "真夜中"),
        ("山札をシャッフルし、各プレイヤーにカードを", "山札がなくなるとゲームは終了し"),
    ),
    "th": (("จั่วการ์ดหนึ่งใบ", "ผู้เล่นคนอื่นทุกคนทิ้งการ์ด", "เที่ยงคืน"), ("สับกองการ์ดแล้วแจกการ์ดให้ผู้เล่นแต่ละคน", "เกมจะจบลงเมื่อกองการ์ดหมด")),
}


@pytest.mark.parametrize("lang", ["ar", "he", "hi", "ja", "th"])
def test_a_translation_of_the_starter_game_builds_checks_and_reads_back(lang, tmp_path):
    if lang == "th":
        pytest.importorskip("icu4py")  # Python 3.11 and later
    game = starter_in(lang, tmp_path / "starter")
    pdfs = built(game, lang, tmp_path / "out")
    cards, rules = READ_BACK[lang]
    card_text = _read(pdfs["cards"], 0)
    assert all(words in card_text for words in cards), card_text
    rules_text = _read(pdfs["rules"], 2)
    assert all(words in rules_text for words in rules), rules_text
    assert "\ufffd" not in card_text and not re.search("[\ue000-\uf8ff]", card_text + rules_text)  # no private-use stand-in for a glyph


def test_devanagari_conjuncts_read_back_as_their_characters(tmp_path):
    """A conjunct is one glyph no character maps to: the PDF maps it to the characters it
    stands for (ध + ् + य in संध्या, द्र in चंद्रमा, त्त in पत्ता)."""
    game = starter_in("hi", tmp_path / "starter")
    text_of_cards = _read(built(game, "hi", tmp_path / "out")["cards"], 0)
    for word in ("संध्या", "चंद्रमा", "पत्ता", "पत्ते"):
        assert word in text_of_cards, (word, text_of_cards)


def test_an_arabic_card_is_mirrored(tmp_path):
    """direction: rtl mirrors the starter's card: the value's disc and number move from
    the left-hand corner (its box 6 to 18 mm from the left) to the right-hand one (45 to
    57 mm), and the title, aligned left beside it in the layout, ends beside it on its left."""
    game = starter_in("ar", tmp_path / "starter")
    pdf = built(game, "ar", tmp_path / "out")["cards"]
    arabic = {unicodedata.normalize("NFKC", t): x for t, x, _ in placed_text(reader(pdf).pages[0])}
    english = run("build", game, "--lang", "en", "--out", tmp_path / "en")
    assert english.exit_code == 0, english.output
    (source,) = (tmp_path / "en" / game.name).rglob("cards-*.pdf")
    latin = {t: x for t, x, _ in placed_text(reader(source).pages[0])}
    assert abs(arabic["1"] - latin["1"] - 39 * MM) < 2 * MM, (arabic, latin)  # the same card, the same place on the sheet
    assert latin["1"] < latin["Dawn"] and arabic["الفجر"] < arabic["1"]
    assert latin["Dawn"] < arabic["الفجر"]


def _translate(game: Path, lang: str, source: str, translated: str) -> int:
    """Change one translation in the catalogue; returns its msgid's line (where problems are)."""
    po = game / "locale" / f"{lang}.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    i = lines.index(f"msgid {_po(source)}")
    lines[i + 1] = f"msgstr {_po(translated)}"
    po.write_text("\n".join(lines), encoding="utf-8")
    return i + 1


def overflow_and_missing_glyphs(tmp_path, lang: str, long: str, needs_mm: float, short: str) -> None:
    """The starter game in `lang`: `long` as the first card's text is an overflow that needs
    `needs_mm` of height, and `short` with Arabic letters the font lacks a missing glyph."""
    game = starter_in(lang, tmp_path / "starter")
    line = _translate(game, lang, "Draw a card.", long)
    output = run("check", game, "--lang", lang).output.replace(f"{game}/", "")
    assert (
        f"locale/{lang}.po:{line}: text of card 'dawn' does not fit its 51.0 x 50.0 mm box even at 6 pt (it needs {needs_mm:.1f} mm of height); "
        "expected a shorter translation, or a larger box or smaller min_size in layout 'card' (layouts/card.yaml:31:5); the card is at cards.yaml:2:3 [text-overflow]"
    ) in output, output
    line = _translate(game, lang, "Draw a card.", short + " مرحبا")
    output = run("check", game, "--lang", lang).output.replace(f"{game}/", "")
    assert (
        f"locale/{lang}.po:{line}: text of card 'dawn' uses 'ا' (U+0627), 'ب' (U+0628), 'ح' (U+062D), 'ر' (U+0631), 'م' (U+0645), missing from font 'sans'; "
        "expected a font that has them: no bundled or game font does (add a .ttf that has them to the game's fonts/ folder, named in fonts/fonts.yaml) [font-glyph]"
    ) in output, output
    assert "1 error," in output


def test_overflow_and_missing_glyphs_are_measured_on_the_shaped_text(tmp_path):
    overflow_and_missing_glyphs(tmp_path, "hi", " ".join(["बाकी सभी खिलाड़ी एक-एक पत्ता छोड़ते हैं।"] * 30), 55.9, "एक पत्ता उठाएँ।")


def test_a_right_to_left_rulebook_is_mirrored(tmp_path):
    """In Arabic the running head has the book's title on the right and the chapter on the
    left (each shaped), and the contents' page numbers are on the left of their lines."""
    game = starter_in("ar", tmp_path / "starter")
    rules = built(game, "ar", tmp_path / "out")["rules"]
    body = {unicodedata.normalize("NFKC", t): x for t, x, _ in placed_text(reader(rules).pages[2])}
    assert body["البداية: القواعد"] > body["المكونات"], body  # the running head: title right, chapter left
    contents = [(unicodedata.normalize("NFKC", t), x, round(y)) for t, x, y in placed_text(reader(rules).pages[1])]
    (line, *_) = [y for t, _, y in contents if t == "المكونات"]
    on_line = sorted((x, t) for t, x, y in contents if y == line)
    assert [t for _, t in on_line][0] == "3" and on_line[-1] == (max(x for x, _ in on_line), "1"), on_line  # page 3 on the left, heading 1 on the right


# A paragraph of natural Thai: spaces between its phrases only, never between the words of one
PARAGRAPH = (
    "เมื่อถึงตาของคุณ ให้จั่วการ์ดจากกองกลางหนึ่งใบ แล้วเลือกการ์ดจากมือของคุณมาเล่นหนึ่งใบ "
    "ถ้าการ์ดที่เล่นมีค่ามากกว่าการ์ดใบบนสุดของกองทิ้ง คุณจะได้เก็บการ์ดทั้งสองใบไว้เป็นคะแนน "
    "ผู้เล่นที่สะสมคะแนนได้มากที่สุดเมื่อการ์ดหมดกองจะเป็นผู้ชนะ"
)


def test_thai_breaks_its_lines_where_icu_finds_a_word_end(tmp_path):
    """In a box 30 mm wide, a Thai paragraph's lines end only where ICU's dictionary says a
    word ends (or at a space), inside phrases too, and none runs past the box's edges."""
    icu4py = pytest.importorskip("icu4py.breakers")
    uharfbuzz = pytest.importorskip("uharfbuzz")
    game = starter_in("th", tmp_path / "starter")
    _translate(game, "th", "Draw a card.", PARAGRAPH)  # the text of the first card, 'dawn'
    edit(game / "layouts" / "card.yaml", "box: [6, 30, 51, 50]", "box: [6, 30, 30, 50]")
    page = reader(built(game, "th", tmp_path / "out")["cards"]).pages[0]
    card_x, card_y, card_w, card_h = card_boxes(page)[0]  # 'dawn', the first card drawn
    left, right = card_x + 6 * MM, card_x + 36 * MM
    top = card_y + card_h - 30 * MM  # the box's top edge (PDF's y runs upwards)
    lines: dict[float, list[tuple[float, str, float]]] = {}
    for run_text, x, y, size in sized_text(page):
        if left - 1 <= x <= card_x + card_w and card_y <= y < top:  # the paragraph's runs, line by line
            lines.setdefault(round(y, 1), []).append((x, unicodedata.normalize("NFKC", run_text), size))
    text_lines = ["".join(t for _, t, _ in sorted(runs)) for _, runs in sorted(lines.items(), reverse=True)]
    assert "".join(text_lines).replace(" ", "") == unicodedata.normalize("NFKC", PARAGRAPH).replace(" ", ""), text_lines
    # ICU's boundaries, counted in letters (the spaces at a line's end are not printed)
    paragraph = unicodedata.normalize("NFKC", PARAGRAPH)
    ends, count = set(), 0
    for segment in icu4py.LineBreaker(paragraph, "th"):
        count += len(segment.replace(" ", ""))
        ends.add(count)
    letters = [i for i, ch in enumerate(paragraph) if ch != " "]  # each letter's place in the paragraph
    count, inside = 0, 0
    for line in text_lines[:-1]:
        count += len(line.replace(" ", ""))
        assert count in ends, (line, text_lines)
        inside += paragraph[letters[count - 1] + 1] != " "  # the line ends between two words of a phrase
    assert len(text_lines) >= 8 and inside >= len(text_lines) // 2, text_lines
    face = uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(FONTS["th"][1])))
    font = uharfbuzz.Font(face)
    for _, runs in lines.items():  # each line within the box, measured by HarfBuzz from the font's own advances
        x, text, size = min(runs)
        buf = uharfbuzz.Buffer()
        buf.add_str("".join(t for _, t, _ in sorted(runs)))
        buf.guess_segment_properties()
        uharfbuzz.shape(font, buf, {"kern": True, "liga": True})
        width = sum(p.x_advance for p in buf.glyph_positions) * size / face.upem
        assert left - 0.01 <= x and x + width <= right + 0.5, (text, x, width, left, right)


def test_overflow_and_missing_glyphs_are_measured_on_the_broken_thai_text(tmp_path):
    """A Thai text too long for its box even broken at every word end is an overflow with the
    height it needs, and a letter Loma lacks is a missing glyph, as in any other script."""
    pytest.importorskip("icu4py")
    overflow_and_missing_glyphs(tmp_path, "th", " ".join([PARAGRAPH] * 8), 94.0, "จั่วการ์ดหนึ่งใบ")
