"""Strategies named or built the way a hostile user would: specs of the wrong type, parameters that
``int()`` alone would take, arguments that change with the hash seed or nest without end, and
strategy objects that are no ``Strategy`` built with other arguments. A run directory never takes one
strategy for another, and a stopped run resumes in another process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gincore.errors import InputError
from ginsim import Rules, Strategy, View, simulate
from ginsim.core.store import RUN_FILE
from ginsim.gin import resolve_players
from ginsim.gin.game.origins import load_python, python_origin
from ginsim.gin.game.players import Player
from tests.cli_runner import invoke

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets

GINSIM = str(Path(sys.executable).with_name("ginsim"))


class Duck:
    """A strategy that is no ``Strategy`` subclass: its discards depend on how it was built."""

    name = "duck"

    def __init__(self, tie: int) -> None:
        self.tie = tie

    def take_discard(self, view: View) -> bool:
        return False

    def discard(self, view: View) -> int:
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), (card * 7 + self.tie) % 52))

    def knock(self, view: View) -> bool:
        return True


class Holding(Strategy):
    name = "holding"

    def __init__(self, what: object) -> None:
        self.what = what

    def discard(self, view: View) -> int:
        return max(view.discard_options(), key=lambda card: (-view.deadwood_after(card), card))


# --- specs and parameters (items 13, 15) ------------------------------------------------------------------

@pytest.mark.parametrize("spec", [None, 5, 5.0, b"simple"])
def test_a_spec_that_is_no_text(spec: object) -> None:
    with pytest.raises(InputError, match="a strategy is named by text"):
        load_python(spec)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="a player is a strategy name or an object with"):
        Player.of(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [[None, "simple"], [5, "simple"], ["simple", object()]])
def test_players_that_are_no_strategy(players: list[Any]) -> None:
    with pytest.raises(InputError, match="a player is a strategy name or an object with"):
        resolve_players(players)
    with pytest.raises(InputError):
        simulate(Rules(), players, 2, seed=0, workers=1)


@pytest.mark.parametrize("spec", ["reader:\u0665", "reader:+5", "reader: 5", "reader:5_0",
                                  "threshold:\uff15", "search:8:-1"])
def test_parameters_are_plain_digits(spec: str) -> None:
    with pytest.raises(InputError, match=r"strategy .*: (\w+ must be an integer|a value with spaces)"):
        Player.of(spec)
    one = invoke("run", "--players", f"{spec},simple", "--hands", "2")
    assert one[0] == 2 and "Traceback" not in one[2], one


def test_plain_parameters_still_parse() -> None:
    assert Player.of(" Reader:5") == Player.of("reader:5:3:0:50")


# --- what identifies a strategy in a run directory (items 2, 10) ---------------------------------------

def test_a_duck_built_otherwise_is_another_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = simulate(Rules(), [Duck(0), "simple"], 40, seed=1, out=out, workers=1)
    with pytest.raises(InputError, match="holds a different run: python_players"):
        simulate(Rules(), [Duck(10), "simple"], 40, seed=1, out=out, workers=1)
    again = simulate(Rules(), [Duck(0), "simple"], 40, seed=1, out=out, workers=1)
    assert again.equals(first)


class CountingDuck(Duck):
    """A duck whose attributes change as it plays."""

    def __init__(self, tie: int) -> None:
        super().__init__(tie)
        self.calls = 0

    def discard(self, view: View) -> int:
        self.calls += 1
        return super().discard(view)


def test_a_duck_that_has_played_resumes_its_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    duck = CountingDuck(3)
    first = simulate(Rules(), [duck, "simple"], 40, seed=1, chunk_size=20, out=out, workers=1)
    assert duck.calls > 0
    next(out.glob("part-*20.parquet")).unlink()
    assert simulate(Rules(), [duck, "simple"], 40, seed=1, chunk_size=20, out=out, workers=1).equals(first)
    assert simulate(Rules(), [CountingDuck(3), "simple"], 40, seed=1, chunk_size=20, out=out, workers=1).equals(first)


def test_a_duck_without_attributes_keeps_its_identity() -> None:
    class Plain:
        def take_discard(self, view: View) -> bool:
            return False

        def discard(self, view: View) -> int:
            return view.discard_options()[0]

        def knock(self, view: View) -> bool:
            return True

    assert python_origin(Plain()).arguments is None


ARGUMENTS = ["frozenset('abcdefgh')", "{'b': {1, 2, 3}, 'a': frozenset({'x', 'y'})}",
             "[{'q', 'r', 's'}, ('t', frozenset())]"]


def _hashes_in_a_process(seed: str) -> list[str]:
    code = ("from tests.gin.game.test_hostile_strategies import ARGUMENTS, Holding\n"
            "from ginsim.gin.game.origins import python_origin\n"
            "for argument in ARGUMENTS:\n"
            "    print(python_origin(Holding(eval(argument))).arguments)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "PYTHONHASHSEED": seed})
    return done.stdout.split()


def test_arguments_hash_alike_in_every_process() -> None:
    """A set's pickle follows the hash seed; the hash of the arguments must not."""
    first, second = _hashes_in_a_process("1"), _hashes_in_a_process("2")
    assert first == second and len(set(first)) == len(ARGUMENTS)
    assert first[0] == python_origin(Holding(frozenset("abcdefgh"))).arguments
    assert first[0] != python_origin(Holding(frozenset("abcdefg"))).arguments


BOT_WITH_A_SET = '''
from ginsim import Strategy


class Bot(Strategy):
    name = "bot"

    def __init__(self, avoid):
        self.avoid = avoid

    def discard(self, view):
        return max(view.discard_options(), key=lambda card: (-view.deadwood_after(card), card))


bot = Bot(frozenset({"AC", "2D", "3H", "4S", "5C", "6D"}))
'''


def test_a_stopped_run_resumes_under_another_hash_seed(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(BOT_WITH_A_SET)
    out = tmp_path / "run"
    args = [GINSIM, "run", "--players", f"{tmp_path / 'bot.py'}:bot,simple", "--hands", "40", "--chunk-size", "20",
            "--seed", "3", "--workers", "1", "--out", str(out)]
    first = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False,
                           env={**os.environ, "PYTHONHASHSEED": "1"})
    assert first.returncode == 0, first.stderr
    (out / "part-000000000000020.parquet").unlink()  # as if stopped after its first chunk
    again = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False,
                           env={**os.environ, "PYTHONHASHSEED": "2"})
    assert again.returncode == 0, again.stderr
    assert "1 of 2 chunks" in again.stderr or "reus" in again.stderr.lower(), again.stderr
    assert first.stdout == again.stdout


DEEP_BOT = '''
from ginsim import Strategy


class Bot(Strategy):
    def __init__(self, depth):
        self.depth = depth

    def discard(self, view):
        return view.discard_options()[0]


deep = []
for _ in range(100_000):
    deep = [deep]
bot = Bot(deep)
'''


def test_arguments_nested_without_end(tmp_path: Path) -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(InputError, match="its arguments are nested more than 100 deep"):
        simulate(Rules(), [Holding(deep), "simple"], 2, seed=0, out=tmp_path / "api", workers=1)
    (tmp_path / "deep.py").write_text(DEEP_BOT)
    code, out, err = invoke("run", "--players", f"{tmp_path / 'deep.py'}:bot,simple", "--hands", "2",
                            "--out", str(tmp_path / "cli"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, err)
    assert "nested more than 100 deep" in err
    assert not (tmp_path / "cli" / RUN_FILE).exists()
