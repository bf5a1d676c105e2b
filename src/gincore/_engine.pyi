from typing import Any, NamedTuple, Protocol, TypedDict

import numpy as np
import numpy.typing as npt

from gincore.errors import StrategyError as StrategyError

STRATEGY_KINDS: dict[str, int]
STRATEGY_PARAMETERS: dict[str, tuple[str, ...]]
EVENT_NAMES: tuple[str, ...]
OUTCOME_NAMES: tuple[str, ...]
PHASE_NAMES: tuple[str, ...]
RECORD_FIELDS: tuple[tuple[str, Any], ...]
RECORD_DTYPE: np.dtype[np.void]
RECORD_COLUMNS: tuple[str, ...]

class RecordRow(NamedTuple):
    hand: int
    dealer: int
    upcard: int
    knock_limit: int
    multiplier: int
    outcome: int
    winner: int
    knocker: int
    points: int
    knocker_deadwood: int
    defender_deadwood: int
    laid_off: int
    turns: int
    upcard_taken_by: int

class MatchLike(Protocol):
    @property
    def scores(self) -> tuple[int, int]: ...
    @property
    def passed(self) -> tuple[int, int]: ...
    @property
    def late(self) -> tuple[int, int]: ...
NO_CARD_INDEX: int
NO_PLAYER_INDEX: int
SCORE_LIMIT: int
ACTION_KNOCK_BASE: int
ACTION_TAKE_FACE_UP: int
ACTION_REFUSE_FACE_UP: int
ACTION_GO_BIG_GIN: int
ACTIONS: int


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
    reshuffles: list[list[int]]             # the stock after each reshuffle, top first
    final: tuple[int, int]
    knocker_sets: int
    laid_off_cards: int
    stock_left: int

class NativeRules:
    config: dict[str, Any]
    def __init__(self, config: dict[str, Any]) -> None: ...
    def match_value(self, mine: int, theirs: int) -> float | None: ...

class Engine:
    error: BaseException | None
    def __init__(self, config: dict[str, Any], players: list[Any] | tuple[Any, ...]) -> None: ...
    def reject(self, player: int, card: int, drawn: int, from_pile: bool) -> None: ...
    def play_hands(self, key0: int, key1: int, first: int, count: int) -> dict[str, npt.NDArray[Any]]: ...
    def play_counts(self, key0: int, key1: int, first: int, count: int) -> HandCounts: ...
    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1,
                    match: MatchLike | None = None) -> RecordRow: ...
    def play_traced(self, key0: int, key1: int, index: int, deck: list[int] | None = None,
                    dealer: int | None = None, match: MatchLike | None = None) -> TracedHand: ...
    def match_value(self, mine: int, theirs: int) -> float | None: ...
    def model_inputs(self, key0: int, key1: int, first: int, count: int,
                     player: int) -> dict[str, npt.NDArray[Any]]: ...

class NativeState:
    dealt: tuple[int, ...]
    deck: tuple[int, ...]
    error: BaseException | None
    info: Any
    @classmethod
    def native_deal(cls, native: NativeRules, key0: int, key1: int, index: int, dealer: int = -1,
                    score0: int = 0, score1: int = 0, match: bool = False) -> Any: ...
    @classmethod
    def native_position(cls, native: NativeRules, key: int, hands: tuple[int, int], pile: list[int],
                        pile_by: list[int], stock: list[int], dealer: int, player: int, phase: int, turns: int,
                        taken: tuple[int, ...] = ..., passed: tuple[int, ...] = ..., score0: int = 0,
                        score1: int = 0, match: bool = False, upcard: int = -1,
                        discarded: tuple[int, int] = ..., ever_taken: tuple[int, int] = ...) -> Any: ...
    @property
    def phase_index(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def dealer(self) -> int: ...
    @property
    def upcard(self) -> int: ...
    @property
    def knock_limit(self) -> int: ...
    @property
    def turns(self) -> int: ...
    @property
    def hands(self) -> tuple[int, int]: ...
    @property
    def stock(self) -> tuple[int, ...]: ...
    @property
    def pile(self) -> tuple[int, ...]: ...
    @property
    def drawn_card(self) -> int: ...
    def view_fields(self, player: int) -> dict[str, Any]: ...
    def record_fields(self) -> dict[str, Any]: ...
    def events(self) -> list[tuple[str, int, int]]: ...
    def reshuffled_stocks(self) -> list[list[int]]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def legal_actions(self) -> list[int]: ...
    def is_legal(self, action: object) -> bool: ...
    def apply(self, action: int, new_stock: list[int] | None = None) -> None: ...
    def apply_many(self, actions: Any) -> None: ...
    def clone(self) -> Any: ...
    def determinize(self, player: int, key: int, deadwood: int = -1, tries: int = 1) -> Any: ...
    def play_out(self, players: list[Any], key: int) -> Any: ...
    def play_out_value(self, players: NativePlayers, key: int, me: int) -> int: ...

class NativePlayers:
    python: bool
    def __init__(self, specs: list[Any] | tuple[Any, ...]) -> None: ...

LAYOUT_NAMES: tuple[str, str, str]
OBSERVATION_SIZES: tuple[int, int, int]
COMPACT_LAYOUT: tuple[tuple[str, int, int], ...]
OPENSPIEL_LAYOUT: tuple[tuple[str, int, int], ...]
LEARNER_LAYOUT: tuple[tuple[str, int, int], ...]
LEARNER_MOST: int

def load_network(layout: int, scale: npt.NDArray[np.float32],
                 layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]) -> int: ...
def network_forward(network: int, observations: npt.NDArray[np.int8], masks: npt.NDArray[np.int8],
                    logits: npt.NDArray[np.float32], actions: npt.NDArray[np.int64]) -> None: ...

def observe_state(position: NativeState, player: int, layout: int, observation: npt.NDArray[np.int8],
                  mask: npt.NDArray[np.int8]) -> None: ...
def observe_view(view: Any, phase: int, big_gin: bool, layout: int, observation: npt.NDArray[np.int8],
                 mask: npt.NDArray[np.int8]) -> None: ...

class NativeTables:
    count: int
    layout: int
    observation_size: int
    def __init__(self, engine: Engine, count: int, layout: int = 0, reward: int = 0) -> None: ...
    def seed(self, key0: int, key1: int) -> None: ...
    def reset(self, observations: npt.NDArray[np.int8], masks: npt.NDArray[np.int8]) -> None: ...
    def deal(self, table: int, dealer: int, score0: int, score1: int, match: bool,
             observation: npt.NDArray[np.int8], mask: npt.NDArray[np.int8]) -> bool: ...
    def step(self, actions: npt.NDArray[np.int64], observations: npt.NDArray[np.int8], masks: npt.NDArray[np.int8],
             rewards: npt.NDArray[np.float32], ended: npt.NDArray[np.uint8], final_observations: npt.NDArray[np.int8],
             opponent_hands: npt.NDArray[np.uint64], autoreset: bool) -> None: ...
    def sample(self, masks: npt.NDArray[np.int8], actions: npt.NDArray[np.int64]) -> None: ...
    def record(self, table: int) -> dict[str, Any]: ...
def record_decisions(engine: Engine, key0: int, key1: int, first: int, count: int, layout: int,
                     seats: int, finals: bool = False) -> dict[str, npt.NDArray[Any]]: ...
