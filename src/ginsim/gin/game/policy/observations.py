"""Observations for learning agents: what one player may see of a hand, as a vector of small integers.

Every observation is written natively from the player's view alone — its own hand and the public
record of the hand — never from the opponent's hand, the stock or the knocker's face-down discard;
the same code writes the vector environment's arrays. Three layouts, all ``int8``:

``compact`` (480 values): nine planes of 52 card slots (card ``c`` at slot ``plane * 52 + c``, card
index ``suit * 13 + rank``, suits C D H S), then twelve scalars:

=====================  =======  ======================================================================
field                  slots    value
=====================  =======  ======================================================================
``hand``               0-51     1 for each card the player holds
``pile``               52-103   the discard pile in order: 1 for the face-up card, 2 for the card under
                                it, and so on; 0 for a card not in the pile
``face_up``            104-155  1 for the face-up card (the top of the pile)
``pile_mine``          156-207  1 for each pile card the player discarded
``pile_theirs``        208-259  1 for each pile card the opponent discarded (the upcard is neither's)
``opponent_holds``     260-311  1 for each face-up card the opponent took and still holds
``opponent_refused``   312-363  1 for each face-up card the opponent refused (the upcard it passed, the
                                pile tops it drew from the stock over)
``drawn``              364-415  1 for the card the player just drew (in its discard decision only)
``unseen``             416-467  1 for each card whose place the player does not know: neither in its
                                hand, nor in the pile, nor known in the opponent's hand
``phase``              468-471  one of four set: upcard offer, draw, discard, hand over
``to_move``            472      1 when the decision is the player's
``dealer``             473      1 when the player dealt
``drawn_from_pile``    474      1 when the card just drawn came from the pile (it may not be discarded)
``stock``              475      cards left in the stock
``knock_limit``        476      the hand's knock limit (Oklahoma: set by the upcard)
``multiplier``         477      the hand's score multiplier (2 under a spade upcard in Oklahoma)
``scores``             478-479  match scores, the player's then the opponent's, capped at 127 (0 when
                                episodes are single hands)
=====================  =======  ======================================================================

``openspiel`` (644 values): the layout of OpenSpiel's ``gin_rummy`` observation tensor, for networks
built for it — the observing player (2), its hand in its row of two (2 x 52), the player to move (2),
the knock limit as a thermometer (10), the face-up card one may draw (52), the rest of the discard pile
(52), the stock size as a thermometer (52) and the melds laid (2 x 185), in OpenSpiel's card order
(suits spades, clubs, diamonds, hearts) and seats (player 0 is the non-dealer, who moves first). Melds
are not moves here (the knocker's arrangement and the lay-offs are automatic and optimal), so the melds
block is always 0; from the draw on, OpenSpiel's "upcard" is empty and the whole pile is its discard
pile, as in its own game.

``learner`` (636 values): the compact layout's 480 values, then three planes of 52 worked out from the
player's hand, the pile and the cards the opponent is known to hold (features a network would otherwise
have to learn to compute):

=====================  =======  ======================================================================
field                  slots    value
=====================  =======  ======================================================================
``deadwood``           480-531  holding 11 cards (its discard decision): for each card held, the least
                                deadwood of the hand without it (what discarding it leaves). Holding 10
                                cards: at the face-up card's slot, the least deadwood after taking it
                                and the best discard of another card; 0 elsewhere (and 0 for every card
                                not held). At most 98
``in_meld``            532-583  1 for each held card that is part of some meld of the hand
``melds_with``         584-635  1 for each card in the ``unseen`` plane or face up that would be part of
                                a meld of the hand with it added
=====================  =======  ======================================================================

>>> from ginsim import Rules
>>> from ginsim.gin import GameState
>>> state = GameState.deal(Rules(), seed=1)
>>> seen = observation(state, player=state.player)
>>> seen.dtype, seen.shape, int(seen[field_slots("hand")].sum()), int(seen[field_slots("stock")][0])
(dtype('int8'), (480,), 10, 31)
>>> action_mask(state, state.player).nonzero()[0].tolist(), action_mask(state, 1 - state.player).any()
([104, 105], np.False_)
"""
from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gincore.errors import InputError
from ginsim.gin.game.actions import NUM_ACTIONS
from ginsim.gin.game.native import (
    COMPACT_LAYOUT,
    LAYOUT_NAMES,
    LEARNER_LAYOUT,
    LEARNER_MOST,
    OBSERVATION_SIZES,
    OPENSPIEL_LAYOUT,
    NativeState,
    observe_state,
    observe_view,
)
from ginsim.gin.game.state import Phase
from ginsim.gin.game.strategies import View

__all__ = ["LAYOUTS", "Observation", "action_mask", "describe", "field_slots", "layout_fields", "layout_index",
           "observation", "observation_bounds", "observation_size", "observe", "observe_view_of"]

LAYOUTS: Final = LAYOUT_NAMES
"""The observation layouts, by name."""

Observation = dict[str, npt.NDArray[np.int8]]
"""An observation with its mask: ``{"observation": int8 vector, "action_mask": int8 vector of 107}``."""


def layout_index(layout: str) -> int:
    """The native number of a layout; ``InputError`` for an unknown name."""
    if layout not in LAYOUTS:
        raise InputError(f"unknown observation layout {layout!r}; layouts: {', '.join(LAYOUTS)}")
    return LAYOUTS.index(layout)


def observation_size(layout: str) -> int:
    """The number of values of an observation in ``layout``.

    >>> observation_size("compact"), observation_size("openspiel"), observation_size("learner")
    (480, 644, 636)
    """
    size: int = OBSERVATION_SIZES[layout_index(layout)]
    return size


def layout_fields(layout: str = "compact") -> tuple[tuple[str, int, int], ...]:
    """The fields of a layout in order: (name, first slot, number of slots).

    >>> layout_fields()[:2]
    (('hand', 0, 52), ('pile', 52, 52))
    """
    every = (COMPACT_LAYOUT, OPENSPIEL_LAYOUT, LEARNER_LAYOUT)
    fields: tuple[tuple[str, int, int], ...] = every[layout_index(layout)]
    return fields


def field_slots(name: str, layout: str = "compact") -> slice:
    """The slots of one field of a layout, as a slice of the observation.

    >>> field_slots("phase")
    slice(468, 472, None)
    """
    for field, first, count in layout_fields(layout):
        if field == name:
            return slice(first, first + count)
    raise InputError(f"the {layout} layout has no field {name!r}")


_HIGH: Final = {"pile": 52, "stock": 52, "knock_limit": 10, "multiplier": 2, "scores": 127,
                 "deadwood": LEARNER_MOST}


def observation_bounds(layout: str = "compact") -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """The lowest and highest value of each slot (for a ``Box`` space): 0 and 1 but for the compact
    layout's pile order (52), stock (52), knock limit (10), multiplier (2) and scores (127), in the
    compact and learner layouts, and the learner layout's deadwood (98).

    >>> int(observation_bounds("learner")[1][field_slots("deadwood", "learner")].max())
    98
    """
    low = np.zeros(observation_size(layout), np.int8)
    high = np.ones(observation_size(layout), np.int8)
    names = {name for name, _, _ in layout_fields(layout)}
    if layout != "openspiel":
        for name, value in _HIGH.items():
            if name in names:
                high[field_slots(name, layout)] = value
    return low, high


def _buffers(layout: str) -> Observation:
    return {"observation": np.zeros(observation_size(layout), np.int8),
            "action_mask": np.zeros(NUM_ACTIONS, np.int8)}


def observe(state: NativeState, player: int, layout: str = "compact") -> Observation:
    """What ``player`` sees of the position, and its legal actions (none when the decision is not its own)."""
    seen = _buffers(layout)
    observe_state(state, player, layout_index(layout), seen["observation"], seen["action_mask"])
    return seen


def observation(state: NativeState, player: int, layout: str = "compact") -> npt.NDArray[np.int8]:
    """What ``player`` sees of the position (a ``GameState``), in ``layout``."""
    return observe(state, player, layout)["observation"]


def action_mask(state: NativeState, player: int) -> npt.NDArray[np.int8]:
    """1 for each legal action of ``player`` (all 0 when the decision is not its own)."""
    return observe(state, player)["action_mask"]


def observe_view_of(view: View, phase: Phase, big_gin: bool = False, layout: str = "compact") -> Observation:
    """The observation and mask of a strategy's decision from its ``View`` alone: ``phase`` is the kind
    of decision it is asked (the View does not say), ``big_gin`` whether going big gin is legal. The
    same values as :func:`observe` gives for the position the view was taken from."""
    seen = _buffers(layout)
    observe_view(view, int(phase), big_gin, layout_index(layout), seen["observation"], seen["action_mask"])
    return seen


def describe(seen: Observation) -> dict[str, Any]:
    """A compact or learner observation's fields by name (each an array), for reading one by eye.

    >>> from ginsim import Rules
    >>> from ginsim.gin import GameState
    >>> describe(observe(GameState.deal(Rules(), seed=1), 0))["knock_limit"].tolist()
    [10]
    >>> list(describe(observe(GameState.deal(Rules(), seed=1), 0, "learner")))[-3:]
    ['deadwood', 'in_meld', 'melds_with']
    """
    vector = seen["observation"]
    for layout in ("compact", "learner"):
        if len(vector) == observation_size(layout):
            return {name: vector[first:first + count] for name, first, count in layout_fields(layout)}
    raise InputError(f"describe reads compact ({observation_size('compact')} values) or learner "
                     f"({observation_size('learner')} values) observations, not {len(vector)} values")
