"""Python strategies, the way a user gets them wrong: what a choice may be, how a file is loaded (and
fails to load), on which processes it plays, what identifies it in a stored run, how a stored run
of it replays, and Ctrl-C during its decision. The default face-up rule is the native ``simple``'s."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import gincore
from gincore.errors import InputError
from ginsim import Rules, Strategy, StrategyError, View, play_hand, replay_hand, simulate, simulate_matches
from ginsim.core.execution import RunInterrupted
from ginsim.core.store import RUN_FILE, RunDirectoryError
from ginsim.gin.game.players import Player, player_name, resolve_players
from ginsim.gin.game.strategies import in_some_meld
from tests.reference.gin_replay import in_some_meld as reference_in_some_meld

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets

LEAST_DEADWOOD = '''
from ginsim import Strategy


class Bot(Strategy):
    {name}

    def discard(self, view):
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), {tie}))
'''


def bot_file(folder: Path, stem: str, name: str = "", tie: str = "-card") -> str:
    """A file strategy ``Bot`` (named ``name``, else the default ``python``) and its spec."""
    path = folder / f"{stem}.py"
    path.write_text(LEAST_DEADWOOD.format(name=f"name = {name!r}" if name else "pass", tie=tie))
    return f"{path}:Bot"


class LeastDeadwood(Strategy):
    name = "least"

    def discard(self, view: View) -> int:
        return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))


class Answers(LeastDeadwood):
    """Discards what ``card(view)`` says and knocks with what ``knock_answer`` is."""

    name = "answers"

    def __init__(self, card: object = None, knock_answer: object = True) -> None:
        self.card, self.knock_answer = card, knock_answer

    def discard(self, view: View) -> int:
        chosen = super().discard(view)
        return self.card if self.card is not None else chosen  # type: ignore[return-value]

    def knock(self, view: View) -> bool:
        return self.knock_answer  # type: ignore[return-value]


# --- what a choice may be (items 15, 16) --------------------------------------------------------------

@pytest.mark.parametrize("card", [-1, -2, 52, 2**64, np.int64(-1)])
def test_a_discard_that_is_no_card_index_is_refused(card: object) -> None:
    with pytest.raises(StrategyError, match=rf"^hand \d+: strategy 'answers' \(player 0\) chose an illegal discard "
                                            rf"{int(card)}: it is not a card index 0\.\.51$"):
        simulate(Rules(), [Answers(card), "simple"], 5, 1, workers=1)


def test_numpy_answers_are_taken() -> None:
    class NumpyCards(LeastDeadwood):
        def discard(self, view: View) -> int:
            return np.int64(super().discard(view))  # type: ignore[return-value]

        def knock(self, view: View) -> bool:
            return np.int64(view.deadwood) <= 10  # a numpy bool  # type: ignore[return-value]

    plain = simulate(Rules(), [LeastDeadwood(), "simple"], 60, 2, workers=1)
    pd.testing.assert_frame_equal(simulate(Rules(), [NumpyCards(), "simple"], 60, 2, workers=1), plain)
    with pytest.raises(StrategyError, match="knock must return True or False, got 1"):
        simulate(Rules(), [Answers(knock_answer=1), "simple"], 200, 2, workers=1)


# --- the default face-up rule (item 22) ------------------------------------------------------------------

def view_of(hand: int, pile: list[int]) -> View:
    return View(player=0, hand=hand, discard_pile=tuple(pile), discarded_by=tuple(-1 for _ in pile),
                opponent_took=0, opponent_passed=0, stock_size=20, knock_limit=10, multiplier=1, dealer=1,
                upcard=pile[0], turns=0, drawn_card=-1, drawn_from_pile=False, hand_index=0, scores=(0, 0))


def test_a_card_in_a_meld_outside_every_least_deadwood_arrangement_is_taken() -> None:
    # KS melds in JS QS KS, but the sets of jacks and queens leave less deadwood without it.
    hand = gincore.parse_cards("JS QS JC JD QC QD 2C 4D 6H 8H")
    king = gincore.parse_cards("KS").bit_length() - 1
    assert not any(meld >> king & 1 for melds in gincore.arrangements(hand | 1 << king) for meld in melds)
    assert Strategy().take_discard(view_of(hand, [king]))
    rest = [card for card in range(52) if not (hand >> card & 1) and card != king]
    deck = [card for pair in zip(gincore.cards_of(hand), rest[:10], strict=True) for card in pair] + [king] + rest[10:]
    native = play_hand(Rules(), "simple,simple", deck=deck, dealer=1)
    assert native.events[0] == ("take_upcard", 0, king)  # the native simple takes it too


def test_the_default_takes_what_the_native_simple_takes(seed_for) -> None:
    """Every face-up decision of ``simple`` over many traced hands, asked of the Python default."""
    decisions = 0
    seed = seed_for("default take rule")
    for index in range(150):
        hand = play_hand(Rules.preset("reshuffle"), "simple,simple", seed, index)
        held = list(hand.dealt)
        pile = [hand.upcard]
        previous = ""
        for kind, player, card in hand.events:
            offered = kind in ("take_upcard", "pass_upcard", "draw_discard") or (
                kind == "draw_stock" and previous in ("discard", "reshuffle"))
            if offered:
                took = kind in ("take_upcard", "draw_discard")
                assert Strategy().take_discard(view_of(held[player], pile)) == took, (index, kind, card)
                assert in_some_meld(held[player] | 1 << pile[-1], pile[-1]) == took
                decisions += 1
            if kind in ("take_upcard", "draw_discard"):
                pile.pop()
            if kind in ("take_upcard", "draw_discard", "draw_stock"):
                held[player] |= 1 << card
            elif kind in ("discard", "knock", "gin"):  # a knock's or gin's discard goes face down
                held[player] &= ~(1 << card)
                pile += [card] if kind == "discard" else []
            elif kind == "reshuffle":
                pile = pile[-1:]
            previous = kind
    assert decisions > 1000


def test_in_some_meld_agrees_with_the_reference(rng: np.random.Generator) -> None:
    for _ in range(3000):
        cards = rng.choice(52, size=int(rng.integers(1, 14)), replace=False)
        hand = sum(1 << int(card) for card in cards)
        assert in_some_meld(hand, int(cards[0])) == reference_in_some_meld(hand, int(cards[0]))


# --- names with an empty parameter (item 17) ---------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("marjj:", r"strategy 'marjj:': a value with spaces or an empty value between colons; write marjj\(early=5\)"),
    ("sampler:64:", r"strategy 'sampler:64:': a value with spaces or an empty value between colons; write sampler"),
    ("search::3", r"strategy 'search::3': a value with spaces or an empty value between colons; write search"),
    ("simple:", r"strategy 'simple:': simple takes no parameters"),
])
def test_an_empty_parameter_is_refused(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        resolve_players(f"{text},simple")
    with pytest.raises(InputError, match=message):
        player_name(text)


# --- loading a file (item 9) ---------------------------------------------------------------------------

@pytest.mark.parametrize("source, message", [
    ("x = (\n", r"bot\.py raised SyntaxError: '\(' was never closed \(bot\.py, line 1\)"),
    ("raise RuntimeError('no network')\n", r"bot\.py raised RuntimeError: no network"),
    ("import sys\nsys.exit(3)\n", r"bot\.py raised SystemExit: 3"),
    ("from ginsim import Strategy\nclass Bot(Strategy):\n    def __init__(self, depth):\n        pass\n",
     r"Bot\(\) raised TypeError: .*missing 1 required positional argument: 'depth'"),
    ("from ginsim import Strategy\nclass Bot(Strategy):\n    def __init__(self):\n        {}['model']\n",
     r"Bot\(\) raised KeyError: 'model'"),
    ("import no_such_module_anywhere\n", r"bot\.py raised ModuleNotFoundError: No module named"),
])
def test_a_file_that_does_not_load_is_named_in_one_line(tmp_path: Path, source: str, message: str) -> None:
    (tmp_path / "bot.py").write_text(source)
    spec = f"{tmp_path / 'bot.py'}:Bot"
    with pytest.raises(InputError, match=rf"^cannot load strategy '{spec}': {message}") as info:
        Player.of(spec)
    assert "\n" not in str(info.value)


def test_a_file_strategy_may_use_dataclasses(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(textwrap.dedent('''
        from __future__ import annotations
        from dataclasses import dataclass, field
        from ginsim import Strategy

        @dataclass
        class Bot(Strategy):
            margin: int = 3
            seen: list[int] = field(default_factory=list)

            def discard(self, view):
                return max(view.discard_options())
    '''))
    assert Player.of(f"{tmp_path / 'bot.py'}:Bot").strategy.margin == 3  # type: ignore[attr-defined]


# --- worker processes (item 10) ------------------------------------------------------------------------

def test_a_file_strategy_plays_on_a_process_pool(tmp_path: Path, test_seed: int) -> None:
    spec = bot_file(tmp_path, "pooled", "pooled")
    one = simulate(Rules(), [Player.of(spec), "simple"], 600, test_seed, workers=1, chunk_size=100)
    two = simulate(Rules(), [Player.of(spec), "simple"], 600, test_seed, workers=2, chunk_size=100)
    pd.testing.assert_frame_equal(one, two)
    matches = simulate_matches(Rules(), [Player.of(spec), "simple"], 8, test_seed, workers=2, chunk_size=2)
    pd.testing.assert_frame_equal(matches, simulate_matches(Rules(), [Player.of(spec), "simple"], 8, test_seed,
                                                             workers=1))


def test_an_object_that_cannot_reach_a_worker_is_one_line() -> None:
    class Unpicklable(LeastDeadwood):
        def __init__(self) -> None:
            self.key = lambda card: -card

    with pytest.raises(InputError, match=r"^the run cannot be sent to worker processes \(AttributeError: Can't "
                                         r"pickle local object .*\); play it with one worker"):
        simulate(Rules(), [Unpicklable(), "simple"], 400, 1, workers=2, chunk_size=100)
    assert len(simulate(Rules(), [Unpicklable(), "simple"], 400, 1, workers=1, chunk_size=100)) == 400


def test_a_file_changed_during_the_run_is_not_loaded_again(tmp_path: Path) -> None:
    spec = bot_file(tmp_path, "changing")
    player = Player.of(spec)
    bot_file(tmp_path, "changing", tie="card")
    with pytest.raises(StrategyError, match="changed on disk after the run started"):
        simulate(Rules(), [player, "simple"], 400, 1, workers=2, chunk_size=100)


# --- identity of a stored run (item 5) and replaying it (item 18) ------------------------------------------

def test_two_strategies_of_one_name_are_two_runs(tmp_path: Path) -> None:
    first, second = bot_file(tmp_path, "first"), bot_file(tmp_path, "second", tie="card")
    out = tmp_path / "run"
    simulate(Rules(), [Player.of(first), "simple"], 300, 1, workers=1, out=out)
    with pytest.raises(RunDirectoryError, match=r"holds a different run: python_players .*first\.py:Bot"):
        simulate(Rules(), [Player.of(second), "simple"], 300, 1, workers=1, out=out)
    simulate(Rules(), [Player.of(first), "simple"], 300, 1, workers=1, out=out)  # the same one resumes
    bot_file(tmp_path, "first", tie="card")  # the same file, other code: another run
    with pytest.raises(RunDirectoryError, match="source_sha256"):
        simulate(Rules(), [Player.of(first), "simple"], 300, 1, workers=1, out=out)


class Waits(LeastDeadwood):
    """Knocks only at ``limit`` deadwood or less: one class, a different player for each limit."""

    name = "waits"

    def __init__(self, limit: int = 10) -> None:
        self.limit = limit

    def knock(self, view: View) -> bool:
        return bool(view.deadwood <= self.limit)


def test_two_instances_built_differently_are_two_runs(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate(Rules(), [Waits(2), "simple"], 300, 1, workers=1, out=out, chunk_size=100)
    stored = json.loads((out / RUN_FILE).read_text())["python_players"][0]
    assert stored["spec"] is None and len(stored["arguments_sha256"]) == 64
    with pytest.raises(RunDirectoryError, match=r"holds a different run: python_players .*arguments_sha256"):
        simulate(Rules(), [Waits(8), "simple"], 300, 1, workers=1, out=out, chunk_size=100)
    # The same arguments, however written, are the same player: the run is read back.
    again = simulate(Rules(), [Waits(limit=2), "simple"], 300, 1, workers=1, out=out, chunk_size=100)
    assert again.equals(simulate(Rules(), [Waits(2), "simple"], 300, 1, workers=1))
    # Built with none: no arguments in the identity, as in runs stored before they were kept.
    simulate(Rules(), [Waits(), "simple"], 20, 1, workers=1, out=tmp_path / "plain")
    assert "arguments_sha256" not in json.loads((tmp_path / "plain" / RUN_FILE).read_text())["python_players"][0]
    with pytest.raises(TypeError, match=r"LeastDeadwood\(\) takes no arguments"):
        LeastDeadwood(3)  # type: ignore[call-arg]


def test_a_stored_run_of_a_file_strategy_replays(tmp_path: Path, test_seed: int) -> None:
    spec = bot_file(tmp_path, "replayed", "replayed")
    out = tmp_path / "run"
    records = simulate(Rules(), ["simple", Player.of(spec)], 50, test_seed, workers=1, out=out)
    for index in (0, 17, 49):
        hand = replay_hand(out, index)
        assert hand.players == ("simple", "replayed") and hand.points == records.loc[index, "points"]
    bot_file(tmp_path, "replayed", "replayed", tie="card")
    with pytest.raises(InputError, match=r"player 1 'replayed': the source of .*replayed\.py:Bot has changed"):
        replay_hand(out, 3)


def test_a_stored_run_of_an_object_says_why_it_cannot_replay(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate(Rules(), [LeastDeadwood(), "simple"], 20, 1, workers=1, out=out)
    with pytest.raises(InputError, match=r"player 0 'least' is a Python strategy \(.*LeastDeadwood\) that was "
                                         "handed over as an object"):
        replay_hand(out, 3)
    identity = (out / RUN_FILE).read_text()
    (out / RUN_FILE).write_text(identity.replace('"python_players"', '"old_python_players"'))
    with pytest.raises(InputError, match="player 0 'least' is no built-in strategy: a Python strategy"):
        replay_hand(out, 3)


# --- Ctrl-C during a decision (item 20) --------------------------------------------------------------

class Interrupted(LeastDeadwood):
    """Ctrl-C arrives while it thinks about its tenth discard."""

    def __init__(self) -> None:
        self.discards = 0

    def discard(self, view: View) -> int:
        self.discards += 1
        if self.discards == 10:
            raise KeyboardInterrupt
        return super().discard(view)


def test_ctrl_c_in_a_decision_is_ctrl_c(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt) as info:
        simulate(Rules(), [Interrupted(), "simple"], 50, 1, workers=1)
    assert not isinstance(info.value, RunInterrupted)
    with pytest.raises(KeyboardInterrupt):
        simulate_matches(Rules(), [Interrupted(), "simple"], 3, 1, workers=1)
    out = tmp_path / "run"
    with pytest.raises(RunInterrupted, match=rf"^0 of 1 chunks are kept in {out}; the same call again resumes"):
        simulate(Rules(), [Interrupted(), "simple"], 50, 1, workers=1, out=out)
