"""The registry of games and of the kinds of runs they make: the one place that tells them apart.

Each game (:mod:`ginsim.gin`, :mod:`ginsim.rummy`) declares its kinds of runs; a run directory names
its kind, so reading, summarising or describing a stored run never guesses from its columns.

>>> sorted(RUN_KINDS)
['counts', 'hands', 'matches', 'rummy_games', 'rummy_hands']
>>> describe_run({"kind": "hands", "rules": gin.Rules.preset("oklahoma").to_dict(),
...               "players": ["simple", "greedy"], "size": 20000, "seed": 4})
'oklahoma rules | simple vs greedy | 20,000 hands | seed 4'
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Final

import pandas as pd

from gincore.errors import InputError
from ginsim import gin, rummy
from ginsim.core.comparison import compare
from ginsim.core.execution import RunKind, load_run
from ginsim.core.store import RunDirectory
from ginsim.gin.game.players import shown_name
from ginsim.gin.studies.groups import PLAY_GROUPS

__all__ = ["KIND_DEFAULT", "RUN_KINDS", "compare_runs", "describe_run", "kind_of", "read_run", "replay_hand",
           "shown_players", "summarize_run"]

KIND_DEFAULT: Final = "kind default"
"""``by`` of :func:`summarize_run` for the grouping the run's kind shows by default."""
RUN_KINDS: Final[Mapping[str, RunKind]] = MappingProxyType({**gin.RUN_KINDS, **rummy.RUN_KINDS})
"""Every kind of run by the name its directory stores."""


def kind_of(identity: Mapping[str, Any]) -> RunKind:
    """The kind of the run a directory's identity describes.

    >>> kind_of({"kind": "rummy_games"}).game
    'rummy'
    """
    kind = RUN_KINDS.get(str(identity.get("kind")))
    if kind is None:
        raise InputError(f"unknown kind of run {identity.get('kind')!r}; known: {', '.join(RUN_KINDS)}")
    return kind


def shown_players(identity: Mapping[str, Any]) -> list[str]:
    """The players of a run as every table, note and figure names them: a built-in Gin strategy by its
    display name (``marjj`` for ``marjj:5``, which reads back as the same player), any other as it is named.

    >>> shown_players({"kind": "matches", "players": ["marjj:5", "reader:512:3:0:50"]})
    ['marjj', 'reader']
    >>> shown_players({"kind": "hands", "players": ["marjj:5", "mine"], "python_players": [None, {"module": "m"}]})
    ['marjj', 'mine']
    """
    names = [str(name) for name in identity.get("players", ())]
    if kind_of(identity).game != "gin":
        return names
    python = identity.get("python_players") or [None] * len(names)
    return [name if origin is not None else shown_name(name) for name, origin in zip(names, python, strict=True)]


def read_run(path: str | os.PathLike[str]) -> tuple[RunKind, dict[str, Any], Any]:
    """A complete run directory of any game: its kind, its identity and its results."""
    return load_run(path, RUN_KINDS)


def summarize_run(path: str | os.PathLike[str], by: str | Iterable[str] | None = KIND_DEFAULT) -> pd.DataFrame:
    """The summary of a stored run of any kind, grouped ``by`` what its game allows (``KIND_DEFAULT``:
    the kind's own default grouping; ``None``: the whole run); the kind's summary gets the groups as a list."""
    kind, _, results = read_run(path)
    groups = kind.default_by if by == KIND_DEFAULT else by
    if groups is not None and not kind.groups:
        raise InputError(f"a run of {kind.name.replace('_', ' ')} has no groups: summarise it without --by")
    listed = [] if groups is None else [groups] if isinstance(groups, str) else list(groups)
    unknown = [name for name in listed if name not in kind.groups]
    if unknown:
        raise InputError(f"cannot group a run of {kind.name.replace('_', ' ')} by {unknown[0]!r}; "
                         f"choose from {', '.join(kind.groups)} (or none)")
    return kind.summarize(results, listed or None)


def replay_hand(path: str | os.PathLike[str], index: int) -> Any:
    """Hand ``index`` of the run stored at ``path``, played again alone with its trace, under the run's
    rules, players and seed (the run need not be finished)."""
    run = RunDirectory.read(path)
    kind = kind_of(run.identity)
    if kind.replay is None:
        raise InputError(f"{os.fspath(path)} holds a run of {kind.name.replace('_', ' ')}: replay takes a run "
                         "of hands")
    size = int(run.identity["size"])
    if not 0 <= index < size:
        raise InputError(f"hand {index} is not in the run: it has hands 0 to {size - 1}")
    return kind.replay(run.identity, index)


def compare_runs(first: str | os.PathLike[str], second: str | os.PathLike[str],
                 by: str | Iterable[str] | None = None, paired: bool | None = None) -> pd.DataFrame:
    """The second run against the first, per group and measure: both values, the difference with its
    95% interval, a test and whether it is significant (see :mod:`ginsim.core.comparison`).

    ``paired=None`` pairs the runs item by item when they can be (the same kind, seed and size: hand
    ``i`` is the same deal in both, and no group that the play decides, such as a Gin hand's ``turn``),
    ``False`` compares them as independent samples.
    """
    kind, identity, results = read_run(first)
    other_kind, other_identity, other_results = read_run(second)
    if kind is not other_kind:
        raise InputError(f"cannot compare a run of {kind.name.replace('_', ' ')} with one of "
                         f"{other_kind.name.replace('_', ' ')}")
    if kind.measures is None:
        raise InputError(f"{os.fspath(first)} is a streamed run, which keeps no records: compare needs runs "
                         "written with records (without --stream)")
    measures, other = kind.measures(results), kind.measures(other_results)
    groups = [] if by is None else [by] if isinstance(by, str) else list(by)
    unknown = [name for name in groups if name not in measures.frame or name == "item"]
    if unknown:
        allowed = [name for name in kind.groups if name in measures.frame]
        raise InputError(f"cannot compare runs of {kind.name.replace('_', ' ')} by {unknown[0]!r}; choose from "
                         f"{', '.join(allowed) or 'nothing (the whole run)'}")
    same_items = all(identity.get(field) == other_identity.get(field) for field in ("seed", "size", "duplicate"))
    if paired and not same_items:
        raise InputError("the runs are not paired: a paired comparison needs the same seed and size, both with "
                         "or both without duplicate deals")
    decided = [name for name in groups if kind.game == "gin" and name in PLAY_GROUPS]
    if decided and paired:
        raise InputError(f"runs grouped by {decided[0]} cannot be paired: the play decides it, so hand i may be in "
                         "another group in each run")
    same_items = same_items and not decided
    rates = [name for name in measures.rates if name in other.rates]
    means = [name for name in measures.means if name in other.means]
    return compare(measures.frame, other.frame, groups, rates, means, same_items if paired is None else paired)


def describe_run(identity: Mapping[str, Any]) -> str:
    """One line on a run from its identity: rules, players, size and seed.

    >>> describe_run({"kind": "matches", "players": ["gin", "simple"], "size": 500, "duplicate": True})
    'gin vs simple | 500 matches x 2 (duplicate deals)'
    """
    kind = kind_of(identity)
    parts = []
    if isinstance(identity.get("rules"), Mapping):
        parts.append(kind.rules.from_dict(identity["rules"]).label())
    if identity.get("players"):
        parts.append(" vs ".join(shown_players(identity)))
    if identity.get("size") is not None:
        doubled = " x 2 (duplicate deals)" if identity.get("duplicate") else ""
        parts.append(f"{int(identity['size']):,} {kind.unit}{doubled}")
    if identity.get("seed") is not None:
        parts.append(f"seed {identity['seed']}")
    return " | ".join(parts)
