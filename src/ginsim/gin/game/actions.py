"""The numbered moves of a Gin hand, as ``GameState`` and the environments take them.

=========  ==========================================================================
action     move
=========  ==========================================================================
0-51       discard card ``c`` face up (card index ``suit * 13 + rank``); play goes on
52-103     knock with card ``c = action - 52``, discarded face down (gin at deadwood 0)
104        take the face-up card: the upcard in the offer, else the top of the pile
105        refuse it: pass in the upcard offer, draw from the stock otherwise
106        big gin: go out with all eleven cards melded (when the rules allow it)
=========  ==========================================================================

When both players pass the upcard, the non-dealer's draw from the stock follows by itself. The
knocker's melds and the defender's lay-offs are not moves: the engine shows and lays off optimally.

>>> action_text(KNOCK + 12), action_text(TAKE), actions_of([("pass_upcard", 1, 7), ("pass_upcard", 0, 7),
...     ("draw_stock", 1, 30), ("discard", 1, 12)])
('knock with KC', 'take the face-up card', [105, 105, 12])
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from gincore import card_text
from gincore.errors import InputError
from ginsim.core.checks import as_integer
from ginsim.gin.game.native import (
    ACTION_GO_BIG_GIN,
    ACTION_KNOCK_BASE,
    ACTION_REFUSE_FACE_UP,
    ACTION_TAKE_FACE_UP,
    ACTIONS,
)

__all__ = ["BIG_GIN", "DISCARD", "KNOCK", "NUM_ACTIONS", "REFUSE", "TAKE", "Action", "MoveKind", "action_text",
           "actions_of"]

DISCARD: Final = 0
"""Discarding card ``c`` face up is action ``DISCARD + c``."""
KNOCK: Final = ACTION_KNOCK_BASE
"""Knocking (or going gin) with card ``c`` face down is action ``KNOCK + c``."""
TAKE: Final = ACTION_TAKE_FACE_UP
REFUSE: Final = ACTION_REFUSE_FACE_UP
BIG_GIN: Final = ACTION_GO_BIG_GIN
NUM_ACTIONS: Final = ACTIONS
"""Actions are numbered ``0 .. NUM_ACTIONS - 1``."""


class MoveKind(StrEnum):
    """The kinds of move: a face-up discard, a knock (gin when nothing is left unmelded) with its
    face-down discard, taking or refusing the face-up card, and big gin."""

    DISCARD = "discard"
    KNOCK = "knock"
    TAKE = "take"
    REFUSE = "refuse"
    BIG_GIN = "big_gin"


@dataclass(frozen=True, order=True)
class Action:
    """One move of a Gin hand: its ``number`` (what ``GameState.apply`` and the environments take), its
    :class:`~ginsim.gin.game.actions.MoveKind` and ``card`` (-1 when it has none), and its words. It is an
    ``int`` wherever one is taken (``operator.index``), so it may be given to ``GameState.apply`` as it is.
    The one decoding of action numbers: everything else asks an ``Action``.

    >>> Action(KNOCK + 12).kind, Action(KNOCK + 12).card, str(Action(KNOCK + 12))
    (<MoveKind.KNOCK: 'knock'>, 12, 'knock with KC')
    >>> Action.discard(25) == Action(25), Action.take().number, Action(BIG_GIN).text()
    (True, 104, 'go big gin')
    >>> Action(107)
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: an action is a number from 0 to 106, got 107
    """

    number: int

    def __post_init__(self) -> None:
        number = as_integer(self.number)
        if number is None or not 0 <= number < NUM_ACTIONS:
            raise InputError(f"an action is a number from 0 to {NUM_ACTIONS - 1}, got {self.number!r}")
        object.__setattr__(self, "number", number)

    @classmethod
    def discard(cls, card: int) -> Action:
        """Discarding ``card`` face up."""
        return cls(DISCARD + _card(card))

    @classmethod
    def knock(cls, card: int) -> Action:
        """Knocking (or going gin) with ``card`` discarded face down."""
        return cls(KNOCK + _card(card))

    @classmethod
    def take(cls) -> Action:
        """Taking the face-up card: the upcard in the offer, else the top of the pile."""
        return cls(TAKE)

    @classmethod
    def refuse(cls) -> Action:
        """Refusing it: passing in the upcard offer, drawing from the stock otherwise."""
        return cls(REFUSE)

    @classmethod
    def big_gin(cls) -> Action:
        """Going out with all eleven cards melded."""
        return cls(BIG_GIN)

    @property
    def kind(self) -> MoveKind:
        if self.number < KNOCK:
            return MoveKind.DISCARD
        if self.number < TAKE:
            return MoveKind.KNOCK
        return {TAKE: MoveKind.TAKE, REFUSE: MoveKind.REFUSE}.get(self.number, MoveKind.BIG_GIN)

    @property
    def card(self) -> int:
        """The card discarded (face up, or face down by a knock); -1 for the other moves."""
        kind = self.kind
        return self.number - KNOCK if kind is MoveKind.KNOCK else self.number if kind is MoveKind.DISCARD else -1

    @property
    def goes_out(self) -> bool:
        """Whether the move ends the hand by the mover's choice (a knock, gin or big gin)."""
        return self.kind in (MoveKind.KNOCK, MoveKind.BIG_GIN)

    def __index__(self) -> int:
        return self.number

    def __int__(self) -> int:
        return self.number

    def text(self, gin: bool = False) -> str:
        """The move in words (``gin``: call a knock gin, when it leaves nothing unmelded)."""
        kind = self.kind
        if kind is MoveKind.DISCARD:
            return f"discard {card_text(self.card)}"
        if kind is MoveKind.KNOCK:
            return f"{'go gin' if gin else 'knock'} with {card_text(self.card)}"
        return {MoveKind.TAKE: "take the face-up card", MoveKind.REFUSE: "refuse the face-up card"}.get(
            kind, "go big gin")

    def __str__(self) -> str:
        return self.text()


def _card(card: int) -> int:
    index = as_integer(card)
    if index is None or not 0 <= index <= 51:
        raise InputError(f"a card is a number from 0 to 51, got {card!r}")
    return index


def action_text(action: int) -> str:
    """The move an action number stands for, in words (``no action (n)`` for a number that is none)."""
    try:
        return Action(action).text()
    except InputError:
        return f"no action ({action})"


def actions_of(events: Iterable[tuple[str, int, int]]) -> list[int]:
    """The moves a hand took, from its events (kind, player, card): the draw from the stock that
    follows both players passing the upcard is no move of its own, nor are reshuffles and the end."""
    actions: list[int] = []
    previous = ""
    for kind, _, card in events:
        if kind in ("take_upcard", "draw_discard"):
            actions.append(TAKE)
        elif kind == "pass_upcard" or (kind == "draw_stock" and previous != "pass_upcard"):
            actions.append(REFUSE)
        elif kind == "discard":
            actions.append(DISCARD + card)
        elif kind in ("knock", "gin"):
            actions.append(KNOCK + card)
        elif kind == "big_gin":
            actions.append(BIG_GIN)
        previous = kind
    return actions
