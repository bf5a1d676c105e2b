"""The command line as a careless or hostile user meets it: every mistake is one line and exit status 2
(never a traceback, never a silent wrong figure), signals stop a run saying what is kept, and a damaged
run directory is named and repaired. Through the real entry point (in process, or the ``ginsim``
program where a signal is sent)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from ginsim import Rules, Strategy, View, simulate
from ginsim.core.store import RUN_FILE, RunDirectory
from tests.cli_runner import ctrl_c_as_from_a_terminal, invoke, one_line_error

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets

GINSIM = str(Path(sys.executable).with_name("ginsim"))
BOT = '''
import time
from ginsim import Strategy


class Bot(Strategy):
    {name}

    def discard(self, view):
        time.sleep({pause})
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), {tie}))
'''


def bot(folder: Path, stem: str = "bot", name: str = "bot", pause: float = 0, tie: str = "-card") -> str:
    (folder / f"{stem}.py").write_text(BOT.format(name=f"name = {name!r}" if name else "pass", pause=pause, tie=tie))
    return f"{folder / stem}.py:Bot"


# --- numbers out of range or too large (items 3, 6, 11, 14) ------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["run", "--undercut-bonus", "70000", "--players", "gin,simple", "--hands", "2000"],
     "undercut_bonus must be an integer from 0 to 1000, got 70000"),
    (["run", "--gin-bonus", "40000", "--hands", "10"], "gin_bonus must be an integer from 0 to 1000, got 40000"),
    (["run", "--gin-bonus", "99999999999999999999", "--hands", "10"], "got 99999999999999999999"),
    (["run", "--gin-bonus", "9" * 5000, "--hands", "10"], "got a number of 5000 digits"),
    (["run", "--max-reshuffles", "99999999999999999999", "--hands", "10"], "max_reshuffles must be an integer"),
    (["run", "--target", "-5", "--matches", "2"], "target must be None (single-hand game) or an integer from 1"),
    (["rummy", "run", "--target", "100000000000000000000", "--games", "2"], "target must be an integer from 1 to"),
    (["run", "--hands", "1" + "0" * 30], "hands must be a positive integer of at most 1,000,000,000,000,000,000, "
                                         "got 10**30"),
    (["run", "--hands", "10", "--chunk-size", "1" + "0" * 12], "chunk_size must be a positive integer of at most"),
    (["run", "--matches", "1e20"], "'1e20' is not a valid integer"),
    (["run", "--matches", "1" + "0" * 20], "matches must be a positive integer of at most 1,000,000,000,000"),
    (["tournament", "--players", "simple,greedy", "--matches", "1" + "0" * 20], "matches must be a positive integer"),
    (["rummy", "run", "--hands", "1" + "0" * 20], "hands must be a positive integer of at most"),
    (["exact", "--cards", "3", "--workers", "100000"], "workers must be a positive integer of at most 1,024"),
    (["tournament", "--players", "simple,greedy", "--matches", "2", "--workers", "100000"],
     "workers must be a positive integer of at most 1,024"),
    (["rummy", "run", "--games", "1" + "0" * 20], "games must be a positive integer of at most"),
    (["replay", "--seed", "0", "--hand", "18446744073709551616"],
     "hand index must be an integer from 0 to 999,999,999,999,999,999, got 18446744073709551616"),
    (["rummy", "replay", "--seed", "0", "--hand", "18446744073709551616"], "hand index must be an integer from 0"),
])
def test_numbers_out_of_range(args: list[str], message: str) -> None:
    one_line_error(args, message)


def test_a_hand_too_large_to_analyse() -> None:
    deck = " ".join(f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789TJQK")
    one_line_error(["hand", deck, "--any-size"], "a hand of 52 cards is too large to analyse: at most 36")
    densest = " ".join(f"{rank}{suit}" for suit in "CDHS" for rank in "A23456789")
    code, out, _ = invoke("hand", densest, "--any-size", "--json")
    assert code == 0 and len(json.loads(out)["arrangements"]) == 4484


# --- strategies (items 9, 10, 17, 18) ---------------------------------------------------------------------

@pytest.mark.parametrize("source, message", [
    ("def broken(:\n", "bad.py raised SyntaxError"),
    ("raise ImportError('needs torch')\n", "bad.py raised ImportError: needs torch"),
    ("from ginsim import Strategy\nclass Bot(Strategy):\n    def __init__(self, model):\n        pass\n",
     "Bot() raised TypeError"),
    ("from ginsim import Strategy\nclass Bot(Strategy):\n    def __init__(self):\n        raise OSError('no model')\n",
     "Bot() raised OSError: no model"),
])
def test_a_strategy_file_that_does_not_load(tmp_path: Path, source: str, message: str) -> None:
    (tmp_path / "bad.py").write_text(source)
    for args in (["run", "--players", f"{tmp_path / 'bad.py'}:Bot,simple", "--hands", "5"],
                 ["play", "--against", f"{tmp_path / 'bad.py'}:Bot"],
                 ["tournament", "--players", f"{tmp_path / 'bad.py'}:Bot,simple", "--matches", "2"]):
        one_line_error(args, message)


def test_a_strategy_file_on_two_workers(tmp_path: Path) -> None:
    spec = bot(tmp_path)
    args = ["run", "--players", f"{spec},simple", "--hands", "400", "--chunk-size", "100", "--seed", "4"]
    code, two, err = invoke(*args, "--workers", "2")
    assert code == 0, err
    assert (code, two) == invoke(*args, "--workers", "1")[:2]


@pytest.mark.parametrize("players", ["marjj:,simple", "simple:,greedy", "sampler:64:,simple"])
def test_an_empty_strategy_parameter(players: str) -> None:
    one_line_error(["run", "--players", players, "--hands", "5"], f"strategy '{players.split(',')[0]}'")


def test_json_keeps_to_the_columns_asked(tmp_path: Path) -> None:
    code, out, _ = invoke("run", "--hands", "300", "--workers", "1", "--json", "--columns", "knock_rate,mean_turns")
    assert code == 0
    assert list(json.loads(out)["rows"][0]) == ["knock_rate", "knock_rate_low", "knock_rate_high", "mean_turns",
                                                "mean_turns_low", "mean_turns_high"]
    csv = tmp_path / "rates.csv"
    one_line_error(["run", "--hands", "300", "--workers", "1", "--json", "--columns", "bogus", "--csv", str(csv)],
                   "the table has no column 'bogus'")
    assert not csv.exists()


def test_stored_runs_of_python_strategies_replay_or_say_why(tmp_path: Path) -> None:
    spec = bot(tmp_path)
    out = tmp_path / "run"
    assert invoke("run", "--players", f"{spec},simple", "--hands", "50", "--workers", "1", "--out", str(out))[0] == 0
    code, text, err = invoke("replay", str(out), "--hand", "7", "--letters")
    assert code == 0 and text.startswith("Hand 7 of seed 0 under standard rules: player 0 bot, player 1 simple"), err

    class Inline(Strategy):
        name = "inline"

        def discard(self, view: View) -> int:
            return max(view.discard_options())

    simulate(Rules(), [Inline(), "simple"], 20, 0, workers=1, out=tmp_path / "inline")
    one_line_error(["replay", str(tmp_path / "inline"), "--hand", "3"],
                   "player 0 'inline' is a Python strategy (tests.cli.test_cli_reliability.")


def test_two_strategies_with_the_default_name_are_not_one_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first, second = bot(tmp_path, "first", name=""), bot(tmp_path, "second", name="", tie="card")
    code, text, _ = invoke("run", "--players", f"{first},simple", "--hands", "200", "--workers", "1", "--out", str(out))
    assert code == 0 and text.startswith("200 hands of python (player 0)")
    one_line_error(["run", "--players", f"{second},simple", "--hands", "200", "--workers", "1", "--out", str(out)],
                   "holds a different run: python_players")


# --- run directories (items 1, 2, 4, 13, 21) -----------------------------------------------------------------

def test_damaged_run_directories_are_named_and_repaired(tmp_path: Path) -> None:
    out, other = tmp_path / "run", tmp_path / "other"
    args = ["run", "--hands", "3000", "--chunk-size", "1000", "--workers", "1"]
    code, first, _ = invoke(*args, "--out", str(out))
    assert code == 0
    invoke(*args, "--seed", "1", "--out", str(other))
    part = out / "part-000000000001000.parquet"
    part.write_bytes((other / part.name).read_bytes())
    one_line_error(["summary", str(out)], f"{part} belongs to another run: seed 1 (not 0); run the same command "
                                          "again with --repair")
    one_line_error([*args, "--out", str(out)], f"{part} belongs to another run")
    part.write_bytes((out / "part-000000000000000.parquet").read_bytes())
    one_line_error(["summary", str(out)], f"{part} holds items 0 to 999, not the chunk its name says")
    part.unlink()
    part.mkdir()
    one_line_error(["summary", str(out)], f"{part} is not a file")
    code, repaired, err = invoke(*args, "--out", str(out), "--repair")
    assert code == 0 and repaired == first
    assert err.startswith(f"{out}: repairing: 1 damaged or foreign part moved aside (.part-000000000001000.parquet.")
    one_line_error(["run", "--hands", "10", "--repair"], "--repair mends a run directory: it goes with --out")


def test_damaged_streamed_parts_and_run_files_are_named(tmp_path: Path) -> None:
    out = tmp_path / "stream"
    assert invoke("run", "--hands", "3000", "--chunk-size", "1000", "--stream", "--workers", "1",
                  "--out", str(out))[0] == 0
    part = out / "part-000000000001000.npz"
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])
    one_line_error(["summary", str(out)], f"{part} is not a readable counts file (BadZipFile")
    part.write_bytes(data)
    identity = json.loads((out / RUN_FILE).read_text())
    (out / RUN_FILE).write_text(json.dumps({**identity, "size": "lots"}))
    one_line_error(["summary", str(out)], f"{out / RUN_FILE} is damaged: its size is 'lots', not a positive integer")
    one_line_error(["plot", str(out), "-o", str(tmp_path / "rates.png")], "its size is 'lots'")


def test_a_directory_in_use_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "busy"
    identity = {"kind": "hands", "rules": Rules().to_dict(), "players": ["simple", "simple"], "seed": 0,
                "size": 100, "chunk_size": 100_000}
    with RunDirectory.open(out, identity):
        one_line_error(["run", "--hands", "100", "--workers", "1", "--out", str(out)],
                       f"{out} is in use by another run writing there now")
        one_line_error(["summary", str(out)], "(a run is writing there now)")


# --- files and folders (items 12, 19) --------------------------------------------------------------------

def test_files_that_cannot_be_written_are_named(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "rates.csv"
    one_line_error(["run", "--hands", "50", "--workers", "1", "--csv", str(target)],
                   f"cannot write {target}: no directory {target.parent}")
    one_line_error(["summary", str(tmp_path), "--csv", str(tmp_path)], f"{tmp_path} is a directory, not a file")
    figure = tmp_path / "no such folder" / "heat.png"
    one_line_error(["tournament", "--players", "simple,random", "--matches", "2", "--plot", str(figure)],
                   f"cannot write {figure}")
    # A folder where no file can be made, even by root: the error names the file asked for, not the
    # hidden file it is first written to.
    for args, unwritable in ((["run", "--hands", "50", "--workers", "1", "--csv"], Path("/proc/ginsim-rates.csv")),
                             (["tournament", "--players", "simple,random", "--matches", "2", "--plot"],
                              Path("/proc/ginsim-heat.png"))):
        code, _, err = invoke(*args, str(unwritable))
        assert code == 2 and str(unwritable) in err and ".tmp" not in err, err
        assert len(err.strip().splitlines()) == 1


def test_a_folder_that_may_not_be_entered_is_not_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked" / "run"
    real_stat = Path.stat

    def stat(path: Path, **options: object) -> object:
        if path == locked:  # as the system says to a user who may not enter "locked" (root may enter anything)
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, **options)

    monkeypatch.setattr(Path, "stat", stat)
    one_line_error(["summary", str(locked)], f"{locked} cannot be reached: Permission denied")
    one_line_error(["summary", str(tmp_path / "missing")], f"{tmp_path / 'missing'} does not exist")


def test_a_scheduler_address_that_is_none() -> None:
    pytest.importorskip("distributed")
    one_line_error(["run", "--hands", "100", "--backend", "dask", "--scheduler", "not-an-address"],
                   "'not-an-address' is not a Dask scheduler address")


# --- signals (items 8, 20) ---------------------------------------------------------------------------------

def started(command: list[str], out: Path) -> subprocess.Popen[str]:
    """``ginsim`` running ``command`` once its first part is written."""
    process = subprocess.Popen([GINSIM, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_from_a_terminal)
    deadline = time.monotonic() + 120
    while not list(out.glob("part-*")):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    return process


def test_sigterm_says_what_is_kept_and_ends_the_workers(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = ["run", "--players", "sampler:64,simple", "--hands", "4000", "--chunk-size", "10", "--workers", "2",
               "--out", str(out)]
    process = started(command, out)
    workers = psutil.Process(process.pid).children()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, err
    kept = len(list(out.glob("part-*.parquet")))
    assert err.strip() == f"Interrupted: {kept} of 400 chunks are kept in {out}; the same call again resumes the run."
    deadline = time.monotonic() + 60
    while any(worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE for worker in workers):
        assert time.monotonic() < deadline, "a worker outlived the run"
        time.sleep(0.05)


SLOW_START = '''
import multiprocessing
import multiprocessing.util
import time

from ginsim import Strategy


def slow_start(_):
    # Every worker but the first starts slowly: the run stops while it starts.
    if not multiprocessing.current_process().name.endswith("-1"):
        time.sleep({pause})


multiprocessing.util.register_after_fork(slow_start, slow_start)


class NotHeld(Strategy):
    def discard(self, view):
        held = set(view.discard_options())
        return next(card for card in range(52) if card not in held)


class Fair(Strategy):
    def discard(self, view):
        return min(view.discard_options(), key=view.deadwood_after)
'''


def test_a_worker_stopped_while_it_starts_says_nothing(tmp_path: Path) -> None:
    """A run that fails (or is stopped) while a worker is still starting ends that worker without a
    traceback: the worker starts with the stopping signals held, until it has its own handling of them."""
    (tmp_path / "bots.py").write_text(SLOW_START.format(pause=2))
    failing = subprocess.run([GINSIM, "run", "--players", f"{tmp_path / 'bots.py'}:NotHeld,simple", "--hands", "10",
                              "--workers", "2", "--chunk-size", "5"], capture_output=True, text=True, timeout=120,
                             preexec_fn=ctrl_c_as_from_a_terminal)
    assert failing.returncode == 2, failing.stderr
    assert failing.stderr.strip().splitlines() == [
        "Error: hand 0: strategy 'python' (player 0) chose an illegal discard 2C: the player does not hold it"]
    (tmp_path / "bots.py").write_text(SLOW_START.format(pause=5))
    out = tmp_path / "run"
    process = started(["run", "--players", f"{tmp_path / 'bots.py'}:Fair,simple", "--hands", "4000", "--chunk-size",
                       "100", "--workers", "2", "--out", str(out)], out)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, err
    kept = len(list(out.glob("part-*.parquet")))
    assert err.strip() == f"Interrupted: {kept} of 40 chunks are kept in {out}; the same call again resumes the run."


def test_ctrl_c_during_a_python_decision_is_ctrl_c(tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = bot(tmp_path, pause=0.002)
    command = ["run", "--players", f"{spec},simple", "--hands", "4000", "--chunk-size", "20", "--out", str(out)]
    process = started(command, out)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    kept = len(list(out.glob("part-*.parquet")))
    assert err.strip() == f"Interrupted: {kept} of 200 chunks are kept in {out}; the same call again resumes the run."
    assert "KeyboardInterrupt" not in err and "failed" not in err


def test_ctrl_c_stops_a_tournament_as_it_stops_a_run(tmp_path: Path) -> None:
    out = tmp_path / "tournament"
    command = ["tournament", "--players", "sampler:32,simple,greedy", "--matches", "400", "--workers", "1",
               "--out", str(out)]
    process = subprocess.Popen([GINSIM, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_from_a_terminal)
    deadline = time.monotonic() + 120
    while not list(out.glob("*/part-*")):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.startswith("Interrupted: ") and "the same call again resumes the" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_ctrl_c_between_two_pairings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sys.modules["ginsim.gin.studies.tournament"], "_row", interrupted)
    out = tmp_path / "tournament"
    code, stdout, err = invoke("tournament", "--players", "simple,greedy,random", "--matches", "4", "--workers", "1",
                               "--out", str(out))
    assert code == 130, (code, err)
    assert err.strip() == (f"Interrupted: 0 of 3 pairings are finished in {out}; the same call again resumes the "
                           "tournament.")


def test_ctrl_c_while_a_run_is_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--hands", "40", "--chunk-size", "20", "--workers", "1", "--out", str(out))[0] == 0

    def interrupted(self: RunDirectory) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(RunDirectory, "read_frame", interrupted)
    code, stdout, err = invoke("run", "--hands", "40", "--chunk-size", "20", "--workers", "1", "--out", str(out))
    assert code == 130, (code, err)
    assert err.strip().splitlines()[-1] == (f"Interrupted: 2 of 2 chunks are kept in {out}; the same call again "
                                            "resumes the run.")
