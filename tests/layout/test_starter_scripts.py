"""The starter game (`pnp new`) translated into Arabic, Hebrew, Hindi and Japanese, set
with fonts from Debian's packages (.ci/run installs them): each translation builds, passes
`pnp check`, and reads back from the PDF as it was written (words in their logical order,
Devanagari conjuncts as their code points, Japanese as it is). Arabic and Hebrew are
built with `direction: rtl`, so their layouts are mirrored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import edit, run

pytest.importorskip("uharfbuzz")
pytest.importorskip("bidi")

DEBIAN = Path("/usr/share/fonts/truetype")
# language -> (package, regular font, bold font): small packages with the script's letters
FONTS = {
    "ar": ("fonts-kacst-one", DEBIAN / "kacst-one" / "KacstOne.ttf", DEBIAN / "kacst-one" / "KacstOne-Bold.ttf"),
    "he": ("culmus", DEBIAN / "culmus" / "FrankRuehlCLM-Medium.ttf", DEBIAN / "culmus" / "FrankRuehlCLM-Bold.ttf"),
    "hi": ("fonts-lohit-deva", DEBIAN / "lohit-devanagari" / "Lohit-Devanagari.ttf", DEBIAN / "lohit-devanagari" / "Lohit-Devanagari.ttf"),
    "ja": ("fonts-motoya-l-cedar", DEBIAN / "motoya-l-cedar" / "MTLc3m.ttf", DEBIAN / "motoya-l-cedar" / "MTLc3m.ttf"),
}
FAMILIES = ("sans", "serif")
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
    edit(game / "game.yaml", "author: Your Name", "author: Ann Smith")
    edit(game / "game.yaml", "CHOOSE-A-LICENCE", "CC BY 4.0")
    edit(game / "game.yaml", "© Your Name.", "© Ann Smith.")
    edit(game / "rules.md", "Write how the game ends and who wins.", END)
    edit(game / "game.yaml", "  back: Play card", "  back: Play card\n  pnp.rulebook.page: p.   # a cross-reference's 'p. 4', translated")
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
    assert checked.exit_code == 0 and "0 errors, 0 warnings" in checked.output, checked.output
    result = run("build", game, "--lang", lang, "--out", out)
    assert result.exit_code == 0, result.output
    pdfs = sorted((out / game.name).rglob("*.pdf"))
    return {kind: next(p for p in pdfs if p.name.startswith(kind)) for kind in ("cards", "rules")}
