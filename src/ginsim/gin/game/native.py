"""The one bridge to the native Gin engine: the only module of ginsim that imports ``gincore.engine``.

It lowers rules to native settings (:func:`native_config`), checks at import that every built-in
strategy's declared parameters are its native struct's fields, and re-exports the native names the rest
of ginsim uses (the engine and open-state classes, the record's columns, the outcome names, the action
numbers, the observation writers). Players are lowered by :mod:`ginsim.gin.game.players`, which builds
engines.
``tests/test_architecture.py`` keeps it the only one.

Hand ``i`` of a run with seed ``s`` draws from the ``gin_hands`` stream family, hand ``j`` of match
``m`` from stream ``(m << 24) | j`` of the ``gin_matches`` family (see ``ginsim.core.streams``).
"""
from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gincore.engine import (
    ACTION_GO_BIG_GIN,
    ACTION_KNOCK_BASE,
    ACTION_REFUSE_FACE_UP,
    ACTION_TAKE_FACE_UP,
    ACTIONS,
    COMPACT_LAYOUT,
    LAYOUT_NAMES,
    LEARNER_LAYOUT,
    LEARNER_MOST,
    OBSERVATION_SIZES,
    OPENSPIEL_LAYOUT,
    OUTCOME_NAMES,
    RECORD_COLUMNS,
    SCORE_LIMIT,
    STRATEGY_KINDS,
    STRATEGY_PARAMETERS,
    Engine,
    NativePlayers,
    NativeRules,
    NativeState,
    NativeTables,
    RecordRow,
    load_network,
    network_forward,
    observe_state,
    observe_view,
)
from gincore.engine import record_decisions as native_record_decisions
from gincore.errors import StrategyError
from ginsim.core.streams import stream_key
from ginsim.gin.game.equity_tables import match_value_array
from ginsim.gin.game.rules import Rules, check_rules
from ginsim.gin.game.specs import SPECS, check_native_structs

if TYPE_CHECKING:
    from gincore.engine import TracedHand as TracedHand  # a TypedDict of the stub: for type checks only

__all__ = [
    "ACTIONS", "ACTION_GO_BIG_GIN", "ACTION_KNOCK_BASE", "ACTION_REFUSE_FACE_UP", "ACTION_TAKE_FACE_UP",
    "COMPACT_LAYOUT", "Engine", "LAYOUT_NAMES", "LEARNER_LAYOUT", "LEARNER_MOST", "NativePlayers", "NativeRules",
    "NativeState", "NativeTables", "OBSERVATION_SIZES", "OPENSPIEL_LAYOUT", "OUTCOME_NAMES", "RECORD_COLUMNS",
    "RecordRow", "SCORE_LIMIT", "STRATEGY_KINDS", "StrategyError", "check_rules", "interrupts",
    "load_network", "match_key", "native_config", "native_record_decisions", "network_forward",
    "observe_state", "observe_view", "run_key",
]

check_native_structs(SPECS, STRATEGY_PARAMETERS)


def run_key(seed: int) -> tuple[int, int]:
    """The key of a run of Gin hands with this seed.

    >>> run_key(1) == run_key(1) != run_key(2)
    True
    """
    return stream_key(seed, "gin_hands")


def match_key(seed: int) -> tuple[int, int]:
    """The key of a run of Gin matches with this seed.

    >>> match_key(1) != run_key(1)
    True
    """
    return stream_key(seed, "gin_matches")


@contextlib.contextmanager
def interrupts() -> Iterator[None]:
    """Around a call of the native loop: Ctrl-C (or SIGTERM made one) during a Python strategy's
    decision comes back as ``KeyboardInterrupt``, not as the strategy's failure (the loop reports
    whatever a strategy raises as a ``StrategyError`` caused by it).

    >>> try:
    ...     with interrupts():
    ...         raise StrategyError("hand 3: strategy 'bot' failed") from KeyboardInterrupt()
    ... except KeyboardInterrupt:
    ...     print("Ctrl-C")
    Ctrl-C
    """
    try:
        yield
    except StrategyError as error:
        if isinstance(error.__cause__, KeyboardInterrupt):
            raise error.__cause__ from None
        raise


@functools.lru_cache(maxsize=64)
def native_config(rules: Rules) -> dict[str, Any]:
    """The settings the native hand loop reads, with the knock limit and multiplier by upcard.

    >>> native_config(Rules.preset("oklahoma"))["knock_limit"][:13]
    (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    """
    check_rules(rules)
    return {
        "knock_limit": tuple(rules.knock_limit_for(upcard) for upcard in range(52)),
        "multiplier": tuple(rules.multiplier_for(upcard) for upcard in range(52)),
        "gin_bonus": rules.gin_bonus,
        "undercut_bonus": rules.undercut_bonus,
        "big_gin_bonus": -1 if rules.big_gin_bonus is None else rules.big_gin_bonus,
        "stock_floor": rules.stock_floor,
        "max_reshuffles": rules.max_reshuffles if rules.exhaustion == "reshuffle" else 0,
        "target": rules.target or 0,
        "match_values": _match_values(rules),
    }


def _match_values(rules: Rules) -> Any:
    """The shipped match equity table of these rules (for search's match play), if there is one."""
    if rules.target is None:
        return None
    return match_value_array(rules)
