"""gincore: exact, native Gin Rummy hand arithmetic on 52-bit card masks.

Card ``i = suit * 13 + rank`` (suits C D H S = 0..3, ranks A..K = 0..12); a hand is an ``int`` with
bit ``i`` set for card ``i``.

>>> from gincore import parse_cards, deadwood
>>> deadwood(parse_cards("7H 8H 9H 9C 9S 9D 2S 3S 4S KD"))
10
"""
from __future__ import annotations

from gincore._engine import NO_CARD_INDEX as NO_CARD
from gincore._engine import NO_PLAYER_INDEX as NO_PLAYER
from gincore._melds import (
    arrangements,
    best_discards_many,
    deadwood,
    deadwood_after_discard,
    deadwood_many,
    layoff,
    layoff_many,
)
from gincore.cards import (
    FULL_DECK,
    NUM_CARDS,
    RANKS,
    SUITS,
    card,
    card_text,
    card_value,
    cards_of,
    check_mask,
    format_cards,
    parse_card,
    parse_cards,
)
from gincore.errors import InputError

__all__ = [
    "FULL_DECK",
    "InputError",
    "NO_CARD",
    "NO_PLAYER",
    "NUM_CARDS",
    "RANKS",
    "SUITS",
    "arrangements",
    "best_discards_many",
    "card",
    "card_text",
    "card_value",
    "cards_of",
    "check_mask",
    "deadwood",
    "deadwood_after_discard",
    "deadwood_many",
    "format_cards",
    "layoff",
    "layoff_many",
    "parse_card",
    "parse_cards",
]


def _load_belief_from_environment() -> None:  # experiment: GINCORE_BELIEF names an npz of w0, b0, w1, b1...
    import os
    path = os.environ.get("GINCORE_BELIEF")
    if path:
        import numpy as np

        from gincore._engine import load_belief
        data = np.load(path)
        load_belief([(data[f"w{i}"], data[f"b{i}"]) for i in range(len(data.files) // 2)],
                    os.environ.get("GINCORE_BELIEF_FORM") == "sigmoid")


_load_belief_from_environment()
