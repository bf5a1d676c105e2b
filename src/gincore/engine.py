"""The native Gin engine as ginsim uses it: the one public face of the compiled ``gincore._engine``.

The hand loop (``Engine``), the open state (``NativeState``), the vector of tables the environments step
(``NativeTables``), the record's columns, the action numbers, the observation layouts and writers, and the
networks ``learned`` evaluates and the kernels they run on (``vector_unit``). Everything else in
``gincore._engine`` is the engine's own. In ginsim, ``ginsim.gin.game.native`` alone imports this module
and lowers rules and players to it.

>>> from gincore.engine import OUTCOME_NAMES, RECORD_COLUMNS
>>> OUTCOME_NAMES
('knock', 'undercut', 'gin', 'big_gin', 'draw')
>>> RECORD_COLUMNS[:3]
('hand', 'dealer', 'upcard')
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from gincore._engine import (
    ACTION_GO_BIG_GIN,
    ACTION_KNOCK_BASE,
    ACTION_REFUSE_FACE_UP,
    ACTION_TAKE_FACE_UP,
    ACTIONS,
    COMPACT_LAYOUT,
    EVENT_NAMES,
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
    VECTOR_UNIT_NAMES,
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
    record_decisions,
    vector_unit,
)

if TYPE_CHECKING:
    from gincore._engine import TracedHand as TracedHand  # a TypedDict of the stub: for type checks only

__all__ = [
    "ACTIONS", "ACTION_GO_BIG_GIN", "ACTION_KNOCK_BASE", "ACTION_REFUSE_FACE_UP", "ACTION_TAKE_FACE_UP",
    "COMPACT_LAYOUT", "EVENT_NAMES", "LAYOUT_NAMES", "LEARNER_LAYOUT", "LEARNER_MOST", "OBSERVATION_SIZES",
    "OPENSPIEL_LAYOUT", "OUTCOME_NAMES", "RECORD_COLUMNS", "SCORE_LIMIT", "STRATEGY_KINDS", "STRATEGY_PARAMETERS",
    "VECTOR_UNIT_NAMES", "Engine", "NativePlayers", "NativeRules", "NativeState", "NativeTables", "RecordRow",
    "load_network", "network_forward", "observe_state", "observe_view", "record_decisions", "vector_unit",
]
