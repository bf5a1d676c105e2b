"""The cards and the languages of the pages, in headless Chromium: every language of the catalogue has
every text (with the same placeholders), every key the scripts use exists, a name that is not a
language falls back to English, the switch offers every language and remembers the choice, numbers
follow the language, and each page in Greek and Russian shows no English. The cards are drawn as SVG,
named as before, and a whole hand fits a phone's width.

With ``GINSIM_SCREENSHOTS=DIR`` some of the pages are saved there (``SHOWN``, at both sizes).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api")

from ginsim import GameRecord, Rules, play_hand  # noqa: E402
from ginsim.gin.game.hand import Outcome  # noqa: E402
from ginsim.gin.game.rules import PRESETS  # noqa: E402
from ginsim.web import game  # noqa: E402
from tests.web import test_browser as pages  # noqa: E402
from tests.web.test_browser import label, new_page, settled, shot  # noqa: E402

server, browser = pages.server, pages.browser  # the browser tests' server (with a run to show) and Chromium

pytestmark = pytest.mark.browser

STATIC = Path(game.__file__).parent / "static"
LANGUAGES = ("en", "ru", "el")
# The keys the scripts build from data (t(`prefix.${name}`)): each prefix with every name it takes.
DYNAMIC = {
    "opponent.": game.OPPONENTS,
    "preset.": tuple(PRESETS),
    "new.dealer.": ("random", "you", "opponent"),
    "move.": ("take", "pass", "stock", "pile", "discard", "knock", "gin", "big_gin", "reshuffle"),
    "turn.": ("offer", "draw", "discard", "knock", "gin"),
    "end.": ("gin", "big_gin"),
    "hint.option.": ("take", "pass", "pile", "stock", "discard", "knock", "gin"),
    "outcome.": tuple(outcome.value for outcome in Outcome),
    "level.": (*game.OPPONENTS, "below", "above"),
    "level.about.": game.OPPONENTS,
    "help.preset.": tuple(PRESETS),
    "howto.": tuple(f"{section}.{part}" for section in ("cards", "melds", "deal", "turn", "knock", "gin", "layoffs",
                                                        "undercut", "draw", "game", "oklahoma", "straight",
                                                        "hollywood", "other") for part in ("title", "text")),
    "howto.oklahoma.": ("seven", "ace", "king"),
    "say.draw.": ("stock", "pile", "take"),
    "say.end.": ("discard", "knock", "gin", "big_gin"),
    "sum.": ("undercut_bonus", "gin_bonus", "big_gin_bonus", "spade_upcard"),
    "end.detail.": tuple(f"{outcome}.{side}" for outcome in ("knock", "undercut", "gin", "big_gin")
                         for side in ("you", "them")),
    "end.title.": tuple(outcome.value for outcome in Outcome),
    "speed.": ("normal", "fast", "off"),
}
# Texts of the English pages that a translated page never shows (matched as whole words, case and all).
ENGLISH = ("New game", "Rules", "Opponent", "Start", "Deadwood", "Stock", "Draw", "Take", "Pass", "Knock", "Hint",
           "Score", "Total", "Play", "Your games", "Review", "Runs", "Hand", "Decisions", "error rate", "rating",
           "luck", "Players", "Options", "Group by", "Measure", "Replay hand", "Show", "Step", "takes", "discards",
           "draws", "knocks", "from the stock", "vs", "seed", "hands", "Upcard", "nobody", "player", "Started",
           "Result", "Open", "Resume", "Gins", "Dealer", "Winner", "Standard", "Language", "Save record", "you", "You")


# The pages saved with GINSIM_SCREENSHOTS: the cards on the table, the review in Greek, the runs in Russian.
SHOWN = {("play", "el"), ("play", "ru"), ("review", "el"), ("runs", "ru")}


@pytest.fixture(scope="module")
def catalogue(browser: Any, server: tuple[str, Any]) -> dict[str, Any]:
    """i18n.js as the browser reads it: its languages and its catalogue."""
    base, _ = server
    page = new_page(browser, base)
    page.goto(f"{base}/runs?lang=en")
    found: dict[str, Any] = page.evaluate("async () => { const m = await import('/static/i18n.js'); "
                                          "return { languages: m.LANGUAGES, catalogue: m.CATALOGUE }; }")
    page.context.close()
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_language_has_every_text_with_the_same_placeholders(catalogue: dict[str, Any]) -> None:
    texts = catalogue["catalogue"]
    assert set(texts) == set(catalogue["languages"]) == set(LANGUAGES)
    english = texts["en"]
    for language in LANGUAGES:
        missing = sorted(set(english) - set(texts[language]))
        extra = sorted(set(texts[language]) - set(english))
        assert not missing and not extra, f"{language}: missing {missing}, not in English {extra}"
        assert list(texts[language]) == list(english), f"{language}: the keys are not in English's order"
        for key, text in english.items():
            own = texts[language][key]
            assert own.strip(), f"{language}: {key} is empty"
            assert placeholders(own) == placeholders(text), f"{language}: {key}: {own}"


def _scripts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js") if path.name != "i18n.js"}


def test_every_key_the_scripts_use_is_in_the_catalogue(catalogue: dict[str, Any]) -> None:
    english = catalogue["catalogue"]["en"]
    prefixes = {key.split(".")[0] for key in english}

    def groups(text: str) -> bool:  # the start of keys a script words data with ("runs.column"), not a key
        return text not in english and any(key.startswith(f"{text}.") for key in english)
    used: dict[str, set[str]] = {}
    for name, source in _scripts().items():
        # t("key"), t(`key`), and a key handed on as a string ("nav.play", "button.next").
        keys = set(re.findall(r"""\bt\(\s*(?:"([^"]+)"|`([^`$]+)`)""", source))
        keys = {a or b for a, b in keys}
        keys |= {key for key in re.findall(r"""["'`]([a-z]+(?:\.[a-z0-9_-]+)+)["'`]""", source)
                 if key.split(".")[0] in prefixes and not groups(key)}
        for prefix in re.findall(r"\bt\(\s*`([^`$]*)\$\{", source):
            assert prefix in DYNAMIC, f"{name} builds keys {prefix}${{...}}: list the names it takes in DYNAMIC"
            keys |= {prefix + value for value in DYNAMIC[prefix]}
        used[name] = keys
    assert used["review.js"] and used["runs.js"] and used["common.js"]
    for name, keys in used.items():
        assert not sorted(keys - set(english)), f"{name} uses keys the catalogue lacks: {sorted(keys - set(english))}"


@pytest.mark.parametrize("asked", ["__proto__", "constructor", "toString", "valueOf", "xx", "russian"])
def test_a_name_that_is_not_a_language_falls_back_to_english(browser: Any, server: tuple[str, Any], asked: str) -> None:
    base, _ = server
    page = new_page(browser, base)
    page.goto(f"{base}/?lang={asked}")
    page.wait_for_selector("form.new-game")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.get_by_role("heading", name="New game").count() == 1
    assert page.evaluate("localStorage.getItem('ginsim.lang')") in (None, "en")
    assert not page.errors


def test_the_switch_offers_every_language_and_the_choice_is_remembered(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    page = new_page(browser, base)
    page.goto(f"{base}/games?lang=el")
    page.wait_for_selector("main h1")
    assert page.evaluate("document.documentElement.lang") == "el"
    switch = page.get_by_role("group", name="Γλώσσα")
    assert [switch.get_by_role("button").nth(i).inner_text() for i in range(3)] == ["English", "Русский", "Ελληνικά"]
    assert switch.get_by_role("button", name="Ελληνικά").get_attribute("aria-current") == "true"
    page.goto(f"{base}/runs")  # ?lang= was remembered
    page.wait_for_selector("main h1")
    assert page.evaluate("document.documentElement.lang") == "el"
    with page.expect_navigation():
        page.get_by_role("button", name="Русский").click()
    assert page.evaluate("document.documentElement.lang") == "ru"
    page.goto(f"{base}/review")
    page.wait_for_selector("main h1")
    assert page.evaluate("[document.documentElement.lang, document.title]") == ["ru", "Разбор · Джин рамми"]
    assert not page.errors


def test_numbers_follow_the_language(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    written = {}
    for language in LANGUAGES:
        page = new_page(browser, base)
        page.goto(f"{base}/runs?lang={language}")
        page.wait_for_selector("main h1")
        written[language] = page.evaluate("async () => { const c = await import('/static/common.js'); "
                                          "return [c.formatNumber(1234.5), c.formatPercent(0.125)]; }")
        page.context.close()
    assert written["en"] == ["1,234.5", "12.5%"]
    for language in ("ru", "el"):
        number, percent = written[language]
        assert "1234,5" in re.sub(r"\D(?=\d{3}\b)", "", number) and percent.startswith("12,5"), (language, written)


def english_words(page: Any) -> list[str]:
    text = page.locator("body").inner_text()
    return [word for word in ENGLISH if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)]


def record_file(tmp_path: Path) -> Path:
    record = GameRecord.of_hand(play_hand(Rules(), "simple,greedy", seed=3, index=2))
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    return path


@pytest.mark.parametrize("language", ["el", "ru"])
@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_every_page_in_greek_and_russian_shows_no_english(browser: Any, server: tuple[str, Any], tmp_path: Path,
                                                          language: str, width: int, height: int) -> None:
    base, _ = server
    page = new_page(browser, base, width, height)
    seen: dict[str, list[str]] = {}

    def look(name: str) -> None:
        assert page.evaluate("document.documentElement.lang") == language, name
        seen[name] = english_words(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} is wider than the screen"
        if (name, language) in SHOWN:
            shot(page, f"{name}-{language}-{width}")

    page.goto(f"{base}/?lang={language}")
    page.wait_for_selector("form.new-game")
    look("form")
    page.locator("#new-opponent").select_option("simple")
    page.locator("form.new-game button[type=submit]").click()
    settled(page)
    page.wait_for_selector(".hand .card svg")
    look("play")

    page.goto(f"{base}/review")
    page.wait_for_selector("#record-file", state="attached")
    page.locator("#record-file").set_input_files(str(record_file(tmp_path)))
    page.wait_for_selector("table.players", timeout=120_000)
    page.locator(".movelist button").nth(2).click()
    page.evaluate("window.scrollTo(0, 0)")
    look("review")

    page.goto(f"{base}/games")
    page.wait_for_selector("table.games-list")
    look("games")

    page.goto(f"{base}/runs")
    page.locator(".runs li button").first.click()
    page.wait_for_selector(".detail svg.chart")
    page.locator("#runs-by").select_option("upcard")
    page.wait_for_function("() => document.querySelectorAll('.detail tbody tr').length > 13")
    page.locator("#runs-hand").fill("12")
    page.locator(".detail p button").first.click()  # show the hand
    page.wait_for_selector(".detail .board")
    page.evaluate("document.querySelector('.detail .board').scrollIntoView({ block: 'start' })")
    look("runs")
    assert not {name: words for name, words in seen.items() if words}
    assert not page.errors


def test_cards_are_drawn_named_and_a_hand_fits_a_phone(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    page = new_page(browser, base, 390, 844)
    page.goto(f"{base}/?lang=en")
    page.wait_for_selector("form.new-game")
    page.get_by_role("button", name="Start").click()
    settled(page)
    page.wait_for_selector(".hand .card svg")
    cards = page.locator(".hand button.card")
    assert cards.count() in (10, 11)
    for i in range(cards.count()):
        card = cards.nth(i)
        code = card.get_attribute("data-card")
        assert card.get_attribute("aria-label") == label(code)
        assert card.locator("svg[aria-hidden=true]").count() == 1
        assert page.get_by_role("button", name=label(code), exact=True).count() == 1
    tops = {round(box["y"]) for box in (cards.nth(i).bounding_box() for i in range(cards.count()))}
    assert len(tops) == 1, "the hand wraps onto a second row"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.locator(".card.back svg").count() >= 1
    shot(page, "cards-phone")
    # The widest hand a deal can give, eleven cards in three melds and the deadwood, also fits one row.
    widest = page.evaluate("""async () => {
      const { cardFace, el } = await import('/static/common.js');
      const groups = [['AC', '2C', '3C'], ['4D', '5D', '6D'], ['7H', '8H', '9H'], ['TS', 'KS']];
      const face = (card) => cardFace(card, { button: true });
      const hand = el('div', { class: 'hand' }, groups.map((cards, i) =>
        el('div', { class: `group ${i < 3 ? 'meld' : 'loose'}` }, cards.map(face))));
      document.querySelector('.hand').replaceWith(hand);
      const tops = [...hand.querySelectorAll('.card')].map((card) => Math.round(card.getBoundingClientRect().top));
      return new Set(tops).size;
    }""")
    assert widest == 1
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert not page.errors


def test_every_card_face_is_drawn_with_its_rank_and_colour(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    page = new_page(browser, base)
    page.goto(f"{base}/runs?lang=en")
    page.wait_for_selector("main h1")
    faces = page.evaluate("""async () => {
      const { cardFace } = await import('/static/common.js');
      const faces = [];
      for (const suit of 'CDHS') for (const rank of 'A23456789TJQK') {
        const face = cardFace(rank + suit, { class: 'extra' });
        document.getElementById('main').append(face);
        faces.push({ code: rank + suit, name: face.querySelector('.visually-hidden').textContent,
          classes: face.className, color: getComputedStyle(face).color,
          ranks: [...face.querySelectorAll('svg .full text')].map((t) => t.textContent),
          pips: face.querySelectorAll('svg .full .suit-mark').length });
      }
      return faces;
    }""")
    assert len(faces) == 52
    colours = {face["code"][-1]: face["color"] for face in faces}
    assert colours["H"] == colours["D"] != colours["S"] == colours["C"]
    for face in faces:
        rank = face["code"][0]
        assert face["name"] == label(face["code"])
        assert {"card", "face", "extra"} <= set(face["classes"].split())
        assert face["ranks"][:2] == [label(face["code"])[:-1]] * 2
        if rank in "23456789T":
            assert face["pips"] == 2 + (10 if rank == "T" else int(rank)), face  # two corner suits and the pips
    assert not page.errors
