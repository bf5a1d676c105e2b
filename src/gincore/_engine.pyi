from typing import Any, TypedDict

import numpy as np
import numpy.typing as npt

from gincore.errors import InputError

STRATEGY_KINDS: dict[str, int]
EVENT_NAMES: tuple[str, ...]
OUTCOME_NAMES: tuple[str, ...]
RECORD_FIELDS: tuple[tuple[str, Any], ...]
RECORD_DTYPE: np.dtype[np.void]
RECORD_COLUMNS: tuple[str, ...]

class StrategyError(InputError): ...

class HandCounts(TypedDict):
    hands: npt.NDArray[np.int64]            # (dealer, upcard, outcome, winner + 1)
    points: npt.NDArray[np.int64]
    turns: npt.NDArray[np.int64]
    points_squares: npt.NDArray[np.int64]
    turns_squares: npt.NDArray[np.int64]
    points_histogram: npt.NDArray[np.int64]  # (outcome, points)

class TracedHand(TypedDict):
    record: dict[str, Any]                  # RECORD_COLUMNS, the outcome by name
    deck: list[int]
    dealt: tuple[int, int]
    events: list[tuple[str, int, int]]      # (kind, player, card)
    final: tuple[int, int]
    knocker_sets: int
    laid_off_cards: int
    stock_left: int

class Engine:
    error: BaseException | None
    def __init__(self, config: dict[str, Any], players: list[Any] | tuple[Any, ...]) -> None: ...
    def reject(self, player: int, card: int, drawn: int, from_pile: bool) -> None: ...
    def play_hands(self, key0: int, key1: int, first: int, count: int) -> dict[str, npt.NDArray[Any]]: ...
    def play_counts(self, key0: int, key1: int, first: int, count: int) -> HandCounts: ...
    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1, score0: int = 0,
                    score1: int = 0) -> tuple[int, ...]: ...
    def play_traced(self, key0: int, key1: int, index: int, deck: list[int] | None = None,
                    dealer: int | None = None, scores: tuple[int, int] | None = None) -> TracedHand: ...
    def match_value(self, mine: int, theirs: int) -> float | None: ...
    def model_inputs(self, key0: int, key1: int, first: int, count: int,
                     player: int) -> dict[str, npt.NDArray[Any]]: ...
