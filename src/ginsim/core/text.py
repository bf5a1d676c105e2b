"""Cards, melds and decks as text: the one renderer behind hand analysis, replays, traces and play.

Cards are written as in docs/rules.md#cards-and-values (rank then suit letter, ``TH`` for the ten of hearts), or with
suit symbols on a terminal that shows them. Melds are written in brackets, lowest rank first, and the
deadwood after them by rank.

>>> from gincore import parse_cards
>>> hand = parse_cards("7H 8H 9H 9C 9S 9D 2S 3S 4S KD")
>>> hand_text(hand)
'[2S 3S 4S] [7H 8H 9H] [9C 9D 9S] KD'
>>> hand_text(hand, symbols=True)
'[2♠ 3♠ 4♠] [7♥ 8♥ 9♥] [9♣ 9♦ 9♠] K♦'
"""
from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

import gincore
from gincore.errors import InputError

__all__ = [
    "SUIT_SYMBOLS",
    "by_rank",
    "card",
    "cards",
    "hand_text",
    "melds_text",
    "parse_card_list",
    "parse_deck",
    "subject",
    "symbols_supported",
    "with_symbols",
]

SUIT_SYMBOLS: Final = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
"""The symbol of each suit letter."""
LETTER_OF_SYMBOL: Final = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
_CARD_TEXT: Final = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


def card(index: int, symbols: bool = False) -> str:
    """One card: ``7H``, or ``7♥`` with ``symbols``.

    >>> card(45), card(45, symbols=True)
    ('7S', '7♠')
    """
    text = gincore.card_text(index)
    return text[:-1] + SUIT_SYMBOLS[text[-1]] if symbols else text


def cards(listed: int | Iterable[int], symbols: bool = False) -> str:
    """Cards separated by spaces: a mask in index order, or a sequence of indices in its own order.

    >>> cards(gincore.parse_cards("KD 2C")), cards([25, 1])
    ('2C KD', 'KD 2C')
    """
    indices = gincore.cards_of(listed) if isinstance(listed, int) else listed
    return " ".join(card(index, symbols) for index in indices)


def by_rank(listed: int | Iterable[int]) -> list[int]:
    """Cards (a mask or indices) ordered by rank, then suit.

    >>> cards(by_rank(gincore.parse_cards("KC 2D 2C")))
    '2C 2D KC'
    """
    indices = gincore.cards_of(listed) if isinstance(listed, int) else listed
    return sorted(indices, key=lambda index: (index % 13, index // 13))


def melds_text(melds: Sequence[int], hand: int, symbols: bool = False) -> str:
    """Melds in brackets, lowest rank first, then the rest of ``hand`` by rank; ``nothing`` for no cards.

    >>> melds_text([gincore.parse_cards("9C 9D 9S")], gincore.parse_cards("9C 9D 9S KD 2H"))
    '[9C 9D 9S] 2H KD'
    """
    ordered = sorted(melds, key=lambda meld: (min(index % 13 for index in gincore.cards_of(meld)), meld))
    parts = [f"[{cards(meld, symbols)}]" for meld in ordered]
    parts += [card(index, symbols) for index in by_rank(hand & ~sum(melds))]
    return " ".join(parts) or "nothing"


def hand_text(hand: int, symbols: bool = False) -> str:
    """A hand arranged into the melds of a least-deadwood arrangement, then its deadwood.

    >>> hand_text(gincore.parse_cards("AC 2C 3C KD")), hand_text(0)
    ('[AC 2C 3C] KD', 'nothing')
    """
    return melds_text(gincore.arrangements(hand)[0], hand, symbols)


def subject(name: str, verb: str) -> str:
    """``name`` and a ``verb`` given in the third person, agreeing with "you" when that is the name.

    >>> subject("greedy", "scores"), subject("you", "scores")
    ('greedy scores', 'you score')
    """
    return f"you {verb.removesuffix('s')}" if name == "you" else f"{name} {verb}"


def with_symbols(text: str) -> str:
    """``text`` with every card written with a suit symbol.

    >>> with_symbols("player 0 (simple) discards TD; AS and 7H")
    'player 0 (simple) discards T♦; A♠ and 7♥'
    """
    return _CARD_TEXT.sub(lambda match: match[1] + SUIT_SYMBOLS[match[2]], text)


def symbols_supported(stream: Any) -> bool:
    """Whether ``stream`` is a terminal whose encoding can show the four suit symbols."""
    try:
        if not stream.isatty():
            return False
        "".join(SUIT_SYMBOLS.values()).encode(stream.encoding or "ascii")
    except (AttributeError, LookupError, UnicodeEncodeError, ValueError, io.UnsupportedOperation):
        return False
    return True


def parse_card_list(listed: str) -> list[int]:
    """Card indices in the order written (spaces or commas between cards).

    >>> parse_card_list("KS, AC 2C")
    [51, 0, 1]
    """
    return [gincore.parse_cards(token).bit_length() - 1 for token in listed.replace(",", " ").split()]


def parse_deck(deck: Sequence[int] | str) -> list[int]:
    """A whole deck, top first, from card text or card indices; each of the 52 cards exactly once.

    >>> parse_deck(gincore.format_cards(gincore.FULL_DECK))[:3]
    [0, 1, 2]
    >>> parse_deck("AC 2C")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: deck must hold each of the 52 cards once, top first (missing 3C 4C 5C ... KS)
    """
    order = parse_card_list(deck) if isinstance(deck, str) else [int(index) for index in deck]
    if sorted(order) != list(range(52)):
        missing = sorted(set(range(52)) - set(order))
        detail = (f"missing {gincore.format_cards(sum(1 << index for index in missing))}" if missing
                  else f"{len(order)} cards with repeats")
        raise InputError(f"deck must hold each of the 52 cards once, top first ({detail})")
    return order
