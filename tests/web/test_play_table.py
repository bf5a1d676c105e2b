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
        assert said == expected_lines(moves[len(before):], "Simple")  # the level's name of simple
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


def play_well(page: Any, web: Any, game_id: str, rng: Any) -> None:
    """One move of the person's by clicking, as a fair player would: the discard that leaves the least
    deadwood, going out when the rules allow (most of the time), so that every ending comes up."""
    import gincore
    from ginsim.gin.game.actions import Action, MoveKind

    settled(page)
    state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
    if state.phase.name != "DISCARD":
        button(page, "Pass" if state.phase.name == "OFFER" else "Draw").click()
        return
    moves = [Action(number) for number in state.legal_actions()]
    outs = [move for move in moves if move.kind is MoveKind.KNOCK]
    if outs and rng.random() < 0.8:
        best = min(outs, key=lambda move: gincore.deadwood(state.hands[0] & ~(1 << move.card)))
        gin = gincore.deadwood(state.hands[0] & ~(1 << best.card)) == 0
        button(page, "Gin" if gin else "Knock").click()
    else:
        best = min((move for move in moves if move.kind is MoveKind.DISCARD),
                   key=lambda move: gincore.deadwood(state.hands[0] & ~(1 << move.card)))
    page.get_by_role("button", name=label(gincore.card_text(best.card)), exact=True).click()


def check_the_sum(page: Any, result: dict[str, Any], name: str) -> None:
    """The sum on the page is worked out again here, line by line, and ends at the hand's points."""
    import re

    lines = page.locator(".points-sum .sum").all_inner_texts()
    first = re.fullmatch(r"(\d+) − (\d+) = (\d+)", lines[0])
    assert first is not None and int(first[1]) - int(first[2]) == int(first[3])
    total = int(first[3])
    for line in lines[1:]:
        step = re.fullmatch(r"([+×]) (\d+) (.+) = (\d+)", line)
        assert step is not None, line
        total = total + int(step[2]) if step[1] == "+" else total * int(step[2])
        assert total == int(step[4])
    assert total == result["points"]
    scored = page.locator(".hand-end .points").first.inner_text()
    assert scored == (f"You score {total}." if result["winner"] == 0 else f"{name} scores {total}.")


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_end_of_a_hand_lays_the_hands_down_and_writes_the_points_as_a_sum(
        browser: Any, server: tuple[str, Any], rng: Any, width: int, height: int) -> None:
    base, web = server
    page = new_page(browser, base, width, height)
    game_id = start_game(page, base, opponent="simple", target="100" if width > 500 else "50")
    settled(page)
    set_speed(page, "off")
    seen: set[str] = set()
    for _ in range(400):
        settled(page)
        if not page.locator(".hand-end").count():
            play_well(page, web, game_id, rng)
            continue
        result = page.request.get(f"{base}/api/games/{game_id}").json()["result"]
        assert page.get_by_role("heading", name={"knock": "Knock", "undercut": "Undercut", "gin": "Gin",
                                                 "big_gin": "Big gin", "draw": "Drawn hand"}[result["outcome"]],
                                exact=True).count() == 1
        if result["outcome"] == "draw":
            assert "never drawn" in page.locator(".hand-end .detail").inner_text()
        else:
            check_the_sum(page, result, "Simple")
        laid = sum(len(meld["laid_off"]) for hand in result["laid_down"] for meld in hand["melds"])
        assert page.locator(".hand-end .card.laid").count() == laid
        kind = "knock-layoffs" if result["outcome"] == "knock" and laid else result["outcome"]
        if kind not in seen:
            seen.add(kind)
            shot(page, f"hand-end-{kind}-{width}")
        rows = page.locator(".pad tbody tr").count()
        assert rows == len(server_game(web, game_id).hands)
        totals = page.locator(".pad tfoot tr").last.locator("td").all_inner_texts()
        assert [int(total) for total in totals] == list(server_game(web, game_id).score.score[0])
        if page.get_by_role("heading", name="Game over").count():
            break
        button(page, "Next hand").click()
    assert page.get_by_role("heading", name="Game over").count()
    shot(page, f"game-over-{width}")
    ended = page.request.get(f"{base}/api/games/{game_id}").json()
    sums = page.locator(".game-sum li").all_inner_texts()
    for seat, line in enumerate(sums):
        assert line.endswith(str(ended["game"][f"total_{seat}"])), line  # the game's end written out as its sum
    assert not page.errors


def test_the_arrow_keys_skip_the_cards_that_cannot_be_played(browser: Any, server: tuple[str, Any], rng: Any) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="simple", target="50")
    set_speed(page, "off")
    for _ in range(300):  # until the person takes the top discard: that card may not be discarded at once
        settled(page)
        if page.locator(".hand-end").count():
            button(page, "Next hand").click()
            continue
        state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
        if state.phase.name == "DRAW" and button(page, "Take").is_enabled():
            button(page, "Take").click()
            break
        person_moves(page, web, game_id, rng)
    settled(page)
    faces = page.locator(".hand button.card")
    cards = [faces.nth(index).get_attribute("data-card") for index in range(faces.count())]
    open_ = [card for index, card in enumerate(cards) if faces.nth(index).is_enabled()]
    assert len(open_) < len(cards)  # the card just taken is disabled
    page.locator(f'.hand [data-card="{open_[0]}"]').focus()
    visited = [open_[0]]
    for _ in range(len(cards)):
        page.keyboard.press("ArrowRight")
        visited.append(page.evaluate("() => document.activeElement.dataset.card"))
    assert visited[:len(open_)] == open_ and set(visited[len(open_):]) == {open_[-1]}
    for _ in range(len(cards)):
        page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.card") == open_[0]
    draw = button(page, "Draw")
    assert draw.get_attribute("aria-keyshortcuts") == "D" and draw.locator("kbd").inner_text() == "D"
    assert not page.errors


def test_the_pile_names_its_top_card_and_opens_its_history(browser: Any, server: tuple[str, Any], rng: Any) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="greedy", target="50")
    for _ in range(8):
        person_moves(page, web, game_id, rng)
        settled(page)
        if page.locator(".hand-end").count():
            break
    pile = page.request.get(f"{base}/api/games/{game_id}").json()["pile"]
    name = f"Discard pile, top card {label(pile[-1])}" if pile else "Discard pile, empty"
    assert page.get_by_role("group", name=name, exact=True).count() == 1
    toggle = page.get_by_role("button", name=f"Earlier discards ({max(len(pile) - 1, 0)})")
    assert toggle.get_attribute("aria-expanded") == "false" and not page.locator("#pile-history").is_visible()
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    shown = page.locator("#pile-history .card")
    assert [shown.nth(index).get_attribute("data-card") for index in range(shown.count())] == pile[:-1]
    assert not page.errors


def test_at_a_hands_end_the_focus_is_on_its_outcome_and_next_hand_one_key_away(
        browser: Any, server: tuple[str, Any], rng: Any) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="simple", target="100")
    set_speed(page, "fast")
    for _ in range(300):
        settled(page)
        if page.locator(".hand-end").count():
            break
        play_well(page, web, game_id, rng)
    assert page.evaluate("() => document.activeElement.id") == "end-title"
    heading = page.evaluate("() => document.activeElement.textContent")
    assert heading in ("Knock", "Undercut", "Gin", "Big gin", "Drawn hand")
    before = page.locator(".play").bounding_box()
    ended = server_game(web, game_id).hand
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Next handN"
    page.keyboard.press("Enter")
    for _ in range(1000):  # the server deals while the page is busy (aria-busy): then wait for the page
        if server_game(web, game_id).hand is not ended:
            break
        page.wait_for_timeout(10)
    assert server_game(web, game_id).hand is not ended  # Enter on Next hand dealt the next hand
    settled(page)
    assert page.locator(".play").bounding_box()["width"] == before["width"]
    assert not page.errors


def test_the_melds_stay_marked_once_the_cards_are_in_the_players_order(browser: Any, server: tuple[str, Any]) -> None:
    """Moving a card (Alt + arrow, as a drag does) puts the hand in the player's own order, in one row: the
    cards of its melds keep a mark, the others none."""
    base, _ = server
    page = new_page(browser, base)
    for _ in range(30):  # a deal whose hand holds a meld
        start_game(page, base, opponent="simple", target="50")
        settled(page)
        if page.locator(".hand .group.meld").count():
            break
    else:
        pytest.skip("no deal with a meld in 30 tries")
    in_melds = set(page.locator(".hand .group.meld [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"))
    first = page.locator(".hand [data-card]").first
    first.focus()
    page.keyboard.press("Alt+ArrowRight")
    page.wait_for_function("() => !document.querySelector('.hand .group.meld')")
    marks = page.locator(".hand [data-card]").evaluate_all(
        "cards => cards.map(c => [c.dataset.card, getComputedStyle(c, '::after').content !== 'none'])")
    assert {card for card, marked in marks if marked} == in_melds
    assert not page.errors
