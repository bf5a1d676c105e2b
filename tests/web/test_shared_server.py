"""The server shared by many: the book is the one truth of a game, on SQLite and on PostgreSQL. Two servers
on one database never overwrite each other's moves (a stale copy answers 409 and reads the book again); a
locked database answers 503 in one line without blocking the event loop and changes nothing; the players'
cookies are signed and a planted one is never adopted; analyses are queued in the book, bounded, survive a
failing analysis and a restart; hints are bounded and never hold up moves."""
from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from ginsim.web import app  # noqa: E402
from ginsim.web import server as web_server  # noqa: E402
from ginsim.web.book import GameBook  # noqa: E402
from ginsim.web.game import GameSettings, PlayedGame  # noqa: E402
from ginsim.web.server import OWNER_COOKIE, signed  # noqa: E402


def wait_for(check: Callable[[], Any], what: str, seconds: float = 120) -> Any:
    """Poll ``check`` until it gives a true value (a bound on a wait, not a measure of speed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def a_move(answer: dict[str, Any]) -> dict[str, Any]:
    """The body of the first legal move of ``answer``, naming the position it was made in."""
    return {"action": answer["legal"][0]["action"], "hand": answer["hand_number"], "move_count": answer["move_count"]}


def play_on(client: TestClient, answer: dict[str, Any], moves: int) -> dict[str, Any]:
    """Make up to ``moves`` moves of the person (the first legal one each time), dealing on after a hand."""
    for _ in range(moves):
        if answer["phase"] == "game_over":
            break
        if answer["phase"] == "hand_over":
            response = client.post(f"/api/games/{answer['id']}/next", json={})
        else:
            response = client.post(f"/api/games/{answer['id']}/move", json=a_move(answer))
        assert response.status_code == 200, response.text
        answer = response.json()
    return answer


def played_to_the_end(settings: GameSettings, seed: int) -> PlayedGame:
    game = PlayedGame(settings, seed)
    while not game.over:
        if game.hand is not None and game.hand.state.done:
            game.next_hand()
        else:
            game.act(game.public()["legal"][0]["action"])
    return game


@pytest.fixture
def two_servers(database: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers (as two processes would be) on one database, and one player's browser on each."""
    first, second = app(database), app(database)
    with TestClient(first) as one, TestClient(second) as other:
        yield one, other


def test_two_servers_on_one_database_serve_one_game_alike(two_servers: tuple[TestClient, TestClient]) -> None:
    one, other = two_servers
    answer = one.post("/api/games", json={"opponent": "simple", "target": 50}).json()
    other.cookies = one.cookies
    made = 0
    for turn in range(12):  # the player's requests go to either process in turn
        client = (one, other)[turn % 2]
        shown = client.get(f"/api/games/{answer['id']}").json()
        assert shown == answer
        if answer["phase"] == "game_over":
            break
        answer = play_on(client, answer, 1)
        made += 1
    kept = one.app.state.server.book.get(answer["id"], None)  # type: ignore[attr-defined]
    assert kept is not None and kept["version"] == made


def test_a_stale_copy_is_refused_and_the_book_read_again(two_servers: tuple[TestClient, TestClient],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Process one reads the game, process two moves it, then one writes the move it made from its old
    copy: the write is refused (409), nothing of it is kept, and one's next answer is the book's game."""
    one, other = two_servers
    answer = one.post("/api/games", json={"opponent": "simple"}).json()
    other.cookies = one.cookies
    server = one.app.state.server  # type: ignore[attr-defined]
    version_read = server.book.version(answer["id"], server.live[answer["id"]].owner)
    moved = play_on(other, other.get(f"/api/games/{answer['id']}").json(), 1)
    # The race: one reads the version before two's write and writes after it.
    monkeypatch.setattr(server.book, "version", lambda game, owner: version_read)
    refused = one.post(f"/api/games/{answer['id']}/move", json=a_move(answer))
    assert refused.status_code == 409 and list(refused.json()) == ["error"], refused.text
    monkeypatch.undo()
    assert one.get(f"/api/games/{answer['id']}").json() == moved
    kept = server.book.get(answer["id"], None)
    assert kept["version"] == version_read + 1


def test_a_locked_database_answers_503_and_changes_nothing(tmp_path: Path) -> None:
    """Another program holds the database's lock: the move answers 503 in one line after the book's
    timeout, the event loop keeps answering meanwhile, and the game is as it was, in memory and on disk;
    once the lock is let go the same move is made."""
    database = tmp_path / "games.sqlite3"
    web = app(GameBook(database, timeout=0.5))
    with TestClient(web) as client:
        answer = client.post("/api/games", json={"opponent": "simple"}).json()
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            refused = client.post(f"/api/games/{answer['id']}/move", json=a_move(answer))
            assert refused.status_code == 503, refused.text
            assert refused.json() == {"error": "the games database is busy: try again in a moment (nothing was "
                                               "changed)"}
            assert client.get("/api/options").status_code == 200  # needs no database
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert client.get(f"/api/games/{answer['id']}").json() == answer
        assert web.state.server.book.get(answer["id"], None)["version"] == 0
        made = client.post(f"/api/games/{answer['id']}/move", json=a_move(answer))
        assert made.status_code == 200 and made.json()["move_count"] > answer["move_count"]


def test_a_move_waiting_for_the_database_does_not_hold_the_event_loop(tmp_path: Path) -> None:
    """While one request waits for a locked database in its worker thread, others are answered: the options
    request sent after the move is answered before it."""
    database = tmp_path / "games.sqlite3"
    web = app(GameBook(database, timeout=3))
    order: list[str] = []
    with TestClient(web) as client:
        answer = client.post("/api/games", json={"opponent": "simple"}).json()
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            def moving() -> None:
                client.post(f"/api/games/{answer['id']}/move", json=a_move(answer))
                order.append("move")

            mover = threading.Thread(target=moving)
            mover.start()
            wait_for(lambda: web.state.server.live[answer["id"]].lock.locked(), "the move reaching the database")
            assert client.get("/api/options").status_code == 200
            order.append("options")
            mover.join(30)
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
    assert order == ["options", "move"]


def test_a_damaged_or_newer_database_is_refused_in_one_line(tmp_path: Path) -> None:
    from gincore.errors import InputError
    database = tmp_path / "games.sqlite3"
    book = GameBook(database)
    for number in range(300):  # enough rows for pages beyond the first
        book.add(f"game-{number:04}-{'x' * 40}", "owner-0123456789abcdef", {"opponent": "simple"}, number)
    book.close()
    data = bytearray(database.read_bytes())
    page = 4096
    data[3 * page:4 * page] = bytes([0xA5]) * page  # a page of the games table overwritten
    database.write_bytes(bytes(data))
    with pytest.raises(InputError, match="damaged") as refused:
        GameBook(database)
    assert "\n" not in str(refused.value)
    newer = tmp_path / "newer.sqlite3"
    sqlite3.connect(newer).execute("PRAGMA user_version=99")
    with pytest.raises(InputError, match="newer ginsim"):
        GameBook(newer)


def test_a_read_only_database_is_called_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gincore.errors import InputError
    database = tmp_path / "games.sqlite3"
    GameBook(database).close()
    # (The tests run as root, whom file modes do not stop: the server's own check is what is tested.)
    monkeypatch.setattr("os.access", lambda path, mode: not (mode & 2))
    with pytest.raises(InputError, match="read-only"):
        GameBook(database)


def test_a_version_1_database_is_brought_up_to_date(tmp_path: Path) -> None:
    """A games file of the first schema (no versions, no analyses queue) opens, its games playable."""
    database = tmp_path / "games.sqlite3"
    old = sqlite3.connect(database, isolation_level=None)
    old.executescript("""CREATE TABLE games (id TEXT PRIMARY KEY, owner TEXT NOT NULL, created REAL NOT NULL,
        updated REAL NOT NULL, settings TEXT NOT NULL, seed INTEGER NOT NULL, log TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'playing', result TEXT, analysis TEXT); PRAGMA user_version=1;""")
    old.execute("INSERT INTO games VALUES ('old-game-0123456789', 'owner-0123456789abcdef', 1, 1, ?, 7, '[]', "
                "'playing', NULL, NULL)", ('{"opponent": "simple"}',))
    old.close()
    book = GameBook(database)
    client = TestClient(app(book))
    client.cookies.set(OWNER_COOKIE, signed("owner-0123456789abcdef", book.secret()))
    answer = client.get("/api/games/old-game-0123456789").json()
    assert play_on(client, answer, 1)["move_count"] > answer["move_count"]


def test_only_cookies_the_server_signed_are_adopted(database: str) -> None:
    web = app(database)
    owner_client = TestClient(web)
    answer = owner_client.post("/api/games", json={"opponent": "simple"}).json()
    cookie = owner_client.cookies.get(OWNER_COOKIE)
    owner = cookie.rpartition(".")[0]
    planted = [owner,  # the id alone, as a page on another port could plant it
               signed(owner, b"another server's secret"),
               cookie[:-1] + ("0" if cookie[-1] != "0" else "1")]
    for value in planted:
        planter = TestClient(web, cookies={OWNER_COOKIE: value})
        assert planter.get(f"/api/games/{answer['id']}").status_code == 404
        assert planter.get("/api/games").json() == {"games": []}
        started = planter.post("/api/games", json={"opponent": "simple"})
        issued = started.cookies.get(OWNER_COOKIE)
        assert issued and issued != value and issued.rpartition(".")[0] != owner
    assert owner_client.get(f"/api/games/{answer['id']}").status_code == 200
    # Every process (and restart) of one database signs alike: the cookie holds on another server.
    elsewhere = TestClient(app(database), cookies={OWNER_COOKIE: cookie})
    assert elsewhere.get(f"/api/games/{answer['id']}").status_code == 200


def test_a_given_secret_signs_instead(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    client = TestClient(app(database, secret="a secret of the operator's"))
    answer = client.post("/api/games", json={"opponent": "simple"}).json()
    cookie = client.cookies.get(OWNER_COOKIE)
    assert cookie == signed(cookie.rpartition(".")[0], b"a secret of the operator's")
    other = TestClient(app(database), cookies={OWNER_COOKIE: cookie})
    assert other.get(f"/api/games/{answer['id']}").status_code == 404


def test_a_finished_game_without_analysis_is_analysed_at_the_next_start(database: str) -> None:
    """A server stopped before a finished game's analysis was written: the next start analyses it."""
    settings = GameSettings(opponent="simple", target=None)
    game = played_to_the_end(settings, seed=11)
    book = GameBook(database)
    book.add("finished-game-0123456789", "owner-0123456789abcdef", settings.to_json(), game.seed, game.log(), "over")
    web = app(book, analysis_deals=2)
    with TestClient(web):
        kept = wait_for(lambda: book.get("finished-game-0123456789", None)["analysis"], "the analysis")
    assert {item["player"] for item in kept["players"]} == {0, 1}


def test_an_analysis_that_fails_is_one_line_and_the_next_is_made(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    made = web_server.analysis_of
    calls: list[int] = []

    def failing_first(record: Any, deals: int) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("an unexpected error in the analysis")
        return made(record, deals)

    monkeypatch.setattr(web_server, "analysis_of", failing_first)
    client = TestClient(app(tmp_path / "games.sqlite3", analysis_deals=2))
    record = played_to_the_end(GameSettings(opponent="simple", target=None), seed=3).record().to_json()
    jobs = [client.post("/api/review", json=record).json()["job"] for _ in range(2)]
    failed = wait_for(lambda: (lambda r: r if r.status_code == 400 else None)(client.get(f"/api/review/{jobs[0]}")),
                      "the first analysis failing")
    assert failed.json() == {"error": "the analysis failed on the server"}
    done = wait_for(lambda: client.get(f"/api/review/{jobs[1]}").json().get("analysis"), "the second analysis")
    assert done["players"]


def test_the_analysis_queue_is_bounded_for_each_player_and_in_all(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server.Analyst, "wake", lambda self: None)  # nothing is taken from the queue
    web = app(tmp_path / "games.sqlite3")
    record = played_to_the_end(GameSettings(opponent="simple", target=None), seed=5).record().to_json()
    one = TestClient(web)
    statuses = [one.post("/api/review", json=record).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert one.post("/api/review", json=record).json() == {"error": "you have 4 analyses waiting: wait for them "
                                                                    "to finish"}
    for _ in range(15):  # 60 more from 15 other players: the queue holds 64 in all
        other = TestClient(web)
        assert [other.post("/api/review", json=record).status_code for _ in range(4)] == [200] * 4
    late = TestClient(web).post("/api/review", json=record)
    assert late.status_code == 503 and late.json() == {"error": "the analysis queue is full: try again in a minute"}


def test_hints_are_bounded_and_never_hold_up_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every hint thread busy, another player's moves are still made; a player's third hint at once
    is refused (429), and beyond the bound in all every hint is refused (503)."""
    release = threading.Event()
    started = threading.Semaphore(0)

    def slow_hint(state: Any, deals: int) -> dict[str, Any]:
        started.release()
        release.wait(60)
        return {"options": [], "close": False}

    monkeypatch.setattr(web_server, "hint_of", slow_hint)
    web = app(tmp_path / "games.sqlite3", hint_threads=1, threads=2)
    with TestClient(web) as hinter, TestClient(web) as mover:
        asked = hinter.post("/api/games", json={"opponent": "simple", "first_dealer": "opponent"}).json()
        answer = mover.post("/api/games", json={"opponent": "simple"}).json()
        results: list[int] = []
        waiting = [threading.Thread(target=lambda: results.append(hinter.post(f"/api/games/{asked['id']}/hint",
                                                                              json={}).status_code))
                   for _ in range(2)]
        try:
            for thread in waiting:
                thread.start()
            started.acquire(timeout=60)  # one hint holds the only hint thread, the other waits for it
            wait_for(lambda: web.state.server.hinting.total() == 2, "two hints under way")
            third = hinter.post(f"/api/games/{asked['id']}/hint", json={})
            assert third.status_code == 429 and "still being worked out" in third.json()["error"]
            assert play_on(mover, answer, 3)["move_count"] > answer["move_count"]  # moves go on meanwhile
            web.state.server.most_hints = 2
            crowd = TestClient(web)
            other = crowd.post("/api/games", json={"opponent": "simple", "first_dealer": "opponent"}).json()
            refused = crowd.post(f"/api/games/{other['id']}/hint", json={})
            assert refused.status_code == 503 and "many hints" in refused.json()["error"]
        finally:
            release.set()
            for thread in waiting:
                thread.join(60)
    assert results == [200, 200]


@pytest.mark.parametrize("content_type", ["Application/JSON", "application/json; charset=UTF-8"])
def test_json_is_json_whatever_the_case(tmp_path: Path, content_type: str) -> None:
    client = TestClient(app(tmp_path / "games.sqlite3"))
    answer = client.post("/api/games", content=b'{"opponent": "simple"}', headers={"content-type": content_type})
    assert answer.status_code == 200, answer.text


def test_an_error_never_echoes_a_long_value(tmp_path: Path) -> None:
    client = TestClient(app(tmp_path / "games.sqlite3"))
    answer = client.post("/api/games", json={"opponent": "simple"}).json()
    refused = client.post(f"/api/games/{answer['id']}/move", json={"action": "x" * 10_000})
    assert refused.status_code == 400 and len(refused.json()["error"]) < 100, refused.text
    settings = client.post("/api/games", json={"opponent": "y" * 10_000})
    assert settings.status_code == 400 and len(settings.json()["error"]) <= web_server.MOST_ERROR
