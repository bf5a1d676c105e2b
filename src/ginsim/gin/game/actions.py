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
from typing import Final

from gincore import card_text
from ginsim.gin.game.native import (
    ACTION_GO_BIG_GIN,
    ACTION_KNOCK_BASE,
    ACTION_REFUSE_FACE_UP,
    ACTION_TAKE_FACE_UP,
    ACTIONS,
)

__all__ = ["BIG_GIN", "DISCARD", "KNOCK", "NUM_ACTIONS", "REFUSE", "TAKE", "action_text", "actions_of"]

DISCARD: Final = 0
"""Discarding card ``c`` face up is action ``DISCARD + c``."""
KNOCK: Final = ACTION_KNOCK_BASE
"""Knocking (or going gin) with card ``c`` face down is action ``KNOCK + c``."""
TAKE: Final = ACTION_TAKE_FACE_UP
REFUSE: Final = ACTION_REFUSE_FACE_UP
BIG_GIN: Final = ACTION_GO_BIG_GIN
NUM_ACTIONS: Final = ACTIONS
"""Actions are numbered ``0 .. NUM_ACTIONS - 1``."""


def action_text(action: int) -> str:
    """The move an action number stands for, in words."""
    if action == TAKE:
        return "take the face-up card"
    if action == REFUSE:
        return "refuse the face-up card"
    if action == BIG_GIN:
        return "go big gin"
    if 0 <= action < KNOCK:
        return f"discard {card_text(action)}"
    if KNOCK <= action < TAKE:
        return f"knock with {card_text(action - KNOCK)}"
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
