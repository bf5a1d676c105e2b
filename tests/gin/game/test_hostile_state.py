"""The open game state (``GameState``) as a careless or hostile caller meets it: a state made any other
way than ``deal``/``from_cards``, players and actions of the wrong kind or size, scores the native code
could overflow. Every mistake is one ``InputError`` line; nothing crashes the process (the cases that
once did run in a process of their own, so that a crash is a failure, not a lost test worker)."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import GameState, Rules
from ginsim.gin.game.actions import REFUSE, TAKE

pytestmark = pytest.mark.hostile  # what a careless or hostile user meets


def fresh(seed: int = 1) -> GameState:
    return GameState.deal(Rules(), seed=seed)


def in_a_process(code: str) -> str:
    """Run ``code`` in a Python process of its own: its stdout (a crash fails the test, naming the signal)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout


# --- a state nobody dealt (item 6) ----------------------------------------------------------------------

def test_a_state_built_by_calling_the_class_is_refused() -> None:
    out = in_a_process("""
        from gincore.errors import InputError
        from ginsim import GameState
        try:
            GameState()
        except InputError as error:
            print(error)
        """)
    assert "made by GameState.deal(...) or GameState.from_cards(...)" in out


@pytest.mark.parametrize("use", ["apply(104)", "view(0)", "play_out('simple,simple')", "determinize(0)",
                                 "legal_actions()", "clone()", "apply_many([104])"])
def test_a_state_holding_no_position_is_refused_not_a_crash(use: str) -> None:
    out = in_a_process(f"""
        from gincore.errors import InputError
        from ginsim import GameState
        state = GameState.__new__(GameState)
        try:
            state.{use}
        except InputError as error:
            print(error)
        """)
    assert "holds no position" in out


@pytest.mark.parametrize("players", ["search,reader", "reader,search", "search:8,simple"])
def test_play_out_at_the_highest_scores_allowed(players: str) -> None:
    rules = Rules()
    assert rules.target is not None
    top = rules.target - 1
    out = in_a_process(f"""
        from ginsim import GameState, Rules
        for seed in range(3):
            state = GameState.deal(Rules(), seed=seed, scores=({top}, {top}))
            print(state.play_out("{players}", seed=seed).outcome)
        """)
    assert len(out.split()) == 3


@pytest.mark.parametrize("make", [
    lambda: GameState.deal(Rules(), seed=1, scores=(2**31 - 1, 0)),
    lambda: GameState.deal(Rules(), seed=1, scores=(0, 100)),
    lambda: GameState.deal(Rules(target=None), seed=1, scores=(10**6 + 1, 0)),
])
def test_scores_out_of_the_game_are_refused(make: object) -> None:
    with pytest.raises(InputError, match=r"scores\[\d\] must be an integer from 0 to"):
        make()  # type: ignore[operator]


def test_from_cards_refuses_scores_above_the_target() -> None:
    state = fresh()
    with pytest.raises(InputError, match=r"scores\[1\] must be an integer from 0 to 99, got 150"):
        GameState.from_cards(Rules(), list(state.hands), list(state.pile), list(state.stock), state.dealer,
                             scores=(0, 150))


def test_the_native_deal_checks_scores_itself() -> None:
    from ginsim.gin.game.state import _native_rules

    with pytest.raises(InputError, match="a score must be from 0 to 99"):
        GameState.native_deal(_native_rules(Rules()), 1, 2, 0, -1, 2**31 - 1, 0, True)


# --- players and actions of the wrong kind (items 3, 4, 13, 15) ----------------------------------------

@pytest.mark.parametrize("player", [0.9, 1.9, 1.0, True, False, 2**70, -1, 2, "0", None])
def test_view_takes_a_seat_number_only(player: object) -> None:
    with pytest.raises(InputError, match=r"player must be 0 or 1, got"):
        fresh().view(player)  # type: ignore[arg-type]


@pytest.mark.parametrize("player", [0.0, 1.0, True, 2**70])
def test_determinize_takes_a_seat_number_only(player: object) -> None:
    with pytest.raises(InputError, match=r"player must be 0 or 1, got"):
        fresh().determinize(player)  # type: ignore[arg-type]


def test_numpy_seat_numbers_are_seats() -> None:
    state = fresh()
    assert state.view(np.int64(1)) == state.view(1)


@pytest.mark.parametrize("actions, message", [
    ([104.7], "move 0: an action is an integer from 0 to 106, got 104.7"),
    ([104.0], "move 0: an action is an integer from 0 to 106, got 104.0"),
    ([True], "move 0: an action is an integer from 0 to 106, got True"),
    (["104"], "move 0: an action is an integer from 0 to 106, got '104'"),
    ("104", "actions must be a sequence of action numbers, got '104'"),
    (104, "actions must be a sequence of action numbers, got 104"),
    ([REFUSE, 2**32 + 104], "move 1: action 4294967400 is not an action (0 to 106)"),
    ([2**70], "move 0: action 1180591620717411303424 is not an action"),
    (np.array([104, 2**32 + 104], dtype=np.int64), "move 1: action 4294967400 is not an action"),
    (np.array([104.0]), "actions must be a one-dimensional array of integers, got float64"),
    (np.array([[104]]), "actions must be a one-dimensional array of integers"),
])
def test_apply_many_takes_what_apply_takes(actions: object, message: str) -> None:
    state = fresh()
    before = (state.phase, state.player, state.hands, state.pile)
    with pytest.raises(InputError) as raised:
        state.apply_many(actions)  # type: ignore[arg-type]
    assert message in str(raised.value)
    assert (state.phase, state.player, state.hands, state.pile) == before, "no move is made"


def test_apply_many_plays_what_apply_plays() -> None:
    one, many = fresh(3), fresh(3)
    moves = [REFUSE, REFUSE]
    for move in moves:
        one.apply(move)
    many.apply_many(np.array(moves, dtype=np.uint8))
    assert (one.hands, one.pile, one.stock, one.phase) == (many.hands, many.pile, many.stock, many.phase)
    with pytest.raises(InputError, match=r"move 1: action \d+ is illegal"):
        fresh(3).apply_many([TAKE, TAKE])


# --- from_cards: lenient values refused (item 15) --------------------------------------------------------

def _cards(state: GameState) -> dict[str, object]:
    return {"hands": list(state.hands), "pile": list(state.pile), "stock": list(state.stock),
            "dealer": state.dealer}


@pytest.mark.parametrize("extra, message", [
    ({"player": 1.0}, "player must be 0 or 1, got 1.0"),
    ({"player": True}, "player must be 0 or 1, got True"),
    ({"dealer": 0.0}, "dealer must be 0 or 1, got 0.0"),
])
def test_from_cards_takes_seat_numbers_only(extra: dict[str, object], message: str) -> None:
    fields = {**_cards(fresh()), **extra}
    with pytest.raises(InputError, match=message):
        GameState.from_cards(Rules(), **fields)  # type: ignore[arg-type]


def test_from_cards_refuses_a_bool_in_discarded_by() -> None:
    state = fresh(5)
    state.apply(REFUSE)
    state.apply(REFUSE)  # both pass: the non-dealer draws from the stock
    state.apply(state.legal_actions()[0])  # and discards
    fields = _cards(state)
    owners = [-1, 1 - state.player]
    GameState.from_cards(Rules(), **fields, player=state.player, discarded_by=owners)  # type: ignore[arg-type]
    for wrong in ([-1, bool(owners[1])], [-1.0, owners[1]], "01"):
        with pytest.raises(InputError, match="discarded_by must"):
            GameState.from_cards(Rules(), **fields, player=state.player, discarded_by=wrong)  # type: ignore[arg-type]

