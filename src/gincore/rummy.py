"""The native classic Rummy engine as ginsim uses it: the public face of the compiled ``gincore._rummy``.

The hand and game loop (``RummyEngine``), the strategies it knows, the hand size for each number of
players, and the columns of its hand and game records. In ginsim, ``ginsim.rummy`` reaches it through
``ginsim.rummy.native``.

>>> from gincore.rummy import HAND_SIZES
>>> HAND_SIZES[2], HAND_SIZES[6]
(10, 6)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from gincore._rummy import EVENT_NAMES, GAME_COLUMNS, HAND_SIZES, RECORD_COLUMNS, STRATEGY_KINDS, RummyEngine

if TYPE_CHECKING:
    from gincore._rummy import TracedRummyHand as TracedRummyHand  # a TypedDict of the stub: for type checks only

__all__ = ["EVENT_NAMES", "GAME_COLUMNS", "HAND_SIZES", "RECORD_COLUMNS", "STRATEGY_KINDS", "RummyEngine"]
