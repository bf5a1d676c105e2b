"""One learning agent against a strategy: the Gymnasium environment ``ginsim/GinRummy-v0``.

The agent sits in seat 0 at one native table (:class:`gincore._engine.NativeTables`, as in the vector
environment); the opponent — a strategy name such as ``"simple"``, ``"marjj"`` or ``"search:16"``,
or a Python strategy — answers at once whenever it is its turn, natively for a named strategy. The
observation is ``{"observation": ..., "action_mask": ...}`` from the agent's view only (see
:mod:`ginsim.gin.game.policy.observations`); ``info["action_mask"]`` repeats the mask. ``action_space.sample()``
draws a legal action. An illegal action raises ``InputError`` and changes nothing.

Hand ``k`` since the last seeded reset is hand ``k`` of every run with that seed (``GameState.deal``),
the table of the vector environment's table 0 with the same seed. In single-hand episodes a hand the
opponent ends before the agent's first decision (it takes the upcard and knocks at once) is no
episode: the next is dealt. In match episodes every hand counts: such a hand's reward is paid with the
agent's next step. The info of a step that pays for finished hands lists them all in ``info["hands"]``
(each its record and the opponent's hand; more than one when the opponent ends the next hand before the
agent's first decision in it), and ``info["hand"]`` is the last of them; ``info["match"]`` holds the
match's result once it is over.

>>> import gymnasium, ginsim.env
>>> env = gymnasium.make("ginsim/GinRummy-v0", opponent="simple")
>>> seen, info = env.reset(seed=1)
>>> seen["action_mask"].nonzero()[0].tolist(), (info["action_mask"] == seen["action_mask"]).all()
([104, 105], np.True_)
>>> seen, reward, terminated, truncated, info = env.step(105)   # draw from the stock
>>> seen["observation"][ginsim.env.field_slots("phase")].tolist()
[0, 0, 1, 0]
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from gincore import format_cards
from gincore.errors import InputError
from ginsim.core.checks import check_seed
from ginsim.env.rewards import Episodes, HandEnd, finished_hand, settings
from ginsim.env.spaces import integer_action, observation_space
from ginsim.gin.game.actions import NUM_ACTIONS, action_text
from ginsim.gin.game.native import Engine, NativeTables, check_rules, native_config, run_key
from ginsim.gin.game.players import Player, PlayerSpec
from ginsim.gin.game.policy.observations import (
    Observation,
    field_slots,
    layout_index,
    observation_bounds,
    observation_size,
)
from ginsim.gin.game.rules import Rules

__all__ = ["GinRummyEnv", "LegalActions", "deal_match_hands", "tables_for"]


class LegalActions(gymnasium.spaces.Discrete):
    """The 107 action numbers; ``sample()`` without a mask draws among the legal ones of ``current`` (the
    environment's mask, which it updates in place) while any is legal."""

    def __init__(self, current: npt.NDArray[np.int8], seed: int | None = None) -> None:
        super().__init__(NUM_ACTIONS, seed=seed)
        self.current = current

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self.current.any():
            mask = self.current.copy()
        return super().sample(mask=mask, probability=probability)


def tables_for(rules: Rules, opponent: PlayerSpec, count: int, layout: str, reward: int = 0) -> NativeTables:
    """``count`` native tables with ``opponent`` in seat 1 (checked), observations in ``layout``."""
    rules = check_rules(rules)
    table_engine = Engine(native_config(rules), [Player.of(opponent).native(rules)] * 2)
    return NativeTables(table_engine, count, layout_index(layout), reward)


def deal_match_hands(tables: NativeTables, table: int, episodes: Episodes, observation: npt.NDArray[np.int8],
                     mask: npt.NDArray[np.int8], hand_over: Callable[[], HandEnd],
                     paid: float = 0.0) -> tuple[float, bool]:
    """Deal ``table``'s next hands of the match ``episodes`` keeps until the agent has a decision (its view
    written into ``observation`` and ``mask``) or the match is over; ``hand_over`` counts each hand the
    opponent ends before that. ``paid`` plus those hands' rewards, and whether the match is over."""
    while True:
        dealer, scores = episodes.next_deal()
        shown = scores or (0, 0)
        if tables.deal(table, -1 if dealer is None else dealer, shown[0], shown[1], True, observation, mask):
            return paid, False
        ended = hand_over()
        paid += ended.reward
        if ended.over:
            return paid, True


class GinRummyEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Gin Rummy for one learning agent (seat 0) against ``opponent``.

    ``rules`` (default the standard game), ``reward`` and ``episode`` (see :mod:`ginsim.env.rewards`),
    ``observation`` (``"compact"``, ``"openspiel"`` or ``"learner"``), ``render_mode`` (``"ansi"``: the
    agent's view as text).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponent: PlayerSpec = "simple", rules: Rules | None = None, reward: str = "points",
                 episode: str = "hand", observation: str = "compact", render_mode: str | None = None) -> None:
        self.rules, self.episodes, self.render_mode = settings(rules, reward, episode, render_mode)
        self.layout = observation
        self._tables = tables_for(self.rules, opponent, 1, observation)
        size = observation_size(observation)
        self._observation = np.zeros((1, size), np.int8)
        self._final = np.zeros((1, size), np.int8)
        self._mask = np.zeros((1, NUM_ACTIONS), np.int8)
        self._reward = np.zeros(1, np.float32)
        self._ended = np.zeros(1, np.uint8)
        self._opponent_hand = np.zeros(1, np.uint64)
        self._action = np.zeros(1, np.int64)
        self.observation_space = observation_space(*observation_bounds(observation))
        self.action_space = LegalActions(self._mask[0])
        self._seeded = False
        self._dealt = False
        self._carried = 0.0
        self._carried_hands: list[dict[str, Any]] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """A new episode. With ``seed``, hands are dealt again from hand 0 of that seed; without, the next
        hands are dealt (the first reset without a seed draws one from the environment's generator)."""
        seed = None if seed is None else check_seed(seed)
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            run = seed if seed is not None else int(self.np_random.integers(2**63))
            self._tables.seed(*run_key(run))
            self._seeded = True
        self.episodes.start()
        self._carried, self._carried_hands = 0.0, []
        if not self.episodes.match:
            self._tables.reset(self._observation, self._mask)
        else:
            self._carried, over = self._deal(self._carried_hands, {})
            while over:  # the opponent won the whole match before the agent's first decision: no episode
                self.episodes.start()
                self._carried_hands = []
                self._carried, over = self._deal(self._carried_hands, {})
        self._dealt = True
        return self._seen(), self._info({})

    def step(self, action: int | np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if not self._dealt:
            raise InputError("reset the environment first (the episode is over or never began)")
        chosen = integer_action(action)
        if not (0 <= chosen < NUM_ACTIONS and self._mask[0, chosen]):
            legal = ", ".join(f"{move} ({action_text(move)})" for move in np.flatnonzero(self._mask[0]).tolist())
            raise InputError(f"action {chosen} is illegal here; legal: {legal}")
        self._action[0] = chosen
        self._tables.step(self._action, self._observation, self._mask, self._reward, self._ended, self._final,
                          self._opponent_hand, False)
        info: dict[str, Any] = {}
        reward, terminated, hands = self._carried, False, self._carried_hands
        self._carried, self._carried_hands = 0.0, []
        if self._ended[0]:
            ended = self._hand_over(hands, info)
            reward, terminated = reward + ended.reward, ended.over
            if not terminated:
                reward, terminated = self._deal(hands, info, reward)
        if hands:
            info["hands"], info["hand"] = hands, hands[-1]
        self._dealt = not terminated
        return self._seen(), reward, terminated, False, self._info(info)

    def _hand_over(self, hands: list[dict[str, Any]], info: dict[str, Any]) -> HandEnd:
        """Count the hand just ended: its record joins ``hands``, the match's result (if it ended) ``info``."""
        record = self._tables.record(0)
        opponent_hand = record.pop("opponent_hand")
        record.pop("done")
        ended = self.episodes.hand_over(record["dealer"], record["winner"], record["points"])
        hands.append(finished_hand(record, opponent_hand))
        if ended.match is not None:
            info["match"] = ended.match
        return ended

    def _deal(self, hands: list[dict[str, Any]], info: dict[str, Any], paid: float = 0.0) -> tuple[float, bool]:
        """Deal the match's next hands until the agent has a decision (or the match is over); the reward
        of the hands that ended before it (their records join ``hands``), and whether the match is over."""
        return deal_match_hands(self._tables, 0, self.episodes, self._observation[0], self._mask[0],
                                lambda: self._hand_over(hands, info), paid)

    def _seen(self) -> Observation:
        return {"observation": self._observation[0].copy(), "action_mask": self._mask[0].copy()}

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        return {"action_mask": self._mask[0].copy(), **info}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans: sb3-contrib's ``MaskablePPO`` asks the environment for
        them under this name."""
        legal: npt.NDArray[np.bool_] = self._mask[0].astype(np.bool_)
        return legal

    def render(self) -> str | None:
        """The agent's view as text (``render_mode="ansi"``): its hand, the face-up card, the stock."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        if self.layout == "openspiel":
            return f"observation: {self._observation[0].nonzero()[0].tolist()}"
        seen = self._observation[0]

        def cards(name: str) -> str:
            return format_cards(sum(1 << int(card) for card in np.flatnonzero(seen[field_slots(name)])))

        phase = ("upcard offer", "draw", "discard", "hand over")[int(np.argmax(seen[field_slots("phase")]))]
        return (f"{phase}: hand {cards('hand')}, face-up {cards('face_up') or '-'}, "
                f"stock {int(seen[field_slots('stock')][0])}")
