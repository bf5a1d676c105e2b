"""The accessibility audit: axe-core (through Playwright, ``axe-playwright-python``) on every page and state a
player reaches, in headless Chromium: the new-game form, the play table, knock mode, the end of a hand and of a
game, how to play, the review of a game, your games and the runs page. Any serious or critical violation
fails, named by its rule, impact and element."""
from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("axe_playwright_python")
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]  # noqa: E402

import gincore  # noqa: E402
from ginsim.gin.game.actions import Action, MoveKind  # noqa: E402
from ginsim.web.game import HUMAN  # noqa: E402
from tests.web.test_browser import browser, button, new_page, server, server_game, settled, start_game  # noqa: E402,F401

pytestmark = pytest.mark.browser

FAILING = ("serious", "critical")
"""The impacts that fail the audit."""


def violations(axe: Any, page: Any, state: str) -> list[tuple[str, str, str]]:
    """The audit's serious and critical findings on the page as it stands: (rule, element, the line that says so)."""
    found = []
    for violation in axe.run(page).response["violations"]:
        if violation["impact"] in FAILING:
            for node in violation["nodes"]:
                target = " ".join(str(part) for part in node["target"])
                found.append((violation["id"], target, f"{state}: {violation['id']} ({violation['impact']}) at "
                                                       f"{target}: {violation['help']}"))
    return found


def test_every_page_and_state_passes_the_audit(browser: Any, server: tuple[str, Any]) -> None:  # noqa: F811
    base, web = server
    axe = Axe()
    page = new_page(browser, base)
    found: dict[tuple[str, str, str], None] = {}  # each finding once, in the order met
    seen: set[str] = set()

    def audit(state: str) -> None:
        seen.add(state)
        found.update(dict.fromkeys(violations(axe, page, state)))

    page.goto(f"{base}/?lang=en")
    page.wait_for_selector("form.new-game")
    audit("new-game form")
    for _ in range(5):  # games until a knock and a hand's end (before the game's) have been met
        play_a_game(page, base, web, audit, seen)
        if {"knock mode", "end of a hand"} <= seen:
            break
    page.get_by_role("link", name="Review this game").click()
    page.wait_for_selector("svg.chart circle", timeout=120_000)
    audit("review")
    page.goto(f"{base}/games?lang=en")
    page.wait_for_selector("table.games-list")
    audit("your games")
    page.goto(f"{base}/runs?lang=en")
    page.get_by_role("button", name="standard").click()
    page.wait_for_selector("svg.chart")
    audit("runs")
    page.goto(f"{base}/how-to-play?lang=en")
    page.wait_for_selector("article.howto")
    audit("how to play")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the form, how to play and your games, narrow
    for path, ready, state in (("/", "form.new-game, .play", "the form on a phone"),
                               ("/how-to-play", "article.howto", "how to play on a phone"),
                               ("/games", "table.games-list", "your games on a phone")):
        page.goto(f"{base}{path}?lang=en")
        page.wait_for_selector(ready)
        if page.locator(".play").count():
            button(page, "New game").first.click()
        audit(state)
    assert seen == {"new-game form", "play table", "knock mode", "end of a hand", "end of a game", "review",
                    "your games", "runs", "how to play", "the form on a phone", "how to play on a phone",
                    "your games on a phone"}
    assert not found, "\n".join(line for _, _, line in found)


def play_a_game(page: Any, base: str, web: Any, audit: Any, seen: set[str]) -> None:
    """A game to 50 against simple, played sensibly (the least deadwood; knock or gin whenever allowed), the
    table, knock mode and the end of a hand audited the first time they are met and the game's end every time."""
    game_id = start_game(page, base, preset="standard", target="50", opponent="simple")
    settled(page)
    if "play table" not in seen:
        audit("play table")
    for _ in range(2000):
        settled(page)
        if page.get_by_role("heading", name="Game over").count():
            audit("end of a game")
            return
        if button(page, "Next hand").count():
            if "end of a hand" not in seen:
                audit("end of a hand")
            button(page, "Next hand").click()
            continue
        state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
        if state.phase.name == "OFFER":
            button(page, "Pass").click()
        elif state.phase.name == "DRAW":
            button(page, "Draw").click()
        else:
            mode = next((name for name in ("Gin", "Knock") if button(page, name).is_enabled()), None)
            if mode is not None:
                button(page, mode).click()
                if "knock mode" not in seen:
                    audit("knock mode")
            kind = MoveKind.DISCARD if mode is None else MoveKind.KNOCK
            cards = [Action(number).card for number in state.legal_actions() if Action(number).kind is kind]
            card = min(cards, key=lambda card: gincore.deadwood(state.hands[HUMAN] & ~(1 << card)))
            page.locator(f'.hand [data-card="{gincore.card_text(card)}"]').click()
    raise AssertionError("the game did not end")
