"""What a hostile client tried against the server, each kept as a test: a game loaded from the book by two
requests at once is loaded once and moved once; a move sent twice is refused instead of being read as the
next one; odd query strings, huge records, foreign ``Host`` names and links out of the runs folder are
refused in one line; and the runs page's messages do not say where the folder is."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402
from starlette.types import ASGIApp, Message  # noqa: E402

from ginsim.gin.game.actions import REFUSE, TAKE  # noqa: E402
from ginsim.web import app  # noqa: E402
from ginsim.web.server import LOOPBACK_HOSTS, MOST_REVIEW_HANDS  # noqa: E402


def to_draw(client: TestClient, answer: dict[str, Any]) -> dict[str, Any]:
    """Play on (passing the upcard, discarding the first legal card) until the person is to draw."""
    while answer["phase"] != "draw":
        assert answer["phase"] in ("offer", "discard"), answer["phase"]
        answer = client.post(f"/api/games/{answer['id']}/move", json={"action": answer["legal"][-1]["action"]
                                                                       if answer["phase"] == "offer"
                                                                       else answer["legal"][0]["action"]}).json()
    return answer


async def post(web: ASGIApp, path: str, cookie: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """One request straight to the app, so that several can be under way at once in one event loop."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000),
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                         (b"cookie", f"ginsim_player={cookie}".encode())]}
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await web(scope, receive, send)
    status = next(message["status"] for message in sent if message["type"] == "http.response.start")
    return status, json.loads(b"".join(message.get("body", b"") for message in sent
                                       if message["type"] == "http.response.body"))


def test_two_moves_on_a_game_loaded_at_once_are_one_move(tmp_path: Path) -> None:
    """Two requests that find the game out of memory load it once: one move is made, the other refused,
    and no answer names the stock's top card unless that was the move made."""
    database = tmp_path / "games.sqlite3"
    first = TestClient(app(database))
    answer = to_draw(first, first.post("/api/games", json={"opponent": "simple", "first_dealer": "opponent"})
                     .json())
    game_id, cookie = answer["id"], first.cookies.get("ginsim_player")
    web = app(database)  # a restart: the game is in the book only

    async def both() -> list[tuple[int, dict[str, Any]]]:
        return list(await asyncio.gather(*(
            post(web, f"/api/games/{game_id}/move", cookie, {"action": action}) for action in (REFUSE, TAKE))))

    responses = asyncio.run(both())  # the draw made first leaves the other draw illegal
    assert sorted(status for status, _ in responses) == [200, 400], responses
    made = next(body for status, body in responses if status == 200)
    game = web.state.server.live[game_id].game
    assert game.hand is not None and made["move_count"] == len(game.hand.moves)
    saved = TestClient(app(database))
    saved.cookies.set("ginsim_player", cookie)
    assert saved.get(f"/api/games/{game_id}").json() == TestClient(web, cookies={"ginsim_player": cookie}) \
        .get(f"/api/games/{game_id}").json()


def test_a_move_sent_twice_is_refused_not_read_as_the_next(tmp_path: Path) -> None:
    client = TestClient(app(tmp_path / "games.sqlite3"))
    answer = client.post("/api/games", json={"opponent": "simple", "first_dealer": "opponent"}).json()
    assert answer["phase"] == "offer"
    sent = {"action": REFUSE, "hand": answer["hand_number"], "move_count": answer["move_count"]}
    after = client.post(f"/api/games/{answer['id']}/move", json=sent)
    assert after.status_code == 200
    again = client.post(f"/api/games/{answer['id']}/move", json=sent)  # "pass" again would now draw
    assert again.status_code == 409 and again.json()["error"].startswith("that move was for an earlier position")
    assert client.get(f"/api/games/{answer['id']}").json() == after.json()
    for bad in ({"move_count": True}, {"move_count": 1.0}, {"hand": True}, {"hand": "1"}):
        refused = client.post(f"/api/games/{answer['id']}/move", json={"action": REFUSE, **bad})
        assert refused.status_code == 400 and "a whole number" in refused.json()["error"], bad


@pytest.mark.parametrize("settings, message", [
    ({"target": 100.0}, "target: a game to 50, 100 or 250"),
    ({"knock_limit": 10.0}, "knock_limit: 10, 5 or null"),
    ({"preset": "oklahoma", "knock_limit": 5}, "knock_limit: the oklahoma preset sets its own knock limit"),
    ({"preset": "straight", "knock_limit": 10}, "knock_limit: the straight preset sets its own knock limit"),
])
def test_settings_the_rules_would_change_are_refused(tmp_path: Path, settings: dict[str, Any], message: str) -> None:
    response = TestClient(app(tmp_path / "games.sqlite3")).post("/api/games", json=settings)
    assert response.status_code == 400 and response.json()["error"].startswith(message), response.text


def runs_client(tmp_path: Path) -> tuple[TestClient, Path, Path]:
    from ginsim import Rules, simulate
    root, outside = tmp_path / "runs", tmp_path / "secret"
    simulate(Rules(), "simple,simple", hands=40, seed=3, out=root / "small", workers=1)
    simulate(Rules(), "greedy,random", hands=40, seed=4, out=outside, workers=1)
    return TestClient(app(tmp_path / "games.sqlite3", runs=root)), root, outside


@pytest.mark.parametrize("hand", ["\u00b2", "\u2460", "\u0663", "1" * 5000, "-1", "1e3"])
def test_a_hand_number_is_ascii_digits(tmp_path: Path, hand: str) -> None:
    client, _, _ = runs_client(tmp_path)
    response = client.get("/api/runs/hand", params={"path": "small", "hand": hand})
    assert response.status_code == 400 and response.json()["error"].startswith("hand: a hand number"), response.text


def test_files_linked_from_outside_are_not_read(tmp_path: Path) -> None:
    client, root, outside = runs_client(tmp_path)
    linked = root / "linked"
    linked.mkdir()
    for path in outside.iterdir():
        (linked / path.name).symlink_to(path)
    listed = {run["path"]: run for run in client.get("/api/runs").json()["runs"]}
    assert listed["linked"]["kind"] == "damaged" and "a link out of the runs folder" in listed["linked"]["description"]
    for route, params in (("summary", {}), ("hand", {"hand": "0"})):
        response = client.get(f"/api/runs/{route}", params={"path": "linked", **params})
        assert response.status_code == 400 and "leaves the runs folder" in response.json()["error"], response.text
        assert "greedy" not in response.text


def test_fifos_and_overlong_paths_are_refused_not_waited_on(tmp_path: Path) -> None:
    """A FIFO where a run's file should be would hold its reader forever; a name too long for the file
    system was a 500: both are refused in one line, and the listing shows the run as damaged."""
    from ginsim.core.store import RUN_FILE
    client, root, _ = runs_client(tmp_path)
    (root / "piped").mkdir()
    os.mkfifo(root / "piped" / RUN_FILE)
    shutil.copytree(root / "small", root / "parts")
    part = next(path for path in (root / "parts").rglob("*.parquet"))
    part.unlink()
    os.mkfifo(part)
    listed = {run["path"]: run for run in client.get("/api/runs").json()["runs"]}
    assert listed["piped"]["kind"] == "damaged" and "is not a regular file" in listed["piped"]["description"]
    assert listed["parts"]["kind"] == "damaged"
    for path in ("piped", "parts"):
        for route, params in (("summary", {}), ("hand", {"hand": "0"})):
            response = client.get(f"/api/runs/{route}", params={"path": path, **params})
            assert response.status_code == 400 and "is not a regular file" in response.json()["error"], response.text
    for path in ("a" * 300, "b/" * 2000):
        response = client.get("/api/runs/summary", params={"path": path})
        assert response.status_code == 400 and len(response.json()["error"]) <= 300, response.text


def test_the_runs_page_does_not_say_where_the_folder_is(tmp_path: Path) -> None:
    client, root, _ = runs_client(tmp_path)
    (root / "half").mkdir()
    (root / "half" / "_run.json").write_text("{")
    (root / "dir" / "_run.json").mkdir(parents=True)
    answers = [client.get("/api/runs"), client.get("/api/runs/summary", params={"path": "nope"}),
               client.get("/api/runs/summary", params={"path": "half"}),
               client.get("/api/runs/hand", params={"path": "dir", "hand": "1"})]
    assert [answer.status_code for answer in answers] == [200, 400, 400, 400]
    for answer in answers:
        assert str(tmp_path) not in answer.text, answer.text
    assert {run["path"] for run in answers[0].json()["runs"] if run["kind"] == "damaged"} == {"half"}


def test_a_record_of_too_many_hands_is_refused(tmp_path: Path, rng: Any) -> None:
    client = TestClient(app(tmp_path / "games.sqlite3", analysis_deals=2))
    answer = client.post("/api/games", json={"opponent": "greedy", "target": None}).json()
    while answer["phase"] != "game_over":
        legal = answer["legal"]
        answer = client.post(f"/api/games/{answer['id']}/move",
                             json={"action": legal[int(rng.integers(len(legal)))]["action"]}).json()
    record = client.get(f"/api/games/{answer['id']}/record").json()
    for name in ("totals", "seed"):
        record.pop(name, None)
    record["rules"]["target"] = None  # hands of no game: each stands alone, so copies make a record
    record["hands"] = [dict(record["hands"][0], scores=None, hand=number) for number in range(MOST_REVIEW_HANDS + 1)]
    response = client.post("/api/review", content=json.dumps(record), headers={"content-type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.json()["error"] == f"the record has {MOST_REVIEW_HANDS + 1:,} hands; the review reads at most " \
                                       f"{MOST_REVIEW_HANDS}"


def test_a_server_for_this_machine_answers_only_its_names(tmp_path: Path) -> None:
    web = app(tmp_path / "games.sqlite3", hosts=(*LOOPBACK_HOSTS, "127.0.0.1"))
    for host in ("127.0.0.1:8765", "localhost", "[::1]:8000"):
        assert TestClient(web, base_url=f"http://{host}").get("/api/options").status_code == 200, host
    foreign = TestClient(web, base_url="http://attacker.example:8765")
    assert foreign.get("/api/options").status_code == 400
    refused = foreign.post("/api/games", json={"opponent": "simple"})
    assert refused.status_code == 400 and "set-cookie" not in refused.headers
    assert "content-security-policy" in refused.headers


def test_a_game_kept_with_a_knock_limit_its_preset_ignores_plays_on(tmp_path: Path) -> None:
    """The form once sent a knock limit with Oklahoma, which was ignored: such a saved game still opens."""
    from ginsim.web.book import GameBook
    from ginsim.web.server import signed
    database = tmp_path / "games.sqlite3"
    book = GameBook(database)
    settings = {"preset": "oklahoma", "target": 100, "knock_limit": 5, "hollywood": False,
                "first_dealer": "you", "opponent": "simple"}
    book.add("kept-game-id-0123456789", "owner-0123456789abcdef", settings, 7)
    client = TestClient(app(book))
    client.cookies.set("ginsim_player", signed("owner-0123456789abcdef", book.secret()))
    shown = client.get("/api/games/kept-game-id-0123456789")
    assert shown.status_code == 200, shown.text
    assert shown.json()["rules"]["oklahoma"] and shown.json()["settings"]["knock_limit"] is None
