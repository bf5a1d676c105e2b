from collections.abc import Mapping, Sequence
from typing import Any, Final, TypedDict

import numpy as np
import numpy.typing as npt

HAND_SIZES: Final[dict[int, int]]
STRATEGY_KINDS: Final[dict[str, int]]
EVENT_NAMES: Final[tuple[str, ...]]
RECORD_FIELDS: Final[tuple[tuple[Any, ...], ...]]
RECORD_DTYPE: Final[np.dtype[np.void]]
RECORD_COLUMNS: Final[tuple[str, ...]]
MASK_COLUMNS: Final[tuple[str, ...]]
GAME_COLUMNS: Final[tuple[str, ...]]
MAX_TURNS_IN_HAND: Final[int]

class TracedRummyHand(TypedDict):
    record: dict[str, int]                            # RECORD_COLUMNS
    audit_failures: int
    deck: list[int]
    dealt: tuple[int, ...]
    events: list[tuple[str, int, int, int, int]]      # (kind, player, card, meld, cards)
    final: tuple[int, ...]
    melds: list[tuple[int, int]]                      # (meld mask, owner)
    stock: list[int]
    pile: list[int]

class RummyEngine:
    def __init__(self, config: Mapping[str, Any], kinds: Sequence[int]) -> None: ...
    def __reduce__(self) -> tuple[type[RummyEngine], tuple[dict[str, Any], tuple[int, ...]]]: ...
    @property
    def players(self) -> int: ...
    def play_hands(
        self, key0: int, key1: int, first: int, count: int, *, masks: bool = False, audit: bool = False
    ) -> dict[str, npt.NDArray[Any]]: ...
    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1) -> dict[str, int]: ...
    def play_games(
        self, key0: int, key1: int, first: int, count: int, target: int
    ) -> dict[str, npt.NDArray[np.integer[Any]]]: ...
    def play_traced(
        self, key0: int, key1: int, index: int, deck: Sequence[int] | None = None, dealer: int | None = None
    ) -> TracedRummyHand: ...
