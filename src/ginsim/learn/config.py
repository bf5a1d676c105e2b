"""The settings of a training run, checked before any work starts (no PyTorch needed).

A :class:`TrainConfig` is the whole recipe of a run: the rules, the opponents and their shares of the
tables, the imitation warm start, the PPO hyper-parameters and the seed. It is the identity of a
training directory: the same settings resume a run there, others are refused.

>>> config = TrainConfig(opponents=parse_opponents("simple=3,random"), total_timesteps=100_000)
>>> config.tables()
(('simple', 48), ('random', 16))
>>> TrainConfig(opponents=parse_opponents("marjj")).opponents   # names in their canonical form
(('marjj:5', 1.0),)
>>> TrainConfig(learning_rate=2.0)
Traceback (most recent call last):
...
gincore.errors.InputError: learning_rate must be a number above 0 and at most 1, got 2.0
"""
from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from gincore.errors import InputError
from ginsim.core.checks import integer
from ginsim.gin.game.players import Player
from ginsim.gin.game.policy.observations import LAYOUTS
from ginsim.gin.game.rules import Rules

__all__ = ["EPISODES", "LEAGUE", "RENAMED", "REWARDS", "TrainConfig", "parse_opponents"]

REWARDS: Final = ("points", "win", "shaped")
"""What a hand pays the learner: its points (scaled by ``reward_scale``), +1/-1 for a win/loss, or (in match
episodes) the change in its chance to win the match (:mod:`ginsim.env.rewards`), scaled by the rules'
target / ``reward_scale`` (so that early in a match a hand pays about what its points would)."""
EPISODES: Final = ("hand", "match")
"""What the learner's tables play: single hands at 0-0, or matches to the rules' target whose running
scores the learner sees (its policy file then says so: ``learned`` shows it the scores in play)."""
RENAMED: Final = MappingProxyType({"steps": "total_timesteps", "envs": "n_envs", "rollout": "n_steps",
                                   "epochs": "n_epochs", "minibatch": "batch_size", "lr": "learning_rate",
                                   "clip": "clip_range", "entropy": "ent_coef", "value_coef": "vf_coef",
                                   "lam": "gae_lambda"})
"""The settings renamed to Stable-Baselines3's names, by their old names (accepted, deprecated, for one release)."""
LEAGUE: Final = "league"
"""The opponent name standing for the learner's own earlier snapshots."""


def parse_opponents(text: str) -> tuple[tuple[str, float], ...]:
    """Opponents and their shares of the tables from ``name[=share],...`` (a share defaults to 1); a
    name is a strategy as ``--players`` takes it (``threshold:7``, ``file.py:Bot``), or ``league`` for
    the learner's own earlier snapshots.

    >>> parse_opponents("simple=2, marjj")
    (('simple', 2.0), ('marjj', 1.0))
    """
    mix: list[tuple[str, float]] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, equals, share = item.partition("=")
        try:
            weight = float(share) if equals else 1.0
        except ValueError:
            raise InputError(f"the share of opponent {name.strip()!r} must be a number, got {share!r}") from None
        mix.append((name.strip(), weight))
    if not mix:
        raise InputError("name at least one opponent, e.g. simple or simple=3,random")
    return tuple(mix)


def _canonical(name: str) -> str:
    """A built-in strategy's canonical name; a Python strategy's text (checked: it loads) or ``league`` as given."""
    if name == LEAGUE:
        return name
    player = Player.of(name)
    return name if player.python else player.name


def _number(name: str, value: object, low: float, high: float, low_open: bool = False) -> float:
    number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    if not (low <= number <= high) or (low_open and number == low):
        bounds = f"above {low:g} and at most {high:g}" if low_open else f"from {low:g} to {high:g}"
        raise InputError(f"{name} must be a number {bounds}, got {value!r}")
    return number


@dataclass(frozen=True)
class TrainConfig:
    """A training run's recipe. Every field is checked on construction (``InputError`` naming it).

    Phase 1 (when ``imitate`` names a strategy): behaviour cloning of its decisions, ``imitate_hands``
    hands of it against ``imitate_against`` recorded natively, ``imitate_epochs`` passes (with
    ``imitate_fresh``, each pass over hands of its own), Adam's step size going from ``imitate_lr`` to
    ``imitate_lr_end`` on a cosine (when given; constant otherwise); with ``imitate_decisions``, the
    decisions of a finished recording (``ginsim record``, its expert the one cloned) instead, each pass
    over all of them. The network starts from random
    weights, or from the policy file ``start_from`` (of the run's layout, hidden widths and hands: to go
    on from an earlier run, cloning another expert or reinforcing). Phase 2: PPO
    for ``total_timesteps`` learner decisions on ``n_envs`` tables shared among ``opponents`` by their
    weights (``episode``: single hands, or matches whose scores it sees), ``n_steps`` decisions per
    table per update, ``n_epochs`` passes in minibatches of ``batch_size``, Adam's ``learning_rate``,
    ``clip_range``, ``ent_coef``, ``vf_coef``, ``gamma``, ``gae_lambda`` and ``max_grad_norm``:
    Stable-Baselines3's names and meanings. The names of ginsim 0.x (``steps``, ``envs``, ``rollout``,
    ``epochs``, ``minibatch``, ``lr``, ``clip``, ``entropy``, ``value_coef``, ``lam``) are still
    accepted, with a ``DeprecationWarning``, for one release.
    """

    rules: Rules = field(default_factory=Rules)
    opponents: tuple[tuple[str, float], ...] = (("simple", 1.0),)
    layout: str = "compact"
    hidden: tuple[int, ...] = (256, 256)
    reward: str = "points"
    reward_scale: float = 25.0
    episode: str = "hand"
    total_timesteps: int = 1_000_000
    n_envs: int = 64
    n_steps: int = 64
    n_epochs: int = 4
    batch_size: int = 2048
    learning_rate: float = 3e-4
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    gamma: float = 1.0
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    checkpoint_every: int = 10
    imitate: str | None = None
    imitate_against: str = "simple"
    imitate_hands: int = 20_000
    imitate_epochs: int = 4
    imitate_lr: float = 1e-3
    imitate_lr_end: float | None = None
    imitate_fresh: bool = False
    imitate_decisions: str | None = None
    start_from: str | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InputError("rules must be a ginsim Rules")
        if self.layout not in LAYOUTS:
            raise InputError(f"unknown observation layout {self.layout!r}; layouts: {', '.join(LAYOUTS)}")
        if self.reward not in REWARDS:
            raise InputError(f"reward must be one of {', '.join(REWARDS)}, got {self.reward!r}")
        if self.episode not in EPISODES:
            raise InputError(f"episode must be one of {', '.join(EPISODES)}, got {self.episode!r}")
        if self.reward == "shaped" and self.episode != "match":
            raise InputError("the shaped reward pays the change in the chance to win the match: it needs "
                             "match episodes (--episode match)")
        if self.reward == "shaped" and self.rules.target is None:
            raise InputError("the shaped reward values scores by the chance to reach the target: these rules "
                             "have none (give --target)")
        if not self.opponents:
            raise InputError("name at least one opponent")
        for name, weight in self.opponents:
            _number(f"the share of opponent {name!r}", weight, 0.0, 1e6, low_open=True)
        # built-in names in their canonical form (``marjj`` is ``marjj:5``), so that a resumed run matches
        canonical = tuple((_canonical(name), float(weight)) for name, weight in self.opponents)
        object.__setattr__(self, "opponents", canonical)
        if not self.hidden or len(self.hidden) > 8:
            raise InputError(f"hidden must be 1 to 8 layer widths, got {list(self.hidden)}")
        for width in self.hidden:
            integer("a hidden layer's width", width, 1, 4096)
        for name, low, high in (("total_timesteps", 1, 10**12), ("n_envs", 1, 65_536), ("n_steps", 1, 4096),
                                ("n_epochs", 1, 100), ("batch_size", 1, 10**7), ("checkpoint_every", 1, 10**6),
                                ("imitate_hands", 1, 10**8), ("imitate_epochs", 1, 100), ("seed", 0, 2**63 - 1)):
            integer(name, getattr(self, name), low, high)
        for name, least, most, low_open in (("learning_rate", 0.0, 1.0, True), ("imitate_lr", 0.0, 1.0, True),
                                          ("clip_range", 0.0, 1.0, True), ("ent_coef", 0.0, 1.0, False),
                                          ("vf_coef", 0.0, 100.0, False), ("gamma", 0.0, 1.0, False),
                                          ("gae_lambda", 0.0, 1.0, False), ("max_grad_norm", 0.0, 1e6, True),
                                          ("reward_scale", 0.0, 1e6, True)):
            _number(name, getattr(self, name), least, most, low_open)
        if self.imitate_lr_end is not None:
            _number("imitate_lr_end", self.imitate_lr_end, 0.0, 1.0, False)
        if not isinstance(self.imitate_fresh, bool):
            raise InputError(f"imitate_fresh must be True or False, got {self.imitate_fresh!r}")
        if self.imitate is not None:
            object.__setattr__(self, "imitate", _canonical(self.imitate))
        if self.imitate_decisions is not None:
            object.__setattr__(self, "imitate_decisions", self._checked_decisions(self.imitate_decisions))
        object.__setattr__(self, "imitate_against", _canonical(self.imitate_against))
        if self.start_from is not None:
            object.__setattr__(self, "start_from", self._checked_start(self.start_from))
        if len(self.opponents) > self.n_envs:
            raise InputError(f"{len(self.opponents)} opponents need at least as many tables; n_envs is {self.n_envs}")

    def _checked_decisions(self, path: object) -> str:
        """The absolute path of ``imitate_decisions``, a finished recording (``ginsim record``) this run can
        clone: in its layout, for its rules' hands; ``imitate`` becomes the recording's expert."""
        from ginsim.gin.studies.decisions import recording_identity

        if not isinstance(path, str) or not path:
            raise InputError(f"imitate_decisions must be the path of a recording, got {path!r}")
        identity = recording_identity(path)
        expert = str(identity["players"][0])
        if self.imitate is not None and self.imitate != expert:
            raise InputError(f"{path} holds the decisions of {expert}, not of {self.imitate}")
        if self.imitate_fresh:
            raise InputError("imitate_fresh records new hands for each pass; a recording's passes are over its "
                             "decisions: give one or the other")
        if identity.get("layout") != self.layout:
            raise InputError(f"{path} holds observations in the {identity.get('layout')} layout; this run's network "
                             f"reads {self.layout} (give --layout {identity.get('layout')})")
        recorded = Rules.from_dict(identity["rules"])
        if recorded.hand_play() != self.rules.hand_play():
            raise InputError(f"{path} was recorded under rules whose hands are played otherwise than this run's "
                             "(give the recording's --rules)")
        object.__setattr__(self, "imitate", expert)
        return str(Path(path).expanduser().resolve())

    def _checked_start(self, path: object) -> str:
        """The absolute path of ``start_from``, a policy file this run's network can start from."""
        from ginsim.gin.game.policy.file import load_policy

        if not isinstance(path, str) or not path:
            raise InputError(f"start_from must be the path of a policy file, got {path!r}")
        weights = load_policy(path)
        if weights.layout != self.layout or weights.sizes[1:-1] != self.hidden:
            raise InputError(f"start_from {path}: its network reads the {weights.layout} layout through hidden "
                             f"layers {list(weights.sizes[1:-1])}; this run's reads {self.layout} through "
                             f"{list(self.hidden)} (give --layout and --hidden to match)")
        weights.check_rules(self.rules)
        return str(Path(path).expanduser().resolve())

    def tables(self) -> tuple[tuple[str, int], ...]:
        """Each opponent's number of tables: ``n_envs`` shared by the weights, at least one each."""
        total = sum(weight for _, weight in self.opponents)
        counts = [max(1, round(self.n_envs * weight / total)) for _, weight in self.opponents]
        counts[counts.index(max(counts))] += self.n_envs - sum(counts)
        if min(counts) < 1:
            raise InputError(f"n_envs {self.n_envs} is too few tables for the opponents' shares")
        return tuple((name, count) for (name, _), count in zip(self.opponents, counts, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON values (the rules as their fields, the opponents as ``[name, share]``)."""
        values: dict[str, Any] = {item.name: getattr(self, item.name) for item in fields(self)}
        values["rules"] = self.rules.to_dict()
        values["opponents"] = [list(item) for item in self.opponents]
        values["hidden"] = list(self.hidden)
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> TrainConfig:
        """The settings :meth:`to_dict` wrote (``InputError`` for a field it does not know)."""
        known = {item.name for item in fields(cls)}
        values = {RENAMED.get(name, name): value for name, value in values.items()}  # a directory of ginsim 0.x
        unknown = sorted(set(values) - known)
        if unknown:
            raise InputError(f"unknown training settings: {', '.join(unknown)}")
        given = dict(values)
        if "rules" in given:
            given["rules"] = Rules.from_dict(given["rules"])
        if "opponents" in given:
            given["opponents"] = tuple((str(name), float(weight)) for name, weight in given["opponents"])
        if "hidden" in given:
            given["hidden"] = tuple(given["hidden"])
        return cls(**given)

    def updates(self) -> int:
        """The number of PPO updates the run makes: ``total_timesteps`` rounded up to whole updates."""
        return -(-self.total_timesteps // (self.n_envs * self.n_steps))


def _current_names(given: dict[str, Any]) -> dict[str, Any]:
    """``TrainConfig``'s keywords with the old names of :data:`RENAMED` replaced, each with a deprecation warning."""
    for old in [name for name in given if name in RENAMED]:
        new = RENAMED[old]
        if new in given:
            raise TypeError(f"TrainConfig got both {old} and {new}: give {new} alone")
        warnings.warn(f"TrainConfig({old}=...) is deprecated: write {new}=..., Stable-Baselines3's name",
                      DeprecationWarning, stacklevel=3)
        given[new] = given.pop(old)
    return given


_GENERATED_INIT = TrainConfig.__init__


@functools.wraps(_GENERATED_INIT)
def _init(self: TrainConfig, *args: Any, **given: Any) -> None:
    _GENERATED_INIT(self, *args, **_current_names(given))


setattr(TrainConfig, "__init__", _init)  # noqa: B010 - the dataclass's own __init__, taking the old names too
