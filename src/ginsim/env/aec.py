"""The two-player PettingZoo environment: ``player_0`` and ``player_1`` take turns on a native ``GameState``.

Agent ``player_i`` sits in seat ``i``. An episode is a hand or a match (``episode=``); the agent to
move is the player to move (the non-dealer first, in the upcard offer). ``observe(agent)`` is
``{"observation": ..., "action_mask": ...}`` from that agent's view only (see
:mod:`ginsim.gin.game.policy.observations`); its mask is all 0 when the move is not its own. An illegal action
raises ``InputError`` and changes nothing. When a hand ends, each agent's info holds it as
``info["hand"]``: the record (outcome, winner, points, deadwood) and ``opponent_hand``, the other
player's cards — the only place a hidden card ever shows; when the episode ends, both agents are
terminated (and, in match episodes, ``info["match"]`` holds the match's result row).

Hand ``k`` since the last seeded reset is hand ``k`` of every run with that seed (``GameState.deal``);
in match episodes the dealer after the first hand is the rules' ``next_dealer``.

As PettingZoo's classic games do, the module offers ``env()`` (the environment in PettingZoo's
order-enforcing wrapper) and ``raw_env`` (the environment's class, unwrapped):

>>> from ginsim.env import aec
>>> wrapped = aec.env(episode="hand")
>>> wrapped.reset(seed=3)
>>> wrapped.agent_selection, isinstance(wrapped.unwrapped, aec.raw_env)
('player_1', True)
>>> from ginsim.env import aec_env
>>> env = aec_env()
>>> env.reset(seed=3)
>>> seen, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, seen["action_mask"].nonzero()[0].tolist()
('player_1', [104, 105])
"""
from __future__ import annotations

from typing import Any

import gymnasium
from pettingzoo import AECEnv

from gincore import format_cards
from gincore.errors import InputError
from ginsim.core.checks import check_seed
from ginsim.env.rewards import finished_hand, settings
from ginsim.env.spaces import fresh_seed, integer_action, observation_space
from ginsim.gin.game.actions import NUM_ACTIONS
from ginsim.gin.game.policy.observations import Observation, observation_bounds, observe
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.state import GameState

__all__ = ["GinRummyAEC", "aec_env", "env", "raw_env"]

AGENTS = ("player_0", "player_1")


class GinRummyAEC(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo is untyped
    """Gin Rummy for two learning agents (PettingZoo's AEC API); build it with :func:`aec_env`."""

    metadata = {"name": "ginsim_gin_rummy_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: Rules | None = None, reward: str = "points", episode: str = "hand",
                 observation: str = "compact", render_mode: str | None = None) -> None:
        super().__init__()
        self.rules, self.episodes, self.render_mode = settings(rules, reward, episode, render_mode)
        self.layout = observation
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._observation_space = observation_space(*observation_bounds(observation))
        self._action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self._seed = fresh_seed()
        self._hands = 0
        self.state: GameState | None = None
        self.agent_selection = AGENTS[0]  # until reset: PettingZoo's last() then asks observe(), which says so

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. With ``seed``, the hands are dealt again from hand 0 of that seed; without, the
        next hands of the current seed are dealt."""
        if seed is not None:
            self._seed = check_seed(seed)
            self._hands = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.episodes.start()
        self._deal()

    def _deal(self) -> None:
        dealer, scores = self.episodes.next_deal()
        self.state = GameState.deal(self.rules, self._seed, self._hands, dealer=dealer, scores=scores)
        self._hands += 1
        self.agent_selection = AGENTS[self.state.player]

    def observe(self, agent: str) -> Observation:
        if agent not in AGENTS:
            raise InputError(f"unknown agent {agent!r}; the agents are {' and '.join(AGENTS)}")
        return observe(self._state(), AGENTS.index(agent), self.layout)

    def _state(self) -> GameState:
        if self.state is None:
            raise InputError("reset the environment before using it")
        return self.state

    def step(self, action: int | None) -> None:
        """The agent to move makes ``action``; a terminated agent steps with None to leave."""
        self._state()
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        state = self._state()
        state.apply(integer_action(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.done:
            self._hand_over(state)
        if not any(self.terminations.values()):
            self.agent_selection = AGENTS[self._state().player]
        self._accumulate_rewards()

    def _hand_over(self, state: GameState) -> None:
        record = state.record_fields()
        ended = self.episodes.hand_over(record["dealer"], record["winner"], record["points"])
        self.rewards = {AGENTS[0]: ended.reward, AGENTS[1]: -ended.reward}
        for seat, agent in enumerate(AGENTS):
            self.infos[agent] = {"hand": finished_hand(record, state.hands[1 - seat])}
            if ended.match is not None:
                self.infos[agent]["match"] = ended.match
        if ended.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._deal()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): the position and both hands, as an onlooker sees them."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        if self.state is None:
            return "no hand dealt yet"
        hands = [f"player_{seat}: {format_cards(hand)}" for seat, hand in enumerate(self.state.hands)]
        return "\n".join([repr(self.state), *hands])

    def close(self) -> None:
        self.state = None


def aec_env(rules: Rules | None = None, reward: str = "points", episode: str = "hand", observation: str = "compact",
            render_mode: str | None = None) -> GinRummyAEC:
    """Gin Rummy as a PettingZoo AEC environment: agents ``player_0`` and ``player_1`` (by seat).

    ``rules`` (default the standard game), ``reward`` (``"points"``, ``"win"``, or for match episodes
    ``"match"`` or ``"shaped"``: see :mod:`ginsim.env.rewards`), ``episode`` (``"hand"`` or
    ``"match"``), ``observation`` (``"compact"``, ``"openspiel"`` or ``"learner"``: see
    :mod:`ginsim.gin.game.policy.observations`).
    """
    return GinRummyAEC(rules, reward, episode, observation, render_mode)


raw_env = GinRummyAEC
"""The environment's class, unwrapped (PettingZoo's classic games call it ``raw_env``)."""


def env(rules: Rules | None = None, reward: str = "points", episode: str = "hand", observation: str = "compact",
        render_mode: str | None = None) -> AECEnv:
    """:func:`aec_env`'s environment in PettingZoo's ``OrderEnforcingWrapper`` (a step or an observation before
    ``reset`` is an error), as PettingZoo's classic games' ``env()`` gives theirs. An illegal action raises
    ``InputError`` as it does unwrapped."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(aec_env(rules, reward, episode, observation, render_mode))
