"""Many tables at once: a Gymnasium ``VectorEnv`` stepped natively, every table in one call without the GIL.

Each of ``num_envs`` tables is a hand between the agent (seat 0) and ``opponent`` (seat 1), who
answers natively in the same call whenever it is its turn. ``step(actions)`` returns numpy arrays:
observations ``{"observation": int8 (num_envs, 480 or 644), "action_mask": int8 (num_envs, 107)}``
(see :mod:`ginsim.gin.game.policy.observations`), rewards (float32), terminations (bool) and truncations (always
False). Episodes are single hands (``episode="hand"``, the default; ``reward`` ``"points"`` or ``"win"``) or
whole matches to the rules' target (``episode="match"``; every reward of :mod:`ginsim.env.rewards`, ``"shaped"``
among them), each table a match of its own in which the agent sees the running scores.

Autoreset: ``AutoresetMode.SAME_STEP`` (declared in ``metadata``). Where a hand ends, the same step
deals that table's next hand: the observation returned is the new hand's first decision (every
observation returned is a decision of the agent, with a legal action), the reward and termination
are the finished hand's, and ``infos["final_obs"]`` (an object array, None elsewhere, with
``infos["_final_obs"]``) holds the finished hand's last observation; ``infos["final_info"]`` holds
``opponent_hand`` (the opponent's cards as a card mask, uint64) — the only place a hidden card shows.

In match episodes a hand's end is not the episode's: where a hand ends and the match goes on, the
observation returned is the next hand's first decision with the new scores, and termination stays
False. ``infos`` then always holds ``hand_over`` (bool, the tables whose hand ended this step) and
``points`` (float32, that hand's points signed for the agent, 0 elsewhere); a hand the opponent ends
before the agent's first decision pays its reward with the agent's next step at that table. Where
the match ends, termination is True, ``final_obs`` and ``final_info`` are as above, and the next
match starts at 0-0.

Table ``t`` plays hands ``(t << 40) | k``, k = 0, 1, ... of the run with ``seed`` (the deals of
``GameState.deal`` with those indices); in single-hand episodes a hand the opponent ends before the
agent's first decision is skipped. An illegal action raises ``InputError`` before any table moves.

>>> import numpy as np
>>> from ginsim.env import VectorGinRummyEnv
>>> env = VectorGinRummyEnv(4, opponent="simple", seed=1)
>>> seen, infos = env.reset()
>>> seen["observation"].shape, seen["action_mask"].dtype
((4, 480), dtype('int8'))
>>> seen, rewards, terminations, truncations, infos = env.step(env.random_legal_actions())
>>> rewards.dtype, terminations.dtype
(dtype('float32'), dtype('bool'))
>>> matches = VectorGinRummyEnv(4, opponent="simple", rules=Rules.preset("eaai"), reward="shaped", episode="match",
...                             seed=1)
>>> _ = matches.reset()
>>> seen, rewards, terminations, truncations, infos = matches.step(matches.random_legal_actions())
>>> sorted(infos)[:2], infos["hand_over"].dtype
(['hand_over', 'points'], dtype('bool'))
"""
from __future__ import annotations

from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from gincore.errors import InputError
from ginsim.core.checks import as_integer, check_seed
from ginsim.core.checks import count as bounded
from ginsim.env.rewards import Episodes, HandEnd, check_episode
from ginsim.env.single import deal_match_hands, tables_for
from ginsim.env.spaces import fresh_seed, observation_space
from ginsim.gin.game.actions import NUM_ACTIONS
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import PlayerSpec
from ginsim.gin.game.policy.observations import Observation, observation_bounds, observation_size
from ginsim.gin.game.rules import Rules, check_rules

__all__ = ["MAX_TABLES", "VectorGinRummyEnv"]

_NATIVE_REWARDS = ("points", "win")
MAX_TABLES: Final = 1 << 16
"""The most tables of one environment: 65,536 (about 5 KiB each with their buffers, measured: 350 MB in all)."""


class VectorGinRummyEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of Gin Rummy, the agent in seat 0 of each against ``opponent``.

    ``copy`` (default True) returns fresh arrays from each call; with False the observations, masks,
    rewards and terminations are the environment's own buffers, overwritten by the next step (faster:
    take what you keep before stepping again).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, opponent: PlayerSpec = "simple", rules: Rules | None = None,
                 reward: str = "points", observation: str = "compact", seed: int | None = None,
                 copy: bool = True, episode: str = "hand") -> None:
        self.num_envs = bounded("num_envs", num_envs, MAX_TABLES)
        self.rules = Rules() if rules is None else check_rules(rules)
        check_episode(reward, episode, self.rules)
        self.copy = copy
        self.layout = observation
        self.episode = episode
        # a match's hands are paid by its Episodes from their records: the native reward is then the points
        native_reward = _NATIVE_REWARDS.index(reward) if episode == "hand" else 0
        self._tables = tables_for(self.rules, opponent, self.num_envs, observation, native_reward)
        self._episodes = [Episodes(self.rules, reward, episode) for _ in range(self.num_envs)] \
            if episode == "match" else []
        self._carried = np.zeros(self.num_envs, np.float32)
        size = observation_size(observation)
        count = self.num_envs
        self._observations = np.zeros((count, size), np.int8)
        self._finals = np.zeros((count, size), np.int8)
        self._masks = np.zeros((count, NUM_ACTIONS), np.int8)
        self._rewards = np.zeros(count, np.float32)
        self._ended = np.zeros(count, np.uint8)
        self._opponent_hands = np.zeros(count, np.uint64)
        self._truncations = np.zeros(count, np.bool_)
        self._actions = np.zeros(count, np.int64)
        self._final_mask = np.zeros(NUM_ACTIONS, np.int8)
        self.single_observation_space = observation_space(*observation_bounds(observation))
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, count)
        self.action_space = batch_space(self.single_action_space, count)
        self._seed = fresh_seed() if seed is None else check_seed(seed)
        self._tables.seed(*run_key(self._seed))
        self._dealt = False

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """Deal every table again. With ``seed`` (one int), the run starts over from each table's hand 0 of
        that seed; without, each table deals its next hand."""
        if seed is not None:
            if as_integer(seed) is None:
                raise InputError(f"the vector environment takes one seed for all its tables (an integer), got {seed!r}")
            self._seed = check_seed(seed)
            self._tables.seed(*run_key(self._seed))
        if self.episode == "match":
            self._carried[:] = 0
            for table in range(self.num_envs):
                self._start_match(table)
        else:
            self._tables.reset(self._observations, self._masks)
        self._dealt = True
        return self._seen(), {}

    def step(self, actions: npt.ArrayLike) -> tuple[Observation, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                                     npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per table (legal where its mask says so), then the opponents' answers."""
        if not self._dealt:
            raise InputError("reset the environment before stepping it")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise InputError(f"actions must be {self.num_envs} integers, one per table")
        self._actions[:] = chosen
        match = self.episode == "match"
        self._tables.step(self._actions, self._observations, self._masks, self._rewards, self._ended, self._finals,
                          self._opponent_hands, not match)
        ended = self._ended.view(np.bool_)
        infos: dict[str, Any] = {}
        if match:
            infos = {"hand_over": ended.copy(), "points": self._rewards.copy()}
            ended = self._matches_on(ended)
        if ended.any():
            finals = np.full(self.num_envs, None, dtype=object)
            for table in np.flatnonzero(ended):
                finals[table] = {"observation": self._finals[table].copy(), "action_mask": self._final_mask.copy()}
            hands = np.where(ended, self._opponent_hands, np.uint64(0))
            infos |= {"final_obs": finals, "_final_obs": ended.copy(),
                      "final_info": {"opponent_hand": hands, "_opponent_hand": ended.copy()},
                      "_final_info": ended.copy()}
        rewards, terminations = self._rewards, ended
        if self.copy:
            rewards, terminations = rewards.copy(), terminations.copy()
        return self._seen(), rewards, terminations, self._truncations.copy(), infos

    def _matches_on(self, hand_over: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """Pay the hands that ended (into the rewards, with what earlier deals carried) and deal each table's
        next hand of its match, or a new match; which tables' matches ended."""
        self._rewards[:] = self._carried
        self._carried[:] = 0
        over = np.zeros(self.num_envs, np.bool_)
        for table in np.flatnonzero(hand_over).tolist():
            ended = self._hand_over(table)
            paid, over[table] = ended.reward, ended.over
            if not over[table]:
                paid, over[table] = self._deal(table, paid)
                if over[table]:  # the opponent ended the match in a hand dealt since: its view is the last
                    self._finals[table] = self._observations[table]
            self._rewards[table] += paid
            if over[table]:
                self._start_match(table)
        self._ended[:] = over
        return over

    def _hand_over(self, table: int) -> HandEnd:
        """Count the table's finished hand in its match: what it pays the agent, and whether the match is over."""
        record = self._tables.record(table)
        return self._episodes[table].hand_over(record["dealer"], record["winner"], record["points"])

    def _deal(self, table: int, paid: float = 0.0) -> tuple[float, bool]:
        """Deal the match's next hands at ``table`` until the agent has a decision (or the match is over):
        ``paid`` plus the rewards of the hands that ended before it, and whether the match is over."""
        return deal_match_hands(self._tables, table, self._episodes[table], self._observations[table],
                                self._masks[table], lambda: self._hand_over(table), paid)

    def _start_match(self, table: int) -> None:
        """A new match at ``table``, dealt to the agent's first decision; what hands ended before it pay the
        agent's next step there (a match the opponent won before it is no episode: a new one starts)."""
        while True:
            self._episodes[table].start()
            paid, over = self._deal(table)
            if not over:
                self._carried[table] = paid
                return

    def _seen(self) -> Observation:
        if self.copy:
            return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._observations, "action_mask": self._masks}

    def random_legal_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action at every table (natively, from a stream of the tables' own: the
        hands are not changed by drawing them)."""
        if not self._dealt:
            raise InputError("reset the environment before drawing actions: no table is dealt")
        actions = np.empty(self.num_envs, np.int64)
        self._tables.sample(self._masks, actions)
        return actions
