"""The grid of a sweep: the values of each swept rule field (ranges, lists, presets) and the player pairs,
crossed into cells (:func:`sweep_cells`); :mod:`ginsim.gin.studies.sweep` plays them.

>>> [cell.label() for cell in sweep_cells({"knock_limit": "5,10"}, "marjj,simple")]
['knock_limit=5 | marjj vs simple', 'knock_limit=10 | marjj vs simple']
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from gincore.errors import InputError
from ginsim.core.fields import Integer, shown, unknown_name
from ginsim.gin.game.players import Player, PlayerSpec, display_name, player_name, resolve_players
from ginsim.gin.game.rules import PRESETS, Rules

__all__ = ["MOST_CELLS", "PRESET_KEY", "Cell", "field_values", "player_pairs", "sweep_cells"]

MOST_CELLS: Final = 10_000
"""The most cells a sweep may have (each is a run, a directory and a row of the table)."""
PRESET_KEY: Final = "preset"
"""The grid key that sweeps whole presets; the fields swept with it change each of them."""
_RANGE: Final = re.compile(r"([+-]?\d+)\s*\.\.\s*([+-]?\d+)(?:\s*:\s*(\d+))?")


@dataclass(frozen=True)
class Cell:
    """One cell of a sweep: the swept values (the preset under ``"preset"`` when presets are swept),
    the rules they make, and the two players."""

    values: Mapping[str, Any]
    rules: Rules
    players: tuple[PlayerSpec, PlayerSpec]

    @property
    def names(self) -> tuple[str, str]:
        """The players' names."""
        return player_name(self.players[0]), player_name(self.players[1])

    def label(self) -> str:
        """The cell in one line as a person reads it, e.g. ``knock_limit=5 | simple vs marjj``."""
        values = ", ".join(f"{name}={value}" for name, value in self.values.items())
        return f"{values + ' | ' if values else ''}{' vs '.join(display_name(player) for player in self.players)}"


def field_values(name: str, values: str | Iterable[Any]) -> list[Any]:
    """The values of one swept rule field (or of ``"preset"``): a list of values, or text as typed on a
    command line, comma-separated values and integer ranges (``"0..10"``, both ends included;
    ``"0..100:25"`` every 25th), e.g. ``"0..3,10"``. Values are checked on their own; a value twice is
    refused.

    >>> field_values("knock_limit", "0..3,10"), field_values("undercut_bonus", "0..100:25")
    ([0, 1, 2, 3, 10], [0, 25, 50, 75, 100])
    >>> field_values("big_gin_bonus", "none,31"), field_values("oklahoma", [True, False])
    ([None, 31], [True, False])
    >>> field_values("knock_limit", "0..12")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: knock_limit must be an integer from 0 to 10, got 11
    """
    if name == PRESET_KEY:
        listed = _split(name, values)
        unknown = [value for value in listed if value not in PRESETS]
        if unknown:
            raise unknown_name("preset", unknown[:1], PRESETS)
        return _distinct(name, listed)
    kinds = {field.name: field.metadata["kind"] for field in dataclasses.fields(Rules)}
    if name not in kinds:
        raise unknown_name("field", [name], [PRESET_KEY, *kinds])
    kind = kinds[name]
    found: list[Any] = []
    for value in _split(name, values):
        if not isinstance(value, str):
            found.append(value)
            continue
        ranged = _RANGE.fullmatch(value.strip())
        if ranged is None:
            found.append(kind.parse(name, value.strip()))
            continue
        if not isinstance(kind, Integer):
            raise InputError(f"{name} takes no range ({value!r}): it is {kind.describe()}")
        low, high, step = int(ranged[1]), int(ranged[2]), int(ranged[3] or 1)
        if high < low or step < 1:
            raise InputError(f"the range {value!r} of {name} is empty: write LOW..HIGH with LOW <= HIGH, or "
                             "LOW..HIGH:STEP with a STEP of at least 1")
        if len(range(low, high + 1, step)) > MOST_CELLS:
            raise InputError(f"the range {value!r} of {name} has more than {MOST_CELLS:,} values, the most cells "
                             "a sweep may have")
        found.extend(range(low, high + 1, step))
    for value in found:
        if not kind.accepts(value):
            raise InputError(f"{name} must be {kind.describe()}, got {shown(value, kind.type_ok(value))}")
    return _distinct(name, [kind.normal(value) for value in found])


def _split(name: str, values: str | Iterable[Any]) -> list[Any]:
    if isinstance(values, str):
        listed: list[Any] = [value.strip() for value in values.split(",")]
        if not all(listed):
            raise InputError(f"{name} has an empty value in {values!r}: write values separated by commas, e.g. 1,2,3")
    elif isinstance(values, Iterable):
        listed = list(values)
    else:
        raise InputError(f"the values of {name} must be a list or text such as '0..10' or '10,25,50', got "
                         f"{shown(values)}")
    if not listed:
        raise InputError(f"the grid gives {name} no values: give at least one")
    return listed


def _distinct(name: str, values: list[Any]) -> list[Any]:
    twice = [value for number, value in enumerate(values) if value in values[:number]]
    if twice:
        raise InputError(f"{name} lists {twice[0]!r} twice: each value makes a cell")
    return values


def player_pairs(players: str | Sequence[str | Sequence[PlayerSpec]]) -> list[tuple[Player, Player]]:
    """The player pairs of a sweep: one pair as ``"a,b"`` or a list of pairs."""
    listed = [players] if isinstance(players, str) else list(players)
    if not listed:
        raise InputError("the grid has no player pair: give at least one, e.g. 'simple,simple'")
    pairs = []
    for pair in listed:
        pairs.append(resolve_players(pair))
    names = [",".join(player.name for player in pair) for pair in pairs]
    _distinct("players", names)
    return pairs


def sweep_cells(grid: Mapping[str, str | Iterable[Any]],
                players: str | Sequence[str | Sequence[PlayerSpec]] = "simple,simple") -> list[Cell]:
    """The cells of a grid, in order: every preset (``grid["preset"]``, default the standard rules) with
    every combination of the fields' values, each with every player pair (the pairs vary fastest).
    Every cell's rules are checked before any is played; a cell that is not a valid rule set is named.

    >>> [cell.label() for cell in sweep_cells({"knock_limit": "9..10"}, ["simple,simple", "greedy,simple"])]
    ['knock_limit=9 | simple vs simple', 'knock_limit=9 | greedy vs simple', 'knock_limit=10 | simple vs simple', \
'knock_limit=10 | greedy vs simple']
    >>> sweep_cells({"preset": "standard,oklahoma", "knock_limit": "5"})
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: the cell preset=oklahoma, knock_limit=5 is not a valid rule set: oklahoma=True \
requires knock_limit=10 because Oklahoma sets the knock limit from the upcard, got knock_limit=5
    """
    if not isinstance(grid, Mapping):
        raise InputError(f"a grid is a mapping of rule fields to their values, got {shown(grid)}")
    values = {name: field_values(name, given) for name, given in grid.items()}
    pairs = player_pairs(players)
    size = len(pairs) * int(np.prod([len(listed) for listed in values.values()], dtype=object))
    if size > MOST_CELLS:
        raise InputError(f"the grid has {size:,} cells, more than the {MOST_CELLS:,} a sweep may have: sweep fewer "
                         "values")
    if size == 1:
        raise InputError("the grid has a single cell: give a field two or more values, or two player pairs "
                         "(ginsim run plays a single run)")
    presets = values.pop(PRESET_KEY, ["standard"])
    cells: list[Cell] = []
    for preset, *chosen in itertools.product(presets, *values.values()):
        settings = dict(zip(values, chosen, strict=True))
        shown_values = {PRESET_KEY: preset, **settings} if PRESET_KEY in grid else settings
        try:
            rules = Rules.preset(preset).replace(**settings)
        except InputError as error:
            described = ", ".join(f"{name}={value}" for name, value in shown_values.items())
            raise InputError(f"the cell {described} is not a valid rule set: {error}") from None
        cells.extend(Cell(shown_values, rules, pair) for pair in pairs)
    return cells
