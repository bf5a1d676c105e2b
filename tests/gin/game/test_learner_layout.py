"""The learner observation layout: the compact values, then three planes worked out from the player's hand,
checked against the solver called from Python on random positions of every preset (the information boundary
is tested with the other layouts' in test_env.py)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gincore
from gincore.errors import InputError
from ginsim import PRESETS, Rules
from ginsim.gin import GameState
from ginsim.gin.game.policy.observations import (
    describe,
    field_slots,
    layout_fields,
    observation,
    observation_bounds,
    observation_size,
    observe,
)
from ginsim.gin.game.strategies import in_some_meld

FULL = (1 << 52) - 1


def _bits(cards: int) -> list[int]:
    return [card for card in range(52) if cards >> card & 1]


def expected_planes(state: GameState, player: int) -> np.ndarray:
    """The three learner planes as their documentation defines them, from the player's view alone."""
    view = state.view(player)
    hand = view.hand
    top = view.top
    pile = sum(1 << card for card in view.discard_pile)
    unseen = FULL & ~(hand | pile | view.opponent_took)
    planes = np.zeros((3, 52), np.int64)
    held = _bits(hand)
    if len(held) == 11:
        for card in held:
            planes[0, card] = gincore.deadwood(hand & ~(1 << card))
    elif len(held) == 10 and top >= 0:
        planes[0, top] = min(gincore.deadwood((hand | 1 << top) & ~(1 << card)) for card in held)
    for card in held:
        planes[1, card] = in_some_meld(hand, card)
    for card in _bits(unseen | (1 << top if top >= 0 else 0)):
        planes[2, card] = in_some_meld(hand | 1 << card, card)
    return planes.reshape(-1)


def _position(preset: str, seed: int, moves: int) -> GameState:
    """A position after ``moves`` random legal moves of a hand of ``preset``."""
    rng = np.random.default_rng(seed)
    state = GameState.deal(Rules.preset(preset), seed=seed)
    for _ in range(moves):
        if state.done:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


@settings(max_examples=150, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 90))
def test_learner_planes_are_the_solvers(preset: str, seed: int, moves: int) -> None:
    state = _position(preset, seed, moves)
    for player in (0, 1):
        seen = observation(state, player, "learner")
        np.testing.assert_array_equal(seen[:480], observation(state, player, "compact"))
        np.testing.assert_array_equal(seen[480:], expected_planes(state, player))
        low, high = observation_bounds("learner")
        assert (low <= seen).all() and (seen <= high).all()


def test_discard_decisions_show_each_discard() -> None:
    """In a discard decision every held card has the deadwood its discard leaves; the least of them is the
    hand's best discard."""
    state = GameState.deal(Rules(), seed=3)
    while state.phase.name != "DISCARD":
        state.apply(state.legal_actions()[-1])
    seen = observe(state, state.player, "learner")
    fields = describe(seen)
    hand = state.hands[state.player]
    held = _bits(hand)
    assert len(held) == 11
    assert min(int(fields["deadwood"][card]) for card in held) == min(gincore.deadwood_after_discard(hand).values())


def test_learner_fields() -> None:
    assert observation_size("learner") == 636
    assert [name for name, _, _ in layout_fields("learner")][-3:] == ["deadwood", "in_meld", "melds_with"]
    assert field_slots("melds_with", "learner") == slice(584, 636)
    assert layout_fields("learner")[:-3] == layout_fields("compact")
    with pytest.raises(InputError, match="the compact layout has no field 'deadwood'"):
        field_slots("deadwood")
    with pytest.raises(InputError, match="describe reads compact"):
        describe({"observation": np.zeros(644, np.int8), "action_mask": np.zeros(107, np.int8)})
    with pytest.raises(InputError, match="unknown observation layout 'learned'"):
        observation(GameState.deal(Rules(), seed=1), 0, "learned")
