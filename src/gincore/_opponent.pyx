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

import numpy as np

from gincore.cards import check_mask
from gincore.errors import InputError

from gincore._odds cimport MODEL_FEATURES, MODEL_WEIGHTS, Seen, model_features, model_odds

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


def opponent_odds(mine, pile=0, holds=0, took=0, discarded=0, passed=0, size=10, weights=None):
    """The chance the opponent holds each of the 52 cards (a float array), from a player's view.

    ``mine``: the player's hand; ``pile``: the face-up discard pile; ``holds``: the face-up cards
    the opponent took and still holds; ``took``: every face-up card it took; ``discarded``: its
    face-up discards; ``passed``: the face-up cards it refused (all card masks); ``size``: its hand
    size. ``weights`` replaces the fitted ``WEIGHTS`` (for calibration studies).
    """
    masks = {"mine": mine, "pile": pile, "holds": holds, "took": took, "discarded": discarded,
             "passed": passed}
    for name, mask in masks.items():
        check_mask(mask, name)
    if mine & (pile | holds) or pile & holds:
        raise InputError("mine, pile and holds must not share cards")
    if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= 52:
        raise InputError(f"size must be a whole number of cards from 0 to 52, got {size!r}")
    cdef double table[MODEL_FEATURES]
    cdef double odds[52]
    cdef int i
    chosen = WEIGHTS if weights is None else tuple(float(w) for w in weights)
    if len(chosen) != MODEL_FEATURES:
        raise InputError(f"weights must hold {MODEL_FEATURES} numbers, got {len(chosen)}")
    for i in range(MODEL_FEATURES):
        table[i] = chosen[i]
    cdef Seen seen = _seen_of(mine, pile, holds, took, discarded, passed, size)
    model_odds(&seen, table, odds)
    return np.array([odds[i] for i in range(52)])


def card_features(int card, mine, pile=0, holds=0, took=0, discarded=0, passed=0):
    """The model's ``FEATURES`` of one card from a player's view (masks as in ``opponent_odds``)."""
    cdef int features[MODEL_FEATURES]
    cdef Seen seen = _seen_of(mine, pile, holds, took, discarded, passed, 10)
    if not 0 <= card <= 51:
        raise InputError(f"card must be an index 0..51, got {card!r}")
    model_features(&seen, card, features)
    return tuple(features[i] for i in range(MODEL_FEATURES))
