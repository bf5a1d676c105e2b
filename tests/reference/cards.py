"""Cards and melds as docs/rules.md#cards-and-values and docs/rules.md#melds-and-deadwood define them,
shared by the reference implementations (no gincore).

Card index = suit * 13 + rank (suits C D H S, ranks A..K, ace low); a hand or a meld is an ``int`` bit
mask. Card text is rank then suit, case-insensitive, ``10`` or ``T`` for tens.
"""

from __future__ import annotations

SUITS = "CDHS"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FULL_DECK = (1 << 52) - 1
VALUES = tuple(min(index % 13 + 1, 10) for index in range(52))  # A = 1, 2..10 face value, J/Q/K = 10


def cards_of(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    return mask.bit_count()


def card_value(card: int) -> int:
    return VALUES[card]


def mask_value(mask: int) -> int:
    """Total deadwood value of the cards of ``mask``."""
    return sum(VALUES[index] for index in cards_of(mask))


def card(text: str) -> int:
    """Index of one card, e.g. ``"10h"``, ``"TD"``, ``"as"``."""
    token = text.strip().upper()
    rank_text, suit_text = token[:-1], token[-1:]
    rank_text = "10" if rank_text == "T" else rank_text
    if rank_text not in RANK_NAMES or not suit_text or suit_text not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return SUITS.index(suit_text) * 13 + RANK_NAMES.index(rank_text)


def parse(cards_text: str) -> list[int]:
    """Card indices of whitespace-separated card text, in the order written."""
    out = [card(token) for token in cards_text.split()]
    if len(set(out)) != len(out):
        raise ValueError(f"a card is written twice in {cards_text!r}")
    return out


def mask_of(cards_text: str) -> int:
    """Mask of the cards written in ``cards_text``."""
    return sum(1 << index for index in parse(cards_text))


def card_text(index: int) -> str:
    """One card as text (``-`` for none, an index below 0)."""
    return "-" if index < 0 else RANK_NAMES[index % 13] + SUITS[index // 13]


def text(mask: int) -> str:
    """Readable form of a hand for failure messages (index order)."""
    return " ".join(card_text(index) for index in cards_of(mask)) or "(none)"


def is_set(meld: int) -> bool:
    members = cards_of(meld)
    return len(members) in (3, 4) and len({index % 13 for index in members}) == 1


def is_run(meld: int) -> bool:
    members = cards_of(meld)
    if len(members) < 3 or len({index // 13 for index in members}) != 1:
        return False
    return members[-1] - members[0] == len(members) - 1  # one suit, so no wrap past the king


def is_meld(meld: int) -> bool:
    return is_set(meld) or is_run(meld)
