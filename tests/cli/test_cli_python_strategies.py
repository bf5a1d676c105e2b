"""A Python strategy enters ``run``, ``tournament`` and ``play`` as ``file.py:Class`` or ``module:Class``."""
from __future__ import annotations

from pathlib import Path

import pytest

from ginsim import Rules, simulate
from ginsim.gin.game.players import Player
from tests.cli_runner import invoke

BOT = '''
from ginsim import Strategy


class LowKnocker(Strategy):
    name = "low-knocker"

    def discard(self, view):
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))

    def knock(self, view):
        return view.deadwood <= 3


NOT_A_STRATEGY = 42
'''



@pytest.fixture
def bot(tmp_path: Path) -> str:
    path = tmp_path / "lowbot.py"
    path.write_text(BOT)
    return f"{path}:LowKnocker"


def test_run_with_a_strategy_from_a_file(bot: str) -> None:
    code, out, err = invoke("run", "--players", f"{bot},simple", "--hands", "300", "--seed", "3")
    assert code == 0, err
    assert out.startswith("300 hands of low-knocker (player 0) vs simple (player 1), seed 3")
    records = simulate(Rules(), [Player.of(bot), "simple"], hands=300, seed=3, workers=1)
    assert set(records.loc[records["knocker"] == 0, "knocker_deadwood"]) <= {0, 1, 2, 3}


def test_tournament_and_play_take_one(bot: str) -> None:
    code, out, err = invoke("tournament", "--players", f"{bot},simple,greedy", "--matches", "4")
    assert code == 0, err and out.count("low-knocker") >= 2
    code, out, _ = invoke("play", "--against", bot, "--seed", "1", "--letters", input="q\n")
    assert code == 0 and "you against low-knocker" in out


def test_a_strategy_from_a_module() -> None:
    assert Player.of("ginsim.gin.game.strategies:Strategy").name == "python"
    assert Player.of("Threshold:4").name == "threshold:4" and Player.of("sampler:8").name == "sampler:8:3:0"


@pytest.mark.parametrize("spec, message", [
    ("{dir}/nobot.py:X", "no file"),
    ("{dir}/lowbot.py:Nope", "has no Nope"),
    ("{dir}/lowbot.py:NOT_A_STRATEGY", "has no take_discard, discard and knock methods"),
    ("no_such_module_here:X", "No module named 'no_such_module_here'"),
    ("threshold:x", "knock_at must be an integer from 0 to 10, got 'x'"),
])
def test_bad_strategy_specs(bot: str, spec: str, message: str) -> None:
    text = spec.format(dir=Path(bot.rpartition(":")[0]).parent)
    code, out, err = invoke("run", "--players", f"{text},simple", "--hands", "5")
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
