"""A trained policy as a strategy: it plays wherever a strategy is accepted (runs, tournaments, play).

>>> import numpy as np
>>> from ginsim import Rules, tournament
>>> def first_legal(observation, mask):      # a policy: an observation and a mask in, an action out
...     return int(np.flatnonzero(mask)[-1])  # the highest legal action: refuse, knock when it may
>>> table = tournament(Rules(), [PolicyStrategy(first_legal, name="last-legal"), "random"], matches=4, seed=1,
...                    workers=1)
>>> table["player"].tolist()
['last-legal']
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ginsim.gin.game.actions import Action, MoveKind, action_text
from ginsim.gin.game.native import StrategyError
from ginsim.gin.game.policy.observations import observe_view_of
from ginsim.gin.game.state import Phase
from ginsim.gin.game.strategies import Strategy, View

__all__ = ["Policy", "PolicyStrategy"]

Policy = Callable[[npt.NDArray[np.int8], npt.NDArray[np.int8]], Any]
"""A function from an observation and its action mask (int8 arrays, as the environments give them)
to a legal action number."""


class PolicyStrategy(Strategy):
    """Plays a ``policy`` (observation, mask) -> action as a strategy.

    Each decision the hand loop asks is turned into the observation the environments would give (in
    ``observation``'s layout, from the player's view alone) and its mask; the policy's action answers
    it. A knock or gin is one action (``KNOCK + card``), which answers the loop's discard question and
    then its knock question. ``scores``: whether the policy sees match scores (False, the default,
    shows 0-0 as in the single-hand episodes a policy is usually trained on). A policy that returns an
    illegal action stops the hand with a ``StrategyError``. ``takes_back_discards``: whether it may take
    back a card it discarded itself (False, the default, as the native ``learned``: the hand loop refuses
    it without asking, where two policies taking back each other's discards cycled until the engine
    called the hand drawn; True plays every move the environments allow).
    """

    def __init__(self, policy: Policy, name: str = "policy", observation: str = "compact",
                 scores: bool = False, takes_back_discards: bool = False) -> None:
        self.policy = policy
        self.name = name
        self.layout = observation
        self.scores = scores
        self.takes_back_discards = takes_back_discards
        self._decided: tuple[View, Action] | None = None

    def _act(self, view: View, phase: Phase, big_gin: bool = False) -> Action:
        if not self.scores:
            view = replace(view, scores=(0, 0))
        seen = observe_view_of(view, phase, big_gin, self.layout)
        answer = self.policy(seen["observation"], seen["action_mask"])
        action = int(answer) if isinstance(answer, (int, np.integer)) and not isinstance(answer, bool) else -1
        if not 0 <= action < len(seen["action_mask"]) or not seen["action_mask"][action]:
            shown = action_text(action) if action >= 0 else repr(answer)
            raise StrategyError(f"policy {self.name!r} chose {answer!r} ({shown}), which is not legal here")
        return Action(action)

    def take_upcard(self, view: View) -> bool:
        return self._act(view, Phase.OFFER).kind is MoveKind.TAKE

    def take_discard(self, view: View) -> bool:
        return self._act(view, Phase.DRAW).kind is MoveKind.TAKE

    def big_gin(self, view: View) -> bool:
        action = self._act(view, Phase.DISCARD, big_gin=True)
        self._decided = (view, action)
        return action.kind is MoveKind.BIG_GIN

    def discard(self, view: View) -> int:
        # asked right after big_gin (when big gin was legal and declined), the same decision answers
        decided = self._decided
        action = decided[1] if decided is not None and decided[0] == view else self._act(view, Phase.DISCARD)
        self._decided = (view, action)
        return action.card

    def knock(self, view: View) -> bool:
        decided, self._decided = self._decided, None
        return decided is not None and decided[1].kind is MoveKind.KNOCK
