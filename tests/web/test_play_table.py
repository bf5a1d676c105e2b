"""The play table in a real browser, as a player meets it: the computer's moves staged and announced, a move
of the player's never lost to the staging, no motion for a player who asks for none, the score of a hand
written as the sum it is, and the keyboard.

With ``GINSIM_SCREENSHOTS=DIR`` the tests save their screenshots there too.
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.web import test_browser
from tests.web.test_browser import button, label, new_page, server_game, settled, shot, start_game

pytestmark = pytest.mark.browser
server, browser = test_browser.server, test_browser.browser  # the same fixtures: a server and Chromium

COLLECT_LINES = """() => {
  window.said = [];
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(
    (node) => window.said.push(node.textContent)))).observe(document.getElementById("announcer"), { childList: true });
}"""


def set_speed(page: Any, speed: str) -> None:
    page.get_by_label("Computer's moves").select_option(speed)


def person_moves(page: Any, web: Any, game_id: str, rng: Any) -> str:
    """Make one move of the person's by clicking, never going out: what kind of move it was."""
    settled(page)
    state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
    if state.phase.name == "OFFER":
        button(page, "Pass").click()
        return "pass"
    if state.phase.name == "DRAW":
        button(page, "Take" if rng.random() < 0.2 else "Draw").click()
        return "draw"
    cards = page.locator(".hand button.card:not([disabled])")
    cards.nth(int(rng.integers(cards.count()))).click()
    return "discard"


def expected_lines(moves: list[dict[str, Any]], name: str) -> list[str]:
    """What the announcer should say of the computer's moves of a hand, worked out here on its own."""
    lines, draw = [], ""
    for move in moves:
        if move["player"] != 1:
            continue
        card = label(move["card"]) if move["card"] else ""
        kind = move["move"]
        if kind == "pass":
            lines.append(f"{name} passed the upcard")
        elif kind in ("stock", "pile", "take"):
            draw = {"stock": "drew from the stock", "pile": f"took {card} from the pile",
                    "take": f"took the upcard {card}"}[kind]
        else:
            end = {"discard": f"discarded {card}", "knock": f"knocked with {card}", "gin": f"went gin with {card}",
                   "big_gin": "went big gin"}[kind]
            lines.append(f"{name} {draw} and {end}" if draw else f"{name} {end}")
            draw = ""
    return lines


def test_the_announcer_reads_every_computer_move_of_a_hand_its_knock_included(browser: Any, server: tuple[str, Any],
                                                                              rng: Any) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="simple", target="50")  # simple knocks as soon as it may
    settled(page)
    set_speed(page, "fast")
    page.evaluate(COLLECT_LINES)
    seen_knock = False
    for _ in range(12):  # hands
        start = page.evaluate("() => window.said.length")
        opening = page.request.get(f"{base}/api/games/{game_id}").json()
        before = [move for move in opening["moves"]]  # the computer's moves made before the page was shown
        for _ in range(200):
            if page.locator(".hand-end").count():
                break
            person_moves(page, web, game_id, rng)
            settled(page)
        moves = page.request.get(f"{base}/api/games/{game_id}").json()["moves"]
        said = page.evaluate(f"() => window.said.slice({start})")
        assert said == expected_lines(moves[len(before):], "simple")
        assert page.locator("#announcer").count() == 1 and not page.locator("#main #announcer").count()
        last = [move for move in moves if move["player"] == 1][-1:]
        if last and last[0]["move"] in ("knock", "gin"):
            seen_knock = True
            assert said[-1] in page.locator(".hand-end").inner_text()  # the knock's discard is shown
            shot(page, "hand-end-computer-knocked")
            break
        if page.get_by_role("heading", name="Game over").count():
            break
        button(page, "Next hand").click()
        settled(page)
    assert seen_knock
    assert not page.errors


def test_a_click_during_the_staging_ends_it_and_the_move_is_made(browser: Any, server: tuple[str, Any],
                                                                 rng: Any) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="simple", target="50")
    page.evaluate("""() => document.addEventListener("click", () => {
      window.clickedStaging = document.getElementById("main").dataset.staging === "true"; }, true)""")
    caught = False
    for _ in range(60):
        settled(page)
        if page.locator(".hand-end").count():
            button(page, "Next hand").click()
            continue
        if person_moves(page, web, game_id, rng) != "discard":
            continue
        try:
            page.wait_for_selector("#main[data-staging]", timeout=3000)
        except Exception:  # the hand ended on this discard, or the computer did not move
            continue
        made = len(server_game(web, game_id).hand.moves)  # type: ignore[union-attr]
        if page.locator(".hand-end").count() or not button(page, "Draw").count():
            continue
        button(page, "Draw").click()
        settled(page)
        if not page.evaluate("() => window.clickedStaging"):
            continue  # the staging had ended before the click: try again
        hand = server_game(web, game_id).hand
        assert hand is not None and len(hand.moves) == made + 1  # the draw was made, once
        assert page.locator(".hand button.card.drawn").count() == 1
        assert not page.locator("#main[data-staging]").count()
        caught = True
        break
    assert caught
    assert not page.errors


def test_no_motion_for_a_player_who_asks_for_none(browser: Any, server: tuple[str, Any], rng: Any) -> None:
    base, web = server
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US", reduced_motion="reduce")
    context.add_init_script("""(() => {
      window.animations = 0;
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (...args) { window.animations += 1; return animate.apply(this, args); };
    })()""")
    page = context.new_page()
    page.set_default_timeout(20_000)
    game_id = start_game(page, base, opponent="marjj", target="50")
    settled(page)
    page.evaluate(COLLECT_LINES)
    page.evaluate("""() => { window.staged = false; new MutationObserver(() => {
      if (document.getElementById("main").dataset.staging) window.staged = true; })
      .observe(document.getElementById("main"), { attributes: true }); }""")
    for _ in range(12):
        if page.locator(".hand-end").count():
            break
        person_moves(page, web, game_id, rng)
        settled(page)
    assert page.evaluate("() => window.animations") == 0
    assert page.evaluate("() => window.staged") is False
    assert page.evaluate("() => window.said.length") > 0  # the moves are still read out
