"""The web app over HTTP: whole games played through the API keep the fairness boundary (no response
while a hand is in play names a hidden card or the seed), the saved record replays to the game's result,
games resume after a restart and after being dropped from memory, and every bad input gets a 4xx with a
one-line reason and leaves the game as it was."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import gincore

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from ginsim import GameRecord  # noqa: E402
from ginsim.gin.game.actions import KNOCK, REFUSE  # noqa: E402
from ginsim.web import app  # noqa: E402
from ginsim.web import game as web_game  # noqa: E402
from ginsim.web.game import BOT, HUMAN, PlayedGame  # noqa: E402

ALL_CARDS = {gincore.card_text(card) for card in range(52)}


def strings(value: Any) -> set[str]:
    """Every string (keys and values) anywhere in parsed JSON."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*(strings(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(item) for item in value)) if value else set()
    return set()


def numbers(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(numbers(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(numbers(item) for item in value)) if value else set()
    return set()


def hidden_cards(game: PlayedGame) -> set[str]:
    """What the person may not see now: the opponent's cards not taken face up nor seen before a reshuffle,
    and the stock's cards but those it was dealt again from the pile after a reshuffle (every one of them was
    seen face up)."""
    assert game.hand is not None
    state = game.hand.state
    shown = {move["card"] for move in game.public()["moves"] if move["card"]}
    taken = state.view(BOT).hand & gincore.parse_cards(" ".join(
        move["card"] for move in game.public()["moves"] if move["player"] == BOT and move["move"] in ("take", "pile")
        and move["card"])) if state.player == BOT else 0
    # A card seen face up before a reshuffle may be drawn again from the new stock: the history that names
    # it does not tell where it is now.
    moves = game.public()["moves"]
    reshuffled = max((at for at, move in enumerate(moves) if move["move"] == "reshuffle"), default=0)
    seen_before = gincore.parse_cards(" ".join({move["card"] for move in moves[:reshuffled] if move["card"]}))
    opponent = state.hands[BOT] & ~taken & ~_opponent_took(game) & ~seen_before
    return {gincore.card_text(card) for card in gincore.cards_of(opponent)} | (
        {gincore.card_text(card) for card in state.stock} - shown)


def _opponent_took(game: PlayedGame) -> int:
    assert game.hand is not None
    return game.hand.state.view(HUMAN).opponent_took


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(app(tmp_path / "games.sqlite3", analysis_deals=4, hint_deals=4))


def live_game(client: TestClient, game_id: str) -> PlayedGame:
    game: PlayedGame = client.app.state.server.live[game_id].game  # type: ignore[attr-defined]
    return game


def first_legal(answer: dict[str, Any], rng: Any) -> int:
    legal = answer["legal"]
    return int(legal[int(rng.integers(len(legal)))]["action"])


def check_fair(client: TestClient, game_id: str, answer: dict[str, Any], raw: bytes) -> None:
    game = live_game(client, game_id)
    if answer["phase"] in ("hand_over", "game_over"):
        return
    seen = strings(answer) & ALL_CARDS
    leaked = seen & hidden_cards(game)
    assert not leaked, f"the response names hidden cards {leaked}"
    assert str(game.seed).encode() not in raw


@pytest.mark.parametrize("preset, opponent, target", [("standard", "marjj", 50), ("oklahoma", "reader", None),
                                                      ("straight", "greedy", 50), ("standard", "learned", None),
                                                      ("reshuffle", "gin", None)])
def test_whole_games_are_fair_and_their_record_replays(client: TestClient, rng: Any, preset: str, opponent: str,
                                                       target: int | None) -> None:
    response = client.post("/api/games", json={"preset": preset, "opponent": opponent, "target": target})
    assert response.status_code == 200, response.text
    answer = response.json()
    game_id = answer["id"]
    check_fair(client, game_id, answer, response.content)
    for _ in range(2000):
        if answer["phase"] == "game_over":
            break
        if answer["phase"] == "hand_over":
            response = client.post(f"/api/games/{game_id}/next", json={})
        else:
            assert answer["your_turn"]
            response = client.post(f"/api/games/{game_id}/move", json={"action": first_legal(answer, rng)})
        assert response.status_code == 200, response.text
        answer = response.json()
        check_fair(client, game_id, answer, response.content)
    assert answer["phase"] == "game_over"
    saved = client.get(f"/api/games/{game_id}/record")
    record = GameRecord.from_json(json.loads(saved.content))
    totals = (answer["game"]["total_0"], answer["game"]["total_1"])
    assert record.totals == totals and record.seed == live_game(client, game_id).seed
    for hand, stated in zip(record.hands, record.hands, strict=True):
        assert hand.final(record.rules).result is not None and stated.result is not None


def test_a_hand_dealt_again_from_the_pile_stays_fair(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Game seed 2**62 + 12 of the reshuffle preset against gin, the person always drawing from the stock
    and discarding its highest card: the stock runs out and the pile becomes the new stock mid-hand."""
    monkeypatch.setattr(web_game, "secrets", SimpleNamespace(randbits=lambda bits: 2**62 + 12))
    answer = client.post("/api/games", json={"preset": "reshuffle", "opponent": "gin", "target": None}).json()
    game_id = answer["id"]
    after_reshuffle = 0
    while answer["phase"] not in ("hand_over", "game_over"):
        legal = [move["action"] for move in answer["legal"]]
        action = REFUSE if REFUSE in legal else max(action for action in legal if action < KNOCK)
        response = client.post(f"/api/games/{game_id}/move", json={"action": action})
        answer = response.json()
        check_fair(client, game_id, answer, response.content)
        hand = live_game(client, game_id).hand
        after_reshuffle += hand is not None and bool(hand.state.reshuffled_stocks()) and answer["phase"] != "hand_over"
    assert after_reshuffle > 0, "the hand no longer reshuffles: pick another game seed"


def test_a_game_resumes_after_a_restart_and_after_leaving_memory(tmp_path: Path, rng: Any) -> None:
    database = tmp_path / "games.sqlite3"
    first = TestClient(app(database, live=1))
    answer = first.post("/api/games", json={"opponent": "simple", "target": 100}).json()
    game_id = answer["id"]
    for _ in range(5):
        if answer["phase"] not in ("offer", "draw", "discard"):
            break
        answer = first.post(f"/api/games/{game_id}/move", json={"action": first_legal(answer, rng)}).json()
    before = first.get(f"/api/games/{game_id}").json()
    other = first.post("/api/games", json={"opponent": "simple"}).json()["id"]  # pushes the first out of memory
    assert game_id not in first.app.state.server.live  # type: ignore[attr-defined]
    assert first.get(f"/api/games/{game_id}").json() == before
    restarted = TestClient(app(database))
    restarted.cookies = first.cookies
    assert restarted.get(f"/api/games/{game_id}").json() == before
    assert {game["id"] for game in restarted.get("/api/games").json()["games"]} == {game_id, other}


def test_a_game_answers_only_its_own_browser(client: TestClient, tmp_path: Path) -> None:
    game_id = client.post("/api/games", json={"opponent": "simple"}).json()["id"]
    stranger = TestClient(client.app)
    for path in ("", "/record", "/review"):
        response = stranger.get(f"/api/games/{game_id}{path}")
        assert response.status_code == 404 and response.json() == {"error": "no such game (or not yours)"}
    assert stranger.post(f"/api/games/{game_id}/move", json={"action": 105}).status_code == 404
    assert stranger.get("/api/games").json() == {"games": []}
    assert len(game_id) >= 24


BAD_SETTINGS = [
    ({"preset": "nope"}, "preset: no such preset"),
    ({"target": 75}, "target:"),
    ({"target": True}, "target:"),
    ({"knock_limit": 7}, "knock_limit:"),
    ({"opponent": "reader:1:1:1:1"}, "opponent:"),
    ({"opponent": ["simple"]}, "opponent:"),
    ({"first_dealer": "me"}, "first_dealer:"),
    ({"hollywood": "yes"}, "hollywood:"),
    ({"hollywood": True, "target": None}, "hollywood:"),
    ({"colour": "red"}, "colour: no such setting"),
    ({"preset": "knock5", "opponent": "learned"}, "learned"),
    ([1, 2], "the settings are a JSON object"),
]


@pytest.mark.parametrize("settings, message", BAD_SETTINGS)
def test_bad_settings_get_one_line(client: TestClient, settings: Any, message: str) -> None:
    response = client.post("/api/games", json=settings)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert message in error and "\n" not in error


def test_bad_moves_leave_the_game_unchanged(client: TestClient) -> None:
    answer = client.post("/api/games", json={"opponent": "simple", "first_dealer": "opponent"}).json()
    game_id = answer["id"]
    before = client.get(f"/api/games/{game_id}").json()
    illegal = next(action for action in range(107) if action not in {m["action"] for m in answer["legal"]})
    cases = [
        ({"action": illegal}, 400, "not a legal move"),
        ({"action": 9999}, 400, "not a legal move"),
        ({"action": -1}, 400, "not a legal move"),
        ({"action": "104"}, 400, "action: a whole number"),
        ({"action": True}, 400, "action: a whole number"),
        ({"action": 1.0}, 400, "action: a whole number"),
        ({}, 400, "needs a field 'action'"),
        ({"action": 104, "hand": 7}, 409, "another hand"),
    ]
    for body, status, message in cases:
        response = client.post(f"/api/games/{game_id}/move", json=body)
        assert response.status_code == status and message in response.json()["error"], (body, response.text)
        assert client.get(f"/api/games/{game_id}").json() == before
    assert client.post(f"/api/games/{game_id}/next", json={}).status_code == 409
    not_json = client.post(f"/api/games/{game_id}/move", content=b"{", headers={"content-type": "application/json"})
    assert not_json.status_code == 400 and not_json.json()["error"] == "the request body is not JSON"
    form = client.post(f"/api/games/{game_id}/move", content=b"action=104",
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    huge = client.post(f"/api/games/{game_id}/move", content=b" " * (1 << 20),
                       headers={"content-type": "application/json"})
    assert huge.status_code == 413 and "larger than" in huge.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == before


def test_moves_on_a_finished_game_are_refused(client: TestClient, rng: Any) -> None:
    answer = client.post("/api/games", json={"opponent": "simple", "target": None}).json()
    game_id = answer["id"]
    while answer["phase"] not in ("game_over",):
        answer = client.post(f"/api/games/{game_id}/move", json={"action": first_legal(answer, rng)}).json()
    refused = client.post(f"/api/games/{game_id}/move", json={"action": 105})
    assert refused.status_code == 409 and refused.json()["error"] == "the game is over"
    assert client.post(f"/api/games/{game_id}/hint", json={}).status_code == 409


def test_hints_value_every_option_from_the_players_information(client: TestClient) -> None:
    answer = client.post("/api/games", json={"opponent": "simple", "first_dealer": "opponent"}).json()
    hint = client.post(f"/api/games/{answer['id']}/hint", json={}).json()
    assert {option["action"] for option in hint["options"]} == {move["action"] for move in answer["legal"]}
    assert all(option["equity"] is not None and 0 <= option["equity"] <= 1 for option in hint["options"])


def test_review_of_a_game_and_of_an_uploaded_record(client: TestClient, rng: Any) -> None:
    answer = client.post("/api/games", json={"opponent": "greedy", "target": None}).json()
    game_id = answer["id"]
    while answer["phase"] != "game_over":
        answer = client.post(f"/api/games/{game_id}/move", json={"action": first_legal(answer, rng)}).json()
    review = client.get(f"/api/games/{game_id}/review").json()
    assert review["board"]["hands"][0]["steps"][-1]["kind"] == "end"
    record = client.get(f"/api/games/{game_id}/record").json()
    uploaded = client.post("/api/review", json=record)
    assert uploaded.status_code == 200
    broken = dict(record, hands=[dict(record["hands"][0], decisions=["take"] * 3)])
    refused = client.post("/api/review", json=broken)
    assert refused.status_code == 400 and refused.json()["error"].startswith("not a game record:")
    assert client.get("/api/review/nope").status_code == 404
    assert client.get(f"/api/review/{game_id}").status_code == 404  # a game's analysis only through the game


def test_the_runs_page_reads_nothing_outside_its_folder(tmp_path: Path) -> None:
    from ginsim import Rules, simulate
    root = tmp_path / "runs"
    simulate(Rules(), "simple,simple", hands=200, seed=3, out=root / "small", workers=1)
    outside = tmp_path / "secret"
    simulate(Rules(), "simple,simple", hands=50, seed=4, out=outside, workers=1)
    (root / "link").symlink_to(outside, target_is_directory=True)
    client = TestClient(app(tmp_path / "games.sqlite3", runs=root))
    listed = client.get("/api/runs").json()["runs"]
    assert [run["path"] for run in listed] == ["small"]
    summary = client.get("/api/runs/summary", params={"path": "small", "by": "upcard_rank"})
    assert summary.status_code == 200 and "knock_rate" in summary.json()["columns"]
    assert client.get("/api/runs/hand", params={"path": "small", "hand": "7"}).json()["steps"][0]["event"] == "deal"
    for path in ("../secret", str(outside), "link", "small/../../secret", "small\x00"):
        response = client.get("/api/runs/summary", params={"path": path})
        assert response.status_code == 400 and "leaves the runs folder" in response.json()["error"] or \
            "text relative" in response.json()["error"], path
    assert TestClient(app(tmp_path / "g2.sqlite3")).get("/api/runs").status_code == 404


def test_pages_and_assets_are_served_with_a_strict_policy(client: TestClient) -> None:
    for path in ("/", "/review", "/games", "/runs", "/static/play.js", "/static/i18n.js", "/static/app.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
    assert "http" not in client.get("/").text.replace("http-equiv", "")  # nothing fetched from elsewhere
    assert client.get("/static/../server.py").status_code == 404
    assert client.get("/api/nope").json() == {"error": "no such page"}
    assert client.get("/api/games/x/move").json() == {"error": "GET is not allowed here"}


def test_a_sweep_shows_its_cells_side_by_side(tmp_path: Path) -> None:
    from tests.cli_runner import invoke
    root = tmp_path / "runs"
    status, _, err = invoke("sweep", "--knock-limit", "5,10", "--players", "simple,simple", "--hands", "300",
                            "--seed", "2", "--workers", "1", "--out", str(root / "limits"))
    assert status == 0, err
    client = TestClient(app(tmp_path / "games.sqlite3", runs=root))
    assert [(run["path"], run["kind"]) for run in client.get("/api/runs").json()["runs"]] == [("limits", "sweep")]
    cells = client.get("/api/runs/sweep", params={"path": "limits"}).json()["cells"]
    assert len(cells) == 2 and all(cell["rows"] and "knock_rate" in cell["columns"] for cell in cells)
    refused = client.get("/api/runs/sweep", params={"path": "limits/" + cells[0]["cell"]})
    assert refused.status_code == 400 and "is not a sweep directory" in refused.json()["error"]


def test_a_slow_strategy_holds_up_only_its_own_game(tmp_path: Path) -> None:
    """While one game's move is stuck in its strategy, another game's moves are answered."""
    import threading
    import urllib.request

    import uvicorn

    web = app(tmp_path / "games.sqlite3")
    server = uvicorn.Server(uvicorn.Config(web, host="127.0.0.1", port=0, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        threading.Event().wait(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]

    def post(path: str, body: dict[str, Any], cookie: str = "") -> tuple[dict[str, Any], str]:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json", "cookie": cookie})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response), (response.headers.get("set-cookie") or "").split(";")[0]

    try:
        slow, cookie = post("/api/games", {"opponent": "simple"})
        quick, _ = post("/api/games", {"opponent": "simple"}, cookie)
        release = threading.Event()
        stuck = web.state.server.live[slow["id"]].game
        act = stuck.act

        def held(action: int) -> None:
            release.wait(60)
            act(action)

        stuck.act = held
        waiting = threading.Thread(target=post, args=(f"/api/games/{slow['id']}/move",
                                                      {"action": slow["legal"][0]["action"]}, cookie))
        waiting.start()
        try:
            answer, _ = post(f"/api/games/{quick['id']}/move", {"action": quick["legal"][0]["action"]}, cookie)
            assert waiting.is_alive() and answer["id"] == quick["id"]
        finally:
            release.set()
            waiting.join(60)
    finally:
        server.should_exit = True
        thread.join(10)
