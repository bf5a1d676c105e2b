"""Tables as people read them: aligned text that fits 80 columns, CSV and JSON, each saying what
produced it (the ginsim version, the rules, the players, the seed and the size of the run).

>>> import pandas as pd
>>> table = pd.DataFrame({"hands": [1000], "gin_rate": [0.05], "gin_rate_low": [0.04], "gin_rate_high": [0.0625],
...                       "mean_points": [17.25]})
>>> print(table_text(table))
hands      gin points
 1000 5.0±1.2%  17.25
>>> print(table_text(table, columns="all"))
hands             gin_rate mean_points
 1000   5.00% [4.00, 6.25]       17.25
"""
from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gincore.errors import InputError
from ginsim._version import __version__
from ginsim.core.store import atomic_write

__all__ = ["GIN_RATES_NOTE", "comparison_text", "fitted", "fixed", "source_line", "table_text", "write_csv",
           "write_table"]

SIZE_COLUMNS = ("hands", "matches", "games")
"""The column of a summary that counts its items; the group columns stand before it."""
WIDTH = 80

GIN_RATES_NOTE = ("knock counts every hand ended by a knock, undercut or not; gin counts gin and big gin; "
                  "every rate is a share of all the hands in its row, so the rates add to more than 100%")
"""What the rates of a Gin hands summary count, said under every such table."""


def source_line(source: Mapping[str, Any]) -> str:
    """What produced a table, in one line: the ginsim version, then the run's description.

    >>> source_line({"run": "oklahoma rules | simple vs simple | 1,000 hands | seed 0"})  # doctest: +ELLIPSIS
    'ginsim ... | oklahoma rules | simple vs simple | 1,000 hands | seed 0'
    """
    return " | ".join([f"ginsim {__version__}", *([source["run"]] if source.get("run") else [])])


def _shown_name(column: str) -> str:
    """A compact column heading: ``knock_rate`` is ``knock``, ``mean_points`` is ``points``, ``win_rate_0``
    is ``win 0``, ``knock_rate_diff`` is ``knock_diff``."""
    if column.startswith("win_rate_"):
        return f"win {column.removeprefix('win_rate_')}"
    return column.removesuffix("_rate").removeprefix("mean_").replace("_rate_diff", "_diff")


def _compact(table: pd.DataFrame, hidden: Sequence[str] = ()) -> list[str]:
    """The columns shown by default: everything but the interval bounds, the rarely read means and the
    ``hidden`` ones."""
    return [column for column in table.columns
            if not column.endswith(("_low", "_high")) and column not in ("mean_turnovers", *hidden)
            and not (column.startswith("win_rate_") and "knock_rate" in table)]


def fixed(value: float, decimals: int = 2, width: int = 0) -> str:
    """``value`` with ``decimals`` decimals, right-aligned in ``width``; a value that rounds to zero
    unsigned (a gain of -0.001 is 0.00, not -0.00).

    >>> fixed(-0.001), fixed(-0.004, 1, 6), fixed(-0.06, 1), fixed(float("nan"))
    ('0.00', '   0.0', '-0.1', 'nan')
    """
    text = f"{value:.{decimals}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text.rjust(width)


def _with_interval(value: float, low: float, high: float, unit: str, full: bool) -> str:
    if pd.isna(low):
        return f"{fixed(value)}{unit}"
    if full:
        return f"{fixed(value, 2, 6)}{unit} [{fixed(low)}, {fixed(high)}]"
    decimals = 1 if unit else 2
    return f"{fixed(value, decimals)}±{fixed(max(value - low, high - value), decimals)}{unit}"


def table_text(table: pd.DataFrame, columns: str | Sequence[str] | None = None, hidden: Sequence[str] = (),
               keys: Sequence[str] = ()) -> str:
    """A summary as aligned text. By default compact: rates in percent with ``±`` the larger half of
    their 95% interval, means with two decimals, without the ``hidden`` columns; ``columns="all"``
    shows every column, intervals as ``[low, high]``; a list of column names shows those. With
    ``keys`` (the columns that name a row), a table wider than 80 columns is cut into blocks that fit,
    one under the other, each starting with the keys (:func:`fitted`)."""
    table = table.dropna(axis="columns", how="all")  # e.g. the seats a Rummy table did not have
    full = columns is not None
    chosen = _chosen(table, columns, hidden)
    shown = pd.DataFrame(index=table.index)
    for column in chosen:
        values = table[column]
        name = column if full else _shown_name(column)
        if f"{column}_low" in table:
            low, high = table[f"{column}_low"], table[f"{column}_high"]
            scale, unit = (100, "%") if "_rate" in column else (1, "")
            shown[name] = [_with_interval(scale * value, scale * bottom, scale * top, unit, full)
                           for value, bottom, top in zip(values, low, high, strict=True)]
        elif "_rate" in column:
            shown[name] = [f"{fixed(100 * value, 2 if full else 1)}%" for value in values]
        elif pd.api.types.is_float_dtype(values):
            shown[name] = [fixed(value) for value in values]
        else:
            shown[name] = values.astype(str)
    named = [column if full else _shown_name(column) for column in chosen if column in keys]
    return fitted(shown, named) if named else shown.to_string(index=False)


def fitted(shown: pd.DataFrame, keys: Sequence[str], width: int = WIDTH) -> str:
    """``shown`` as aligned text in blocks no wider than ``width`` where it can be: each block the
    ``keys`` columns and as many of the others, in order, as fit (at least one), the blocks one under
    the other with a blank line between them.

    >>> table = pd.DataFrame({"cell": ["a", "b"], "x": ["1.0", "2.0"], "y": ["3.0", "4.0"]})
    >>> print(fitted(table, ["cell"], width=10))
    cell   x
       a 1.0
       b 2.0
    <BLANKLINE>
    cell   y
       a 3.0
       b 4.0
    """
    others = [column for column in shown.columns if column not in keys]
    blocks: list[list[str]] = []
    for column in others:
        if blocks and _width(shown[[*keys, *blocks[-1], column]]) <= width:
            blocks[-1].append(column)
        else:
            blocks.append([column])
    return "\n\n".join(shown[[*keys, *block]].to_string(index=False) for block in blocks or [[]])


def _width(shown: pd.DataFrame) -> int:
    return max(len(line) for line in shown.to_string(index=False).splitlines())


def _chosen(table: pd.DataFrame, columns: str | Sequence[str] | None, hidden: Sequence[str]) -> list[str]:
    """The columns ``columns`` asks for (the compact set for None, every one for ``"all"``, else the group
    columns and the ones named), intervals' bounds left out; a name the table lacks is refused."""
    # Every summary starts with its group columns, then the number of items.
    size = next((position for position, column in enumerate(table.columns) if column in SIZE_COLUMNS), 0)
    chosen = (_compact(table, hidden) if columns is None else
              [column for column in table.columns if not column.endswith(("_low", "_high"))] if columns == "all"
              else list(dict.fromkeys([*table.columns[:size], *columns])))
    unknown = [column for column in chosen if column not in table]
    if unknown:
        listed = ", ".join(column for column in table.columns if not column.endswith(("_low", "_high")))
        raise InputError(f"the table has no column {unknown[0]!r}; its columns: {listed}")
    return chosen


def write_table(table: pd.DataFrame, source: Mapping[str, Any], *, csv: str | os.PathLike[str] | None = None,
                as_json: bool = False, columns: str | Sequence[str] | None = None,
                notes: Sequence[str] = (), hidden: Sequence[str] = (), keys: Sequence[str] = ()) -> str:
    """The text to print for a table — aligned text (``hidden`` columns left out of the compact view),
    or with ``as_json`` a JSON object of the source, the rows and the notes (the rows whole, or with
    ``columns`` naming some, those with their intervals' bounds) — and, with ``csv``, the table written
    there whole, after ``# `` lines naming its source (``pandas.read_csv(path, comment="#")`` reads it
    back). Column names the table lacks are refused before anything is written. ``keys`` cut a wide
text into blocks that fit 80 columns (:func:`table_text`)."""
    described = {"ginsim": __version__, **source}
    chosen = _chosen(table, columns, hidden) if columns is not None else None
    if csv is not None:
        write_csv(table, source, csv, notes)
    if as_json:
        if chosen is not None and columns != "all":
            table = table[[name for column in chosen for name in (column, f"{column}_low", f"{column}_high")
                           if name in table]]
        rows = json.loads(table.to_json(orient="records"))
        return json.dumps({"source": described, "rows": rows, "notes": list(notes)}, indent=2)
    # Lines break between words, never inside a name such as last-card.
    lines = [*textwrap.wrap(source_line(source), WIDTH, subsequent_indent="  ", break_on_hyphens=False),
             table_text(table, columns, hidden, keys)]
    return "\n".join(lines + [textwrap.fill(f"({note})", WIDTH, break_on_hyphens=False) for note in notes])


def write_csv(table: pd.DataFrame, source: Mapping[str, Any], path: str | os.PathLike[str],
              notes: Sequence[str] = ()) -> None:
    """Write ``table`` whole to ``path`` as CSV after ``# `` lines naming its source and the notes
    (``pandas.read_csv(path, comment="#")`` reads it back), whole or not at all."""
    header = "".join(f"# {line}\n" for line in [source_line(source), *notes])
    body = table.to_csv(index=False)
    atomic_write(Path(path), lambda handle: handle.write((header + body).encode()))


def comparison_text(table: pd.DataFrame, by: Sequence[str]) -> str:
    """A :func:`ginsim.core.comparison.compare` table as aligned text: rates in percentage points, means as
    they are, ``*`` where significant.

    >>> table = pd.DataFrame({"measure": ["gin_rate"], "a": [0.02], "b": [0.15], "difference": [0.13],
    ...                       "low": [0.12], "high": [0.14], "p_holm": [0.0], "significant": [True]})
    >>> print(comparison_text(table, []))
     measure     a      b       b - a [95% interval] p (Holm)
    gin_rate 2.00% 15.00% +13.00 pp [+12.00, +14.00]  <1e-300 *
    """
    shown = table[list(by)].astype(str) if by else pd.DataFrame(index=table.index)
    rate = table["measure"].str.contains("_rate").to_numpy()
    scale = [100.0 if is_rate else 1.0 for is_rate in rate]
    unit = ["%" if is_rate else "" for is_rate in rate]
    shown["measure"] = table["measure"]
    for column in ("a", "b"):
        shown[column] = [f"{value * factor:.2f}{mark}" for value, factor, mark in zip(table[column], scale, unit,
                                                                                        strict=True)]
    shown["b - a [95% interval]"] = [
        f"{difference * factor:+.2f}{' pp' if mark else ''} [{low * factor:+.2f}, {high * factor:+.2f}]"
        for difference, low, high, factor, mark in zip(table["difference"], table["low"], table["high"], scale, unit,
                                                       strict=True)]
    shown["p (Holm)"] = [f"{value:.2g}" if value > 0 else "<1e-300" for value in table["p_holm"]]
    shown[""] = ["*" if flag else "" for flag in table["significant"]]
    return "\n".join(line.rstrip() for line in shown.to_string(index=False).splitlines())
