"""Cards and hands as integers: card ``i = suit * 13 + rank``, a hand is a mask with bit ``i`` set.

>>> from gincore import parse_cards, format_cards, card_value
>>> hand = parse_cards("AS 10h td qc")
>>> format_cards(hand)
'QC TD TH AS'
>>> card_value(parse_cards("QC").bit_length() - 1)
10
"""
from __future__ import annotations

import operator
from typing import Final, SupportsIndex

import numpy as np

from gincore.errors import InputError

__all__ = [
    "SUITS",
    "RANKS",
    "NUM_CARDS",
    "FULL_DECK",
    "card",
    "card_value",
    "card_text",
    "parse_card",
    "parse_cards",
    "format_cards",
    "cards_of",
    "check_mask",
]

SUITS: Final = "CDHS"
"""Suit letters in index order: clubs 0, diamonds 1, hearts 2, spades 3."""
RANKS: Final = "A23456789TJQK"
"""Rank letters in index order: ace 0 (always low) … king 12."""
NUM_CARDS: Final = 52
FULL_DECK: Final = (1 << NUM_CARDS) - 1
"""The mask of all 52 cards."""

_RANK_OF_TOKEN: Final = {letter: index for index, letter in enumerate(RANKS)} | {"10": 9}
_SUIT_OF_LETTER: Final = {letter: index for index, letter in enumerate(SUITS)}


def card(rank: int, suit: int) -> int:
    """Card index of a rank (0 = ace … 12 = king) and a suit (0 = clubs … 3 = spades).

    >>> card(0, 3)   # ace of spades
    39
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise InputError(f"no card with rank {rank} and suit {suit}: rank is 0..12, suit 0..3")
    return suit * 13 + rank


def _check_card(index: int) -> None:
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"a card index must be an int, got {type(index).__name__}")
    if not 0 <= index < NUM_CARDS:
        raise InputError(f"card index {index} is out of range 0..51")


def card_value(index: int) -> int:
    """Deadwood value of a card: ace 1, two to ten face value, pictures 10.

    >>> card_value(card(11, 0))  # queen of clubs
    10
    """
    _check_card(index)
    return min(index % 13 + 1, 10)


def card_text(index: int) -> str:
    """Canonical text of one card: rank letter (``T`` for ten) then suit letter.

    >>> card_text(39)
    'AS'
    """
    _check_card(index)
    return RANKS[index % 13] + SUITS[index // 13]


def check_mask(mask: SupportsIndex, name: str = "hand") -> int:
    """Return ``mask`` as an ``int`` if it is a valid hand mask (bits 0..51 only), else raise.

    Python and numpy integers are accepted; floats, bools and other types raise ``TypeError``.

    >>> check_mask(7)
    7
    """
    if isinstance(mask, (bool, np.bool_)) or not hasattr(mask, "__index__"):
        raise TypeError(f"{name} must be an int card mask, got {type(mask).__name__}")
    value = operator.index(mask)
    if value < 0:
        raise InputError(f"{name} mask {value} is negative")
    if value >> NUM_CARDS:
        raise InputError(f"{name} mask {value:#x} has bits above 51 (cards are 0..51)")
    return value


def parse_cards(text: str) -> int:
    """Hand mask from card text such as ``"AS 10H TD QC 7d"``.

    Ranks are ``A 2..9 10 T J Q K``, suits ``C D H S``, case-insensitive; cards are separated by
    white space or commas. An unknown token or a card given twice raises ``InputError``.

    >>> parse_cards("2C 3C 4C") == 0b111 << 1
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"card text must be a str, got {type(text).__name__}")
    mask = 0
    for token in text.replace(",", " ").split():
        upper = token.upper()
        rank = _RANK_OF_TOKEN.get(upper[:-1])
        suit = _SUIT_OF_LETTER.get(upper[-1:])
        if rank is None or suit is None:
            raise InputError(
                f"unknown card {token!r}: write rank (A 2-9 10 T J Q K) then suit (C D H S), e.g. 'TH'"
            )
        bit = 1 << (suit * 13 + rank)
        if mask & bit:
            raise InputError(f"duplicate card {card_text(suit * 13 + rank)}")
        mask |= bit
    return mask


def parse_card(text: str, what: str | None = None) -> int:
    """The index of the one card ``text`` names (``"TH"``, ``" 10h "``): the one parser of a single card.
    Anything else, no card or several included, raises ``InputError`` (naming ``what`` it was, if given).

    >>> parse_card("2C"), parse_card(" ks ")
    (1, 51)
    >>> parse_card("2C 3C")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: name one card, got '2C 3C'
    """
    mask = parse_cards(text)
    if mask == 0 or mask & (mask - 1):
        raise InputError(f"{what} must be one card, got {text!r}" if what else f"name one card, got {text!r}")
    return mask.bit_length() - 1


def cards_of(mask: SupportsIndex) -> list[int]:
    """Card indices of a mask, ascending.

    >>> cards_of(0b1010)
    [1, 3]
    """
    value = check_mask(mask)
    return [index for index in range(NUM_CARDS) if value >> index & 1]


def format_cards(mask: SupportsIndex) -> str:
    """Canonical text of a hand: its cards in index order, separated by spaces.

    >>> format_cards(parse_cards("kd 2c"))
    '2C KD'
    """
    return " ".join(card_text(index) for index in cards_of(mask))
