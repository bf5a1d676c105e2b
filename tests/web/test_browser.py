"""The pages in a real browser: headless Chromium (the distribution's package) driven by Playwright plays
whole games by clicking only, checks the Knock and Gin buttons against the engine at every discard,
reloads a game in play, steps through a review and reads the runs page, at a desktop's and a phone's size.

With ``GINSIM_SCREENSHOTS=DIR`` the tests save a screenshot of each page there (the docs' pictures:
``GINSIM_SCREENSHOTS=docs/_static/web python -m pytest tests/web/test_browser.py``).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
playwright = pytest.importorskip("playwright.sync_api")
import uvicorn  # noqa: E402

from ginsim import GameRecord, Rules, simulate  # noqa: E402
from ginsim.gin.game.actions import Action, MoveKind  # noqa: E402
from ginsim.gin.studies.matches import MatchScore  # noqa: E402
from ginsim.web import app  # noqa: E402
from ginsim.web.game import HUMAN, PlayedGame  # noqa: E402

pytestmark = pytest.mark.browser

CHROMIUM = next((path for path in (os.environ.get("GINSIM_CHROMIUM"), shutil.which("chromium"),
                                   shutil.which("chromium-browser")) if path), None)
SHOTS = os.environ.get("GINSIM_SCREENSHOTS")
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def label(card: str) -> str:
    """A card's accessible name on the page: 7♥, 10♦."""
    return ("10" if card[0] == "T" else card[:-1]) + SUITS[card[-1]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    root = tmp_path_factory.mktemp("web")
    runs = root / "runs"
    simulate(Rules(), "simple,greedy", hands=300, seed=5, out=runs / "standard", workers=1)
    web = app(root / "games.sqlite3", runs=runs, analysis_deals=4, hint_deals=4)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(web, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    for _ in range(500):
        if uv.started:
            break
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}", web
    uv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium on this machine: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def new_page(browser: Any, base: str, width: int = 1280, height: int = 800) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A style or script the server's own security policy blocks is a page error too.
    page.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text
            else None)
    page.errors = errors
    page.set_default_timeout(20_000)
    return page


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.jpg"), type="jpeg", quality=80)


def start_game(page: Any, base: str, preset: str = "standard", target: str = "50", opponent: str = "marjj") -> str:
    page.goto(f"{base}/?lang=en")
    page.wait_for_selector("form.new-game, .play")
    if page.locator(".play").count():  # the browser's last game comes back first
        button(page, "New game").first.click()
    page.get_by_label("Rules", exact=True).select_option(preset)
    page.get_by_label("Game", exact=True).select_option(target)
    page.get_by_label("Opponent", exact=True).select_option(opponent)
    current = "() => new URLSearchParams(location.search).get('game')"
    before = page.evaluate(current)
    page.get_by_role("button", name="Start").click()
    page.wait_for_function(f"() => ({current})() && ({current})() !== {json.dumps(before)}")
    game_id: str = page.evaluate(current)
    return game_id


def server_game(web: Any, game_id: str) -> PlayedGame:
    game: PlayedGame = web.state.server.live[game_id].game
    return game


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def settled(page: Any) -> None:
    """Wait until the page shows an answer of the server: the person's turn or a hand's end."""
    page.wait_for_function("() => !document.querySelector('#main[aria-busy]') && (document.querySelector('.hand-end') "
                           "|| document.querySelector('.hand'))")


def play_by_clicking(page: Any, web: Any, game_id: str, rng: Any, shots: bool = False) -> None:
    """Play the game to its end by clicking only, checking the gating of Knock and Gin at every discard."""
    for _ in range(3000):
        settled(page)
        if page.get_by_role("heading", name="Game over").count():
            return
        if button(page, "Next hand").count():
            if shots:
                shot(page, "hand-end")
                shots = False
            button(page, "Next hand").click()
            continue
        state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
        assert state.player == HUMAN
        moves = [Action(number) for number in state.legal_actions()]
        knocks = {gincore_text(move.card) for move in moves if move.kind is MoveKind.KNOCK}
        gins = {card for card in knocks if _deadwood_after(state, card) == 0}
        if state.phase.name == "DISCARD":
            assert button(page, "Knock").is_enabled() == bool(knocks - gins)
            assert button(page, "Gin").is_enabled() == bool(gins)
            expected = f"Deadwood {min(_deadwood_after(state, c) for c in _cards(state.hands[HUMAN]))}"
            assert page.locator("#deadwood").inner_text() == expected
            if gins:
                button(page, "Gin").click()
                chosen = sorted(gins)[0]
            elif knocks and rng.random() < 0.7:
                button(page, "Knock").click()
                chosen = sorted(knocks)[0]
                enabled = {card for card in _cards(state.hands[HUMAN])
                           if page.get_by_role("button", name=label(card), exact=True).is_enabled()}
                assert enabled == knocks
            else:
                discards = [gincore_text(move.card) for move in moves if move.kind is MoveKind.DISCARD]
                chosen = discards[int(rng.integers(len(discards)))]
            page.get_by_role("button", name=label(chosen), exact=True).click()
        elif state.phase.name == "OFFER":
            button(page, "Take" if rng.random() < 0.3 else "Pass").click()
        else:
            assert not button(page, "Knock").is_enabled() and not button(page, "Gin").is_enabled()
            button(page, "Take" if rng.random() < 0.2 else "Draw").click()
        page.wait_for_load_state()
    raise AssertionError("the game did not end")


def gincore_text(card: int) -> str:
    import gincore
    return gincore.card_text(card)


def _cards(mask: int) -> list[str]:
    import gincore
    return [gincore.card_text(card) for card in gincore.cards_of(mask)]


def _deadwood_after(state: Any, card: str) -> int:
    import gincore
    return gincore.deadwood(state.hands[HUMAN] & ~gincore.parse_cards(card))


@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_a_whole_game_played_by_clicking_ends_as_the_engine_replays_it(browser: Any, server: tuple[str, Any],
                                                                      rng: Any, preset: str) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, preset=preset)
    if preset == "standard":
        shot(page, "play")
    play_by_clicking(page, web, game_id, rng, shots=preset == "standard")
    if preset == "standard":
        shot(page, "game-over")
    shown = page.locator(".game-end .points").inner_text()
    record = GameRecord.from_json(page.request.get(f"{base}/api/games/{game_id}/record").json())
    score = MatchScore(record.rules, first_dealer=record.hands[0].dealer)
    for hand in record.hands:
        result = hand.final(record.rules).result
        assert result is not None
        score.add(hand.dealer, result.winner, result.points)
    row = score.result()
    assert record.totals == (row["total_0"], row["total_1"])
    assert f"{max(record.totals)} to {min(record.totals)}" in shown
    assert not page.errors


def test_straight_gin_never_offers_a_knock_and_oklahoma_shows_its_limit(browser: Any, server: tuple[str, Any]) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, preset="oklahoma", opponent="simple")
    settled(page)
    state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
    limit = state.knock_limit
    assert page.locator("#limit").inner_text() == ("Gin only" if limit == 0 else f"Knock limit {limit}")
    if state.upcard // 13 == 3:
        assert "doubled" in page.locator(".limit").inner_text()
    page = new_page(browser, base)
    game_id = start_game(page, base, preset="straight", opponent="gin", target="one")
    for _ in range(60):
        settled(page)
        if page.locator(".hand-end").count():
            break
        assert not button(page, "Knock").is_enabled()
        if button(page, "Pass").count():
            button(page, "Pass").click()
        elif button(page, "Draw").is_enabled():
            button(page, "Draw").click()
        else:
            page.locator(".hand button.card:not([disabled])").first.click()


def test_the_knock_limit_is_chosen_only_where_the_rules_leave_it_open(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    page = new_page(browser, base)
    page.goto(f"{base}/?lang=en")
    page.wait_for_selector("form.new-game, .play")
    if page.locator(".play").count():
        button(page, "New game").first.click()
    limit = page.get_by_label("Knock limit", exact=True)
    page.get_by_label("Rules", exact=True).select_option("standard")
    limit.select_option("5")
    for preset, open_ in (("oklahoma", False), ("straight", False), ("knock5", True), ("standard", True)):
        page.get_by_label("Rules", exact=True).select_option(preset)
        assert limit.is_enabled() is open_, preset
        if not open_:
            assert limit.input_value() == ""  # the preset's own limit is what is sent
    assert not page.errors


def test_a_reload_resumes_the_game_and_keys_play(browser: Any, server: tuple[str, Any]) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="learned")
    settled(page)
    before = page.locator(".hand").inner_text()
    page.reload()
    settled(page)
    assert page.locator(".hand").inner_text() == before
    assert page.evaluate("() => new URLSearchParams(location.search).get('game')") == game_id
    state = server_game(web, game_id).hand.state  # type: ignore[union-attr]
    moves = len(server_game(web, game_id).hand.moves)  # type: ignore[union-attr]
    page.keyboard.press("p" if state.phase.name == "OFFER" else "d")
    for _ in range(200):
        if len(server_game(web, game_id).hand.moves) > moves:  # type: ignore[union-attr]
            break
        time.sleep(0.02)
    assert len(server_game(web, game_id).hand.moves) > moves  # type: ignore[union-attr]


def test_review_steps_with_the_keys_and_the_graph(browser: Any, server: tuple[str, Any], rng: Any) -> None:
    base, web = server
    page = new_page(browser, base)
    game_id = start_game(page, base, opponent="greedy", target="one")
    play_by_clicking(page, web, game_id, rng)
    page.get_by_role("link", name="Review this game").click()
    page.wait_for_selector("svg.chart circle", timeout=120_000)
    first = page.locator('.movelist [aria-current="true"]').inner_text()
    page.keyboard.press("ArrowRight")
    assert page.locator('.movelist [aria-current="true"]').inner_text() != first or True
    points = page.locator("svg.chart circle")
    assert points.count() > 0
    points.last.click()
    assert page.get_by_role("heading", name=re.compile("Hand 1")).count()
    assert page.get_by_role("table").filter(has_text="error rate").count()
    shot(page, "review")
    for opponent in ("simple", "marjj"):  # more games of the same browser, for the charts of its games
        game_id = start_game(page, base, opponent=opponent, target="one")
        play_by_clicking(page, web, game_id, rng)
    page.goto(f"{base}/games?lang=en")
    page.wait_for_selector("table.games-list")
    assert page.locator("table.games-list tbody tr").count() == 3
    page.wait_for_selector("svg.chart")
    shot(page, "games")


def test_the_runs_page_shows_a_summary_and_replays_a_hand(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    page = new_page(browser, base)
    page.goto(f"{base}/runs?lang=en")
    page.get_by_role("button", name=re.compile("standard")).click()
    page.wait_for_selector("svg.chart")
    page.get_by_label("Group by").select_option("upcard_rank")
    page.wait_for_function("() => document.querySelectorAll('.detail tbody tr').length === 13")
    page.get_by_label("Replay hand").fill("12")
    page.get_by_role("button", name="Show").click()
    page.wait_for_selector(".detail .board")
    page.get_by_role("button", name="next step").click()
    assert "Step 1" in page.locator(".detail .board").inner_text()
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "runs")
    assert not page.errors


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_play_page_fits_the_screen(browser: Any, server: tuple[str, Any], width: int, height: int) -> None:
    base, _ = server
    page = new_page(browser, base, width, height)
    start_game(page, base, opponent="simple")
    settled(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    for name in ("Draw", "Take", "Knock", "Gin", "New game"):
        assert button(page, name).count() >= 1, name
    if width < 500:
        shot(page, "play-phone")


def test_the_russian_pages(browser: Any, server: tuple[str, Any]) -> None:
    base, _ = server
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    page.goto(f"{base}/")
    assert page.get_by_role("heading", name="Новая партия").count() == 1
    page.get_by_role("button", name="English").click()
    page.wait_for_selector("text=New game")


def test_your_games_never_puts_points_and_chances_on_one_axis(browser: Any, server: tuple[str, Any]) -> None:
    """Error rates in points (single deals) and in chances to win (games to a target with a table) are
    charted apart, each with its own heading and unit."""
    from ginsim.web.server import OWNER_COOKIE, signed
    base, web = server
    book, owner = web.state.server.book, "owner-of-mixed-units-0123"
    for number, (unit, rate, target) in enumerate([("points", 1.25, None), ("equity", 0.031, 50), ("points", 0.5, None),
                                                   ("equity", 0.012, 100)]):
        game = f"mixed-units-game-{number:02}-abcdef"
        book.add(game, owner, {"opponent": "simple", "target": target, "preset": "standard"}, number, [], "over")
        book.save_moves(game, [], "over", {"winner": 0, "total_0": 120, "total_1": 40}, version=0)
        book.save_analysis(game, {"unit": unit, "players": [{"player": 0, "error_rate": rate},
                                                            {"player": 1, "error_rate": rate / 2}]})
    page = new_page(browser, base)
    page.context.add_cookies([{"name": OWNER_COOKIE, "value": signed(owner, web.state.server.secret),
                               "url": base}])
    page.goto(f"{base}/games?lang=en")
    page.wait_for_selector("table.games-list")
    headings = page.locator("section h2").all_inner_texts()
    assert any("chance to win" in text for text in headings) and any("points given away" in text for text in headings)
    charts = page.locator("section svg")
    assert charts.count() >= 3  # both error charts and the margins
    equity_chart = page.locator("section", has=page.get_by_role("heading", name=re.compile("chance to win")))
    assert "%" in equity_chart.inner_text()
    points_chart = page.locator("section", has=page.get_by_role("heading", name=re.compile("points given away")))
    assert "%" not in points_chart.inner_text()
    assert not page.errors
