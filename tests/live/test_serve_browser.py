"""`pnp serve` in a real browser: headless Chromium (Debian's `chromium` and
`chromium-driver`, which .ci/run installs) opens the page, sees the cards' pictures
load, and sees a saved edit (a new picture, then a text that overflows, marked on its
card) without reloading the page."""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import edit

from pnp.live.serve import start

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; .ci/run does)"
)
webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extras)")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
]
WAIT = 30  # seconds: only against hanging (a save is shown within about a second)


@pytest.fixture
def browser() -> Iterator:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def serving(game: Path, out: Path) -> Iterator[str]:
    """`pnp serve`'s server for `game`, in a thread; its address."""
    server, _ = start(game, out)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server.url
    finally:
        server.preview.close()
        server.shutdown()
        server.server_close()


@pytest.fixture
def url(mesta: Path, tmp_path: Path) -> Iterator[str]:
    with serving(mesta, tmp_path / "out") as address:
        yield address


def wait_for(driver, script: str, what: str):
    """Until `script` (a JavaScript expression) is true in the page."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(lambda d: d.execute_script(f"return {script}"), message=what)


CARD = "document.querySelector('.item[data-key=\"events/julius-caesar\"]')"
FRONT = f"{CARD}.querySelector('.face[data-side=\"front\"] img')"


def test_the_page_shows_the_cards_and_follows_a_save(browser, url: str, mesta: Path):
    browser.get(url)
    wait_for(browser, "document.querySelectorAll('.item').length > 100", "the cards listed")
    assert browser.find_element("id", "title").text == "Mestá"
    browser.execute_script(f"{CARD}.scrollIntoView()")  # the pictures load lazily: these are on screen now
    wait_for(browser, f"{FRONT}.complete && {FRONT}.naturalWidth > 0", "the card's picture loaded")
    assert browser.execute_script(f"return {FRONT}.naturalWidth") == round(63 / 25.4 * 150)  # an event card, 63 mm at 150 dpi
    first = browser.execute_script(f"return {FRONT}.dataset.digest")
    assert browser.execute_script(f"return {CARD}.classList.contains('bad')") is False
    browser.execute_script("document.body.dataset.marker = 'not reloaded'")

    edit(mesta / "events.yaml", "text: Všetci hráči strácajú", "text: Všetci hráči hneď strácajú")
    wait_for(browser, f"{FRONT}.dataset.digest !== '{first}'", "the new picture after a save")
    wait_for(browser, f"{FRONT}.complete && {FRONT}.naturalWidth > 0", "the new picture loaded")

    assert browser.execute_script(f"return {CARD}.classList.contains('bad')") is False
    edit(mesta / "events.yaml", "text: Všetci hráči hneď strácajú všetky rímske mestá.", "text: " + "Všetci hráči hneď strácajú všetky rímske mestá. " * 40)
    wait_for(browser, f"{CARD}.classList.contains('bad')", "the overflow marked on its card")
    assert browser.execute_script(f"return {CARD}.querySelectorAll('.mark:not(.whole)').length") == 1  # on the text box, not the whole card
    assert "error" in browser.find_element("id", "problems-toggle").text
    browser.find_element("id", "problems-toggle").click()
    problems = browser.find_element("id", "problems").text
    assert "events.yaml:" in problems and "text-overflow" in problems
    assert browser.execute_script("return document.body.dataset.marker") == "not reloaded"

    browser.execute_script(f"{CARD}.click()")
    wait_for(browser, "document.getElementById('card').open", "the card's data shown")
    assert "Všetci hráči hneď strácajú" in browser.find_element("id", "card-body").text


@pytest.fixture
def new_game(tmp_path: Path) -> Path:
    from conftest import run

    assert run("new", "g", "--out", tmp_path).exit_code == 0
    return tmp_path / "g"


@pytest.fixture
def new_url(new_game: Path, tmp_path: Path) -> Iterator[str]:
    with serving(new_game, tmp_path / "out") as address:
        yield address


DUSK = "document.querySelector('.item[data-key=\"cards/dusk\"]')"
BUTTON = "document.getElementById('problems-toggle').textContent"


def test_the_readmes_mistake_is_counted_listed_and_outlined(browser, new_url: str, new_game: Path):
    browser.get(new_url)
    wait_for(browser, f"{DUSK} !== null", "the cards listed")
    assert browser.execute_script(f"return {BUTTON}") == "0 errors, 4 warnings"  # what pnp new leaves to fill in
    assert browser.execute_script(f"return {DUSK}.classList.contains('bad')") is False

    edit(new_game / "cards.yaml", "suit: moon\n  value: 3", "suit: mon\n  value: 3")  # the README's mistake
    wait_for(browser, f"{DUSK} && {DUSK}.classList.contains('bad')", "the card outlined")
    assert browser.execute_script(f"return {BUTTON}") == "1 error, 4 warnings, 2 not checked"
    assert browser.find_element("id", "error").is_displayed() is False  # no banner: the game loads, without the card
    assert "not drawn: its data has errors" in browser.execute_script(f"return {DUSK}.textContent")
    browser.find_element("id", "problems-toggle").click()
    problems = browser.find_element("id", "problems").text
    assert "cards.yaml:17:9: field 'suit' of card 'dusk' is 'mon', which is not in 'suit' (did you mean 'moon'?)" in problems
    assert "→ cards/dusk" in problems

    edit(new_game / "cards.yaml", "- id: dawn", "- id: dawn\n  oops: [")  # now the file cannot be read at all
    wait_for(browser, "!document.getElementById('error').hidden", "the banner")
    banner = browser.find_element("id", "error").text
    assert "The game cannot be loaded" in banner and "yaml-syntax" in banner
    assert browser.execute_script(f"return {BUTTON}") == "1 error, 0 warnings"  # the banner's error, counted
    assert "yaml-syntax" in browser.find_element("id", "problems").text
