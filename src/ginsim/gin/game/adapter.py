"""The engine's adapter of a Python strategy: it calls the strategy with a :class:`~ginsim.gin.game.strategies.View`
and checks each answer, and pickles as the text that loads it again.

>>> from ginsim.gin.game.strategies import Strategy
>>> class Lowest(Strategy):
...     def discard(self, view):
...         return "AC"
>>> adapter = PythonAdapter(Lowest(), "lowest")
>>> view = dict(player=0, hand=1, discard_pile=(), discarded_by=(), opponent_took=0, opponent_passed=0,
...             stock_size=31, knock_limit=10, multiplier=1, dealer=1, upcard=5, turns=1, drawn_card=-1,
...             drawn_from_pile=False, hand_index=0, scores=(0, 0))
>>> adapter.discard(view), adapter.knock(view)
(0, True)
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

import gincore
from gincore.errors import StrategyError
from ginsim.core.checks import as_integer
from ginsim.gin.game.origins import PythonOrigin, load_python, loaded_origin, python_origin
from ginsim.gin.game.strategies import View

__all__ = ["PythonAdapter"]


class PythonAdapter:
    """Calls a Python strategy with a View and checks each answer: yes or no (a ``bool``, numpy's too)
    or a card (an index 0..51 of any integral type, or card text), else ``StrategyError``.

    A strategy loaded from text (``file.py:Class``, ``module:Class``) is pickled as that text and
    loaded again where it is unpickled (a worker process), checked to have the same source; any
    other strategy is pickled as it is.
    """

    def __init__(self, strategy: Any, name: str, origin: PythonOrigin | None = None) -> None:
        self._strategy = strategy
        self.name = name
        self._origin = origin

    def __reduce__(self) -> tuple[Any, ...]:
        origin = self._origin if self._strategy is None else loaded_origin(type(self._strategy))
        if origin is not None and origin.spec is not None:
            return (PythonAdapter, (None, self.name, origin))
        return (PythonAdapter, (self.strategy, self.name))

    @property
    def strategy(self) -> Any:
        """The strategy, loaded on first use in a process it was sent to."""
        if self._strategy is None:
            assert self._origin is not None
            self._strategy = _reload(self._origin)
        return self._strategy

    @property
    def takes_back_discards(self) -> bool:
        """Whether the strategy may take back a face-up card it discarded itself (its attribute of that
        name; yes by default): when not, the hand loop refuses that card without asking it."""
        return bool(getattr(self.strategy, "takes_back_discards", True))

    def _yes_no(self, method: str, state: Mapping[str, Any]) -> bool:
        answer = getattr(self.strategy, method)(View.from_state(state))
        if not isinstance(answer, (bool, np.bool_)):
            raise StrategyError(f"strategy {self.name!r}: {method} must return True or False, got {answer!r}")
        return bool(answer)

    def take_upcard(self, state: Mapping[str, Any]) -> bool:
        if not hasattr(self.strategy, "take_upcard"):
            return self._yes_no("take_discard", state)
        return self._yes_no("take_upcard", state)

    def take_discard(self, state: Mapping[str, Any]) -> bool:
        return self._yes_no("take_discard", state)

    def knock(self, state: Mapping[str, Any]) -> bool:
        return self._yes_no("knock", state)

    def big_gin(self, state: Mapping[str, Any]) -> bool:
        if not hasattr(self.strategy, "big_gin"):
            return True
        return self._yes_no("big_gin", state)

    def discard(self, state: Mapping[str, Any]) -> int:
        answer = self.strategy.discard(View.from_state(state))
        if isinstance(answer, str):
            named = gincore.cards_of(gincore.parse_cards(answer))  # an unknown card is an error of its own
            if len(named) != 1:
                raise StrategyError(f"strategy {self.name!r}: discard must name one card, got {answer!r}")
            return named[0]
        card = as_integer(answer)
        if card is None:
            raise StrategyError(f"strategy {self.name!r}: discard must return a card index, got {answer!r}")
        if not 0 <= card <= 51:
            raise StrategyError(f"strategy {self.name!r} (player {state['player']}) chose an illegal discard "
                                f"{card}: it is not a card index 0..51")
        return card


@functools.lru_cache(maxsize=16)
def _reload(origin: PythonOrigin) -> Any:
    """The strategy of ``origin`` loaded again (once per process), refused if its source changed."""
    assert origin.spec is not None
    player = load_python(origin.spec)
    if player is None or python_origin(player).source != origin.source:
        raise StrategyError(f"strategy {origin.spec!r} changed on disk after the run started: its source is "
                            "not the one the run was started with")
    return player
