"""The opponent model from Python: the chance the opponent holds each card, from a player's view.

The model (``_odds.pxd``) is the one the native ``marjj`` and ``search`` players use. Its inputs are
only what the player has seen, so two deals that look the same to the player get the same odds.

>>> from gincore import parse_cards
>>> odds = opponent_odds(mine=parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KD"), pile=parse_cards("QD"),
...                      passed=parse_cards("QD"))
>>> round(float(odds.sum()), 6), float(odds[parse_cards("AS").bit_length() - 1])
(10.0, 0.0)
"""
from libc.stdint cimport uint64_t

import math
import operator

import numpy as np

from gincore.cards import check_mask
from gincore.errors import InputError

from gincore._bits cimport popcount64
from gincore._odds cimport MODEL_FEATURES, MODEL_WEIGHTS, Seen, model_features, model_odds, unknown_cards

WEIGHTS = tuple(MODEL_WEIGHTS[i] for i in range(MODEL_FEATURES))
"""The model's fitted log-odds weights, in the order of ``FEATURES``."""
FEATURES = ("discarded_rank", "discarded_near", "discarded_far", "refused_rank", "refused_near",
            "refused_far", "took_rank", "took_near", "took_far", "discarded_itself")
"""What the model counts for an unknown card: the opponent's discards, refused face-up cards and
taken face-up cards of the same rank (``rank``), next to it in its suit (``near``) or two ranks away
(``far``); and whether the opponent discarded the card itself."""


cdef Seen _seen_of(uint64_t mine, uint64_t pile, uint64_t holds, uint64_t took, uint64_t discarded,
                   uint64_t passed, int size):
    cdef Seen seen
    seen.mine = mine
    seen.pile = pile
    seen.holds = holds
    seen.took = took | holds
    seen.discarded = discarded
    seen.passed = passed
    seen.size = size
    return seen


def _checked_size(size, uint64_t holds, uint64_t unknown):
    """``size`` as an int if the view allows it: the face-up cards the opponent holds and at most
    every card the player has not seen."""
    if isinstance(size, (bool, np.bool_)) or not hasattr(size, "__index__") or not 0 <= operator.index(size) <= 52:
        raise InputError(f"size must be a whole number of cards from 0 to 52, got {size!r}")
    size = operator.index(size)
    held, free = popcount64(holds), popcount64(unknown)
    if not held <= size <= held + free:
        raise InputError(f"size {size} does not fit the view: the opponent holds {held} face-up cards "
                         f"and {free} cards are unknown to the player")
    return size


def _checked_weights(weights):
    """``weights`` as a tuple of MODEL_FEATURES finite floats (``WEIGHTS`` for None)."""
    if weights is None:
        return WEIGHTS
    try:
        if isinstance(weights, (str, bytes)):
            raise TypeError
        chosen = tuple(float(w) for w in weights)
    except (TypeError, ValueError):
        raise InputError(f"weights must be a sequence of {MODEL_FEATURES} numbers, got {weights!r}") from None
    if len(chosen) != MODEL_FEATURES:
        raise InputError(f"weights must hold {MODEL_FEATURES} numbers, got {len(chosen)}")
    if not all(math.isfinite(w) for w in chosen):
        raise InputError(f"weights must be finite numbers, got {chosen!r}")
    return chosen


def opponent_odds(mine, pile=0, holds=0, took=0, discarded=0, passed=0, size=10, weights=None):
    """The chance the opponent holds each of the 52 cards (a float array), from a player's view.

    ``mine``: the player's hand; ``pile``: the face-up discard pile; ``holds``: the face-up cards
    the opponent took and still holds; ``took``: every face-up card it took; ``discarded``: its
    face-up discards; ``passed``: the face-up cards it refused (all card masks); ``size``: its hand
    size (from the cards it holds face up to those plus every card the player has not seen).
    ``weights`` replaces the fitted ``WEIGHTS`` (for calibration studies).
    """
    masks = {"mine": mine, "pile": pile, "holds": holds, "took": took, "discarded": discarded,
             "passed": passed}
    for name, mask in masks.items():
        masks[name] = check_mask(mask, name)
    mine, pile, holds = masks["mine"], masks["pile"], masks["holds"]
    if mine & (pile | holds) or pile & holds:
        raise InputError("mine, pile and holds must not share cards")
    cdef double table[MODEL_FEATURES]
    cdef double odds[52]
    cdef int i
    cdef Seen seen = _seen_of(mine, pile, holds, masks["took"], masks["discarded"], masks["passed"], 0)
    seen.size = _checked_size(size, seen.holds, unknown_cards(&seen))
    chosen = _checked_weights(weights)
    for i in range(MODEL_FEATURES):
        table[i] = chosen[i]
    model_odds(&seen, table, odds)
    return np.array([odds[i] for i in range(52)])


def card_features(card, mine, pile=0, holds=0, took=0, discarded=0, passed=0):
    """The model's ``FEATURES`` of one card from a player's view (masks as in ``opponent_odds``)."""
    cdef int features[MODEL_FEATURES]
    if isinstance(card, (bool, np.bool_)) or not hasattr(card, "__index__") or not 0 <= operator.index(card) <= 51:
        raise InputError(f"card must be an index 0..51, got {card!r}")
    masks = [check_mask(mask, name) for name, mask in
             (("mine", mine), ("pile", pile), ("holds", holds), ("took", took), ("discarded", discarded),
              ("passed", passed))]
    cdef Seen seen = _seen_of(masks[0], masks[1], masks[2], masks[3], masks[4], masks[5], 10)
    model_features(&seen, operator.index(card), features)
    return tuple(features[i] for i in range(MODEL_FEATURES))
