"""Help for a first game, as a player meets it in headless Chromium: the how-to-play page (linked from the play
page, in English and Russian), the line under each choice of the new-game form, the opponents offered as levels
with their ratings, and a form that offers only what can be played, each refusal a sentence.

With ``GINSIM_SCREENSHOTS=DIR`` the form and the how-to-play page are saved there at a desktop's and a phone's
size."""
from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from gincore.errors import InputError  # noqa: E402
from ginsim.gin.game.rules import PRESETS  # noqa: E402
from ginsim.gin.studies import rating_list  # noqa: E402
from ginsim.web import app  # noqa: E402
from ginsim.web.game import OPPONENTS, OWN_KNOCK_LIMIT, TARGETS, GameSettings  # noqa: E402
from tests.web.test_browser import browser, button, new_page, server, settled, shot, start_game  # noqa: E402,F401

SECTIONS = ["Cards and their values", "Melds and deadwood", "The deal and the upcard", "A turn: draw, then discard",
            "Knocking and the knock limit", "Gin and big gin", "Lay-offs", "Undercuts", "Drawn hands",
            "A game to a target", "Oklahoma", "Straight gin", "Hollywood scoring", "The other rules on offer"]


@pytest.fixture(scope="module")
def options() -> dict[str, Any]:
    answer: dict[str, Any] = TestClient(app(book=":memory:")).get("/api/options").json()
    return answer


def test_the_opponents_are_levels_weakest_first_with_the_shipped_ratings(options: dict[str, Any]) -> None:
    shipped = {row["player"]: row for row in rating_list.shipped()["players"]}  # type: ignore[index]
    levels = options["opponents"]
    assert sorted(level["name"] for level in levels) == sorted(OPPONENTS)
    for level in levels:
        row = shipped[level["name"]]
        assert (level["rating"], level["beyond"]) == (row["rating"], row["beyond"])
    strength = [-1e9 if level["beyond"] == "below" else level["rating"] for level in levels]
    assert strength == sorted(strength)
    assert levels[0]["name"] == "random" and levels[-1]["name"] == "reader"


def test_the_form_is_told_exactly_what_each_opponent_cannot_play(options: dict[str, Any]) -> None:
    """Every choice the form can make, sent as settings: accepted unless the options said the opponent cannot
    play the rules (or Hollywood was asked for a single deal, which the form does not allow); a refusal is one
    plain line that names the opponent, never a command to run."""
    cannot = {(level["name"], row["preset"], row["knock_limit"]) for level in options["opponents"]
              for row in level["cannot_play"]}
    assert cannot and {name for name, _, _ in cannot} == {"learned"}
    assert ("learned", "straight", None) in cannot
    for opponent, preset, target, hollywood in itertools.product(OPPONENTS, PRESETS, TARGETS, (False, True)):
        if hollywood and target is None:
            continue
        for limit in (None,) if preset in OWN_KNOCK_LIMIT else (None, 10, 5):
            settings = {"opponent": opponent, "preset": preset, "target": target, "hollywood": hollywood,
                        "knock_limit": limit}
            if (opponent, preset, limit) not in cannot:
                GameSettings.of(settings)
                continue
            with pytest.raises(InputError) as refused:
                GameSettings.of(settings)
            assert str(refused.value).startswith(f"opponent: {opponent} was not trained for ")
            assert "\n" not in str(refused.value) and "ginsim" not in str(refused.value)


def open_form(page: Any, base: str, lang: str = "en") -> None:
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector("form.new-game, .play")
    if page.locator(".play").count():
        page.locator("aside button", has_text="New" if lang == "en" else "Новая").click()
    page.wait_for_selector("form.new-game")


def described(page: Any, label: str) -> str:
    """The line under a control of the form: the text its aria-describedby points at."""
    control = page.get_by_label(label, exact=True)
    text: str = page.locator(f"#{control.get_attribute('aria-describedby')}").inner_text()
    return text


def test_each_choice_of_the_form_says_what_it_does(browser: Any, server: tuple[str, Any]) -> None:  # noqa: F811
    base, _ = server
    page = new_page(browser, base)
    open_form(page, base)
    rules = page.get_by_label("Rules", exact=True)
    lines = {}
    for preset in PRESETS:
        rules.select_option(preset)
        lines[preset] = described(page, "Rules")
    assert len(set(lines.values())) == len(PRESETS) and all(lines.values())
    assert "spade" in lines["oklahoma"] and "only gin" in lines["straight"]
    rules.select_option("oklahoma")
    assert "upcard" in described(page, "Knock limit")
    rules.select_option("straight")
    assert "only gin" in described(page, "Knock limit")
    rules.select_option("standard")
    assert "(10)" in described(page, "Knock limit")
    page.get_by_label("Game", exact=True).select_option("250")
    assert "250 points" in described(page, "Game")
    assert page.get_by_label("Hollywood scoring").is_enabled()
    page.get_by_label("Hollywood scoring").check()
    page.get_by_label("Game", exact=True).select_option("one")
    assert not page.get_by_label("Hollywood scoring").is_enabled()
    assert not page.get_by_label("Hollywood scoring").is_checked()
    assert described(page, "Hollywood scoring") == "Hollywood scoring needs a game to a target, not a single deal."
    assert described(page, "First dealer")
    opponent = page.get_by_label("Opponent", exact=True)
    texts = opponent.locator("option").all_inner_texts()
    assert texts[0] == "Level 1 · Random · rated below all"
    reader = next(row for row in rating_list.shipped()["players"] if row["player"] == "reader")  # type: ignore[index]
    assert texts[-1] == f"Level 9 · Reader · rating {math.floor(reader['rating'] + 0.5)}"  # as Math.round shows it
    seen = set()
    for value in opponent.locator("option").evaluate_all("options => options.map((o) => o.value)"):
        opponent.select_option(value)
        seen.add(described(page, "Opponent"))
    assert len(seen) == len(OPPONENTS)
    assert page.get_by_role("link", name="New to Gin Rummy? Read how to play.").count() == 1
    shot(page, "form")
    assert not page.errors


def test_the_form_offers_learned_only_with_the_rules_it_plays(browser: Any, server: tuple[str, Any]) -> None:  # noqa: F811
    base, web = server
    page = new_page(browser, base)
    open_form(page, base)
    opponent = page.get_by_label("Opponent", exact=True)
    learned = opponent.locator('option[value="learned"]')
    opponent.select_option("learned")
    page.get_by_label("Rules", exact=True).select_option("straight")
    # learned cannot play straight gin: it is greyed out and the nearest level that can is chosen, with a note
    assert learned.is_disabled() and "(not for these rules)" in learned.inner_text()
    assert opponent.input_value() == "search"
    note = page.locator("#opponent-note").inner_text()
    assert note == ("Neural network cannot play these rules (it has no training for them), so Searcher is chosen "
                    "instead.")
    page.get_by_label("Rules", exact=True).select_option("standard")
    assert learned.is_enabled() and page.locator("#opponent-note").inner_text() == ""
    opponent.select_option("learned")
    page.get_by_label("Knock limit", exact=True).select_option("5")
    assert learned.is_disabled() and opponent.input_value() == "search"
    page.get_by_label("Knock limit", exact=True).select_option("10")
    page.get_by_label("Rules", exact=True).select_option("straight")
    assert "Neural network cannot play these rules" in page.locator("#opponent-note").inner_text()
    # a straight-gin game starts against the level the form chose: no developer's error on the way
    current = "() => new URLSearchParams(location.search).get('game')"
    page.get_by_label("Game", exact=True).select_option("one")
    page.get_by_role("button", name="Start").click()
    page.wait_for_function(f"() => ({current})()")
    settled(page)
    game = web.state.server.live[page.evaluate(current)].game
    assert (game.settings.preset, game.settings.opponent) == ("straight", "search")
    assert not page.errors


def test_a_refusal_the_form_shows_is_a_sentence(browser: Any, server: tuple[str, Any]) -> None:  # noqa: F811
    """Should the server still refuse (here a form whose disabled choice was forced by a script), the page
    says so in a sentence of its own, not the API's line."""
    base, _ = server
    page = new_page(browser, base)
    open_form(page, base)
    page.get_by_label("Rules", exact=True).select_option("straight")
    page.evaluate("""() => { const select = document.querySelector('#new-opponent');
                             select.querySelector('option[value="learned"]').disabled = false;
                             select.value = 'learned'; }""")
    page.get_by_role("button", name="Start").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text() == "This opponent cannot play these rules: choose another opponent or other rules."
    page.get_by_label("Rules", exact=True).select_option("oklahoma")
    page.evaluate("""() => { const select = document.querySelector('#new-knock_limit');
                             select.disabled = false; select.value = '5'; }""")
    page.get_by_role("button", name="Start").click()
    page.get_by_text("These rules set their own knock limit: leave it as the rules say.").wait_for()
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_how_to_play_is_a_page_linked_from_the_play_page(browser: Any, server: tuple[str, Any], lang: str) -> None:  # noqa: F811
    base, _ = server
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(browser, base, width, height) if lang == "en" else browser.new_context(
            viewport={"width": width, "height": height}, locale="ru-RU").new_page()  # Russian on every page
        open_form(page, base, lang)
        page.get_by_role("navigation", name="Pages" if lang == "en" else "Страницы").get_by_role(
            "link", name="How to play" if lang == "en" else "Как играть").click()
        page.wait_for_selector("article.howto")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        headings = page.locator("article.howto h2").all_inner_texts()
        assert len(headings) == len(SECTIONS)
        if lang == "en":
            assert headings == SECTIONS
            assert page.get_by_role("heading", name="How to play Gin Rummy", level=1).count() == 1
        else:
            assert page.get_by_role("heading", name="Как играть в джин рамми", level=1).count() == 1
            assert page.evaluate("() => document.documentElement.lang") == "ru"
        # every section has an example; the cards are faces with names a screen reader reads
        for section in page.locator("article.howto section").all():
            assert section.locator(".example").count() or section.get_attribute("id") == "other"
        melds = page.locator("#melds .group").all()
        assert [card.get_attribute("data-card") for card in melds[0].locator("[data-card]").all()][:2] == ["7H", "8H"]
        assert page.locator("#melds .visually-hidden").all_inner_texts() == [
            "7♥", "8♥", "9♥", "9♣", "9♦", "9♠", "2♠", "3♠", "4♠", "K♦"]
        assert page.locator("#layoffs .card.laid").count() == 4
        page.get_by_role("link", name=headings[10]).click()  # the contents lead to each section
        assert page.evaluate("() => location.hash") == "#oklahoma"
        page.evaluate("() => window.scrollTo(0, 0)")
        shot(page, f"how-to-play-{lang}-{width}")
        if lang == "en":
            open_form(page, base)
            shot(page, f"form-{width}")
            assert not page.errors


@pytest.mark.parametrize("preset, target", [("standard", "250"), ("oklahoma", "50")])
def test_a_hint_in_a_game_to_any_target_gives_the_chance_to_win(browser: Any, server: tuple[str, Any],  # noqa: F811
                                                                 preset: str, target: str) -> None:
    base, _ = server
    page = new_page(browser, base)
    start_game(page, base, preset=preset, target=target, opponent="simple")
    settled(page)
    button(page, "Hint").click()
    page.wait_for_selector(".hint-box table.hint tbody tr")
    chances = page.locator(".hint-box table.hint tbody tr td:nth-child(3)").all_inner_texts()
    assert chances and all(text.endswith("%") for text in chances), chances
    assert not page.errors


@pytest.mark.parametrize("target", [50, 100, 250])
@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_the_review_values_a_game_to_any_target_in_chances_to_win(preset: str, target: int) -> None:
    from ginsim import play_hand
    from ginsim.gin.review.replay import GameRecord
    from ginsim.web.review import analysis_of, equity_for

    rules = PRESETS[preset].replace(target=target)
    assert equity_for(rules) is not None and equity_for(rules.replace(target=None)) is None
    record = GameRecord.of_hand(play_hand(rules, "simple,greedy", seed=3, index=1))
    analysis = analysis_of(record, deals=2)
    assert analysis["unit"] == "equity"
    assert all(0 <= decision["seat0"] <= 1 for decision in analysis["decisions"] if decision["seat0"] is not None)
