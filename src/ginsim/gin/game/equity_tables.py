"""Match equity tables as data: their rows and arrays, the files they are stored in, and the tables that
ship with the package (``search`` plays matches with them).

Kept apart from :mod:`ginsim.gin.studies.equity`, which measures tables by playing hands, so that the engine
bridge can read a shipped table without importing the simulation.

>>> from ginsim import Rules
>>> values = match_value_array(Rules())
>>> values.shape, bool(values[90, 50] > 0.5 > values[50, 90])
((100, 100), True)
"""
from __future__ import annotations

import functools
import io
import json
import os
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

import numpy as np
import pandas as pd

from gincore.errors import InputError
from ginsim.core.checks import integer
from ginsim.gin.game.rules import Rules, check_rules

__all__ = ["COLUMNS", "equity_arrays", "game_rules", "load_table", "match_value_array", "shipped_equity",
           "table_frame", "table_key"]

COLUMNS: Final = ("score", "opponent_score", "dealer", "equity", "low", "high")
"""The columns of an equity table, one row per (score, opponent_score, dealer)."""
DATA: Final = "data"
"""The folder of the shipped tables inside ``ginsim.gin``."""


def game_rules(rules: Rules, target: int | None) -> Rules:
    """The rules of the one game a table is about: ``target`` (else the rules' own), no Hollywood."""
    check_rules(rules)
    goal = rules.target if target is None else integer("target", target, 1, 10_000)
    if goal is None:
        raise InputError("a match equity table needs a target: the rules have target=None and no target was given")
    return rules.replace(target=goal, hollywood=False)


def table_key(rules: Rules) -> Rules:
    """What decides a table: the rules of the game without its end-of-game bonuses."""
    return rules.replace(box_bonus=0, game_bonus=0, shutout_doubles=False, hollywood=False)


def table_frame(equity: np.ndarray, low: np.ndarray, high: np.ndarray) -> pd.DataFrame:
    """The table's rows from arrays (2, T, T) by [seat 0 deals next: 0, else 1][score][opponent's score]."""
    target = equity.shape[-1]
    score, opponent = np.meshgrid(np.arange(target), np.arange(target), indexing="ij")

    def by_cell(values: np.ndarray) -> np.ndarray:  # rows by score, then opponent's score, dealer False first
        return values[::-1].transpose(1, 2, 0).ravel()

    return pd.DataFrame({
        "score": np.repeat(score.ravel(), 2), "opponent_score": np.repeat(opponent.ravel(), 2),
        "dealer": np.tile([False, True], target * target),
        "equity": by_cell(equity), "low": by_cell(low), "high": by_cell(high),
    })


def equity_arrays(table: pd.DataFrame) -> tuple[int, dict[str, np.ndarray]]:
    """The target of an equity table and its ``equity``, ``low`` and ``high`` as arrays (2, T, T) by
    [the player deals next: 0, else 1][score][opponent's score].

    >>> table = pd.DataFrame({"score": [0, 0], "opponent_score": [0, 0], "dealer": [False, True],
    ...                       "equity": [0.4, 0.6], "low": [0.3, 0.5], "high": [0.5, 0.7]})
    >>> target, arrays = equity_arrays(table)
    >>> target, arrays["equity"][:, 0, 0].tolist()
    (1, [0.6, 0.4])
    """
    missing = [column for column in COLUMNS if column not in table]
    if missing:
        raise InputError(f"not an equity table: it has no {missing[0]} column")
    if table.empty:
        raise InputError("not an equity table: it has no rows")
    _check_values(table)
    target = int(max(table["score"].max(), table["opponent_score"].max())) + 1
    if len(table) != 2 * target * target:
        raise InputError(f"not a whole equity table: {len(table)} rows for scores below {target} (want "
                         f"{2 * target * target})")
    ordered = table.sort_values(["score", "opponent_score", "dealer"])
    arrays = {name: ordered[name].to_numpy(float).reshape(target, target, 2).transpose(2, 0, 1)[::-1]
              for name in ("equity", "low", "high")}
    return target, arrays


def _check_values(table: pd.DataFrame) -> None:
    """Refuse a table whose scores are not whole numbers from 0, whose chances are not from 0 to 1, whose
    dealer is not true or false, or that has a cell twice."""
    wanted = {"score": "a score", "opponent_score": "a score", "equity": "a chance from 0 to 1",
              "low": "a chance from 0 to 1", "high": "a chance from 0 to 1", "dealer": "True or False"}
    for column, kind in wanted.items():
        values = table[column]
        if column == "dealer":
            wrong = ~values.isin([True, False])
        else:
            numbers = pd.to_numeric(values, errors="coerce")
            wrong = numbers.isna() | (numbers < 0) | ((numbers % 1 != 0) if kind == "a score" else (numbers > 1))
        if wrong.any():
            found = values[wrong].iloc[0]
            shown = repr(found.item() if isinstance(found, np.generic) else found)
            raise InputError(f"not an equity table: its {column} column holds {shown}, not {kind}")
    if table.duplicated(["score", "opponent_score", "dealer"]).any():
        raise InputError("not an equity table: it has a score pair and dealer twice")


def load_table(path: str | os.PathLike[str] | Traversable) -> pd.DataFrame:
    """An equity table written by :func:`save_table` (a path, or a file of the package's data)."""
    source = Path(path) if isinstance(path, (str, os.PathLike)) else path
    with source.open("rb") as file, np.load(io.BytesIO(file.read()), allow_pickle=False) as stored:
        table = table_frame(*(stored[name].astype(float) for name in ("equity", "low", "high")))
        table.attrs = {**json.loads(str(stored["attributes"])), "counts": stored["counts"].tolist()}
    return table


@functools.cache
def _shipped() -> tuple[tuple[Rules, int, Traversable], ...]:
    """The tables that ship with the package: (the rules that decide them, target, file)."""
    folder = resources.files("ginsim.gin").joinpath(DATA)
    found = []
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.startswith("equity_") and entry.name.endswith(".npz"):
            with entry.open("rb") as file, np.load(io.BytesIO(file.read()), allow_pickle=False) as stored:
                attributes = json.loads(str(stored["attributes"]))
            found.append((table_key(Rules.from_dict(attributes["rules"])), int(attributes["target"]), entry))
    return tuple(found)


@functools.cache
def _shipped_table(rules: Rules) -> pd.DataFrame | None:
    assert rules.target is not None
    key = table_key(rules)
    entry = next((file for known, target, file in _shipped() if known == key and target == rules.target), None)
    return None if entry is None else load_table(entry)


def shipped_equity(rules: Rules, target: int | None = None) -> pd.DataFrame | None:
    """The equity table shipped with the package for games to ``target`` (default: the rules' own) under
    ``rules``, or ``None`` when none was made for them. Tables are of ``simple`` against itself; the
    rules match when they play the same hands to the same target (the end-of-game bonuses do not
    matter, and Hollywood rules get the table of their first game).

    >>> from ginsim import Rules
    >>> table = shipped_equity(Rules.preset("oklahoma"))
    >>> table.attrs["players"], table.attrs["target"], len(table)
    (['simple', 'simple'], 100, 20000)
    >>> shipped_equity(Rules(knock_limit=7)) is None
    True
    """
    table = _shipped_table(game_rules(rules, target))
    return None if table is None else table.copy()


def match_value_array(rules: Rules, target: int | None = None) -> np.ndarray | None:
    """The shipped table as an array ``values[a, b]`` (float64, shape (target, target)): the chance to
    win the game at ``a`` points against ``b``, averaged over who deals next; ``None`` without a
    shipped table for these rules.

    >>> from ginsim import Rules
    >>> values = match_value_array(Rules())
    >>> values.shape, values.dtype.name, bool(abs(values[0, 0] - 0.5) < 1e-6)
    ((100, 100), 'float64', True)
    """
    table = _shipped_table(game_rules(rules, target))
    if table is None:
        return None
    _, arrays = equity_arrays(table)
    values: np.ndarray = arrays["equity"].mean(axis=0)
    return values
