"""The one move type: every action number's Action, its kind, card and words, and GameState taking it."""
from __future__ import annotations

import pytest

from gincore import card_text
from gincore.errors import InputError
from ginsim import GameState, Rules, play_hand
from ginsim.gin.game.actions import BIG_GIN, KNOCK, NUM_ACTIONS, REFUSE, TAKE, Action, MoveKind, action_text


def test_every_number_decodes_as_the_layout_says() -> None:
    for number in range(NUM_ACTIONS):
        move = Action(number)
        assert int(move) == number and Action(move.number) == move
        if number < KNOCK:
            assert (move.kind, move.card, move.text()) == (MoveKind.DISCARD, number, f"discard {card_text(number)}")
            assert Action.discard(number) == move and not move.goes_out
        elif number < TAKE:
            assert (move.kind, move.card) == (MoveKind.KNOCK, number - KNOCK) and move.goes_out
            assert Action.knock(number - KNOCK) == move
            assert move.text(gin=True) == f"go gin with {card_text(number - KNOCK)}"
        else:
            assert move.card == -1
            assert move.kind is {TAKE: MoveKind.TAKE, REFUSE: MoveKind.REFUSE, BIG_GIN: MoveKind.BIG_GIN}[number]
        assert action_text(number) == str(move)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 1.0, True, "12", None])
def test_what_is_no_action_is_refused(bad: object) -> None:
    with pytest.raises(InputError, match="an action is a number from 0 to 106"):
        Action(bad)  # type: ignore[arg-type]
    assert action_text(bad).startswith("no action")  # type: ignore[arg-type]


@pytest.mark.parametrize("card", [-1, 52, 2.0])
def test_a_move_names_a_card(card: object) -> None:
    with pytest.raises(InputError, match="a card is a number from 0 to 51"):
        Action.knock(card)  # type: ignore[arg-type]


def test_a_state_takes_and_gives_actions(test_seed: int) -> None:
    played = play_hand(Rules(), "simple,greedy", seed=test_seed, index=3)
    state = GameState.deal(Rules(), seed=test_seed, index=3)
    for number in played.actions:
        assert Action(number) in state.moves()
        state.apply(Action(number))
    assert state.result is not None and state.result.points == played.points
