"""The runs page's reading of a folder of runs (``ginsim serve --runs DIR``): the run and sweep
directories under it, a run's summary, a sweep's cells side by side and any hand of a run replayed.
Nothing outside the folder is read: every path is relative to it, and one that leaves it (``..``, an
absolute path, a symbolic link out, or a run directory holding one) is refused, as is a run directory
holding a file that is not a regular file (a FIFO would hold its reader forever). Messages name paths
relative to the folder, never where the folder is.

>>> import tempfile
>>> root = tempfile.mkdtemp()
>>> inside(root, "../etc")
Traceback (most recent call last):
    ...
gincore.errors.InputError: the path leaves the runs folder: ../etc
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import gincore
from gincore.errors import InputError
from ginsim.core.store import RUN_FILE, RunDirectory
from ginsim.games import describe_run, kind_of, replay_hand, summarize_run
from ginsim.gin.game.rules import PRESETS
from ginsim.gin.studies.sweep import SWEEP_FILE

__all__ = ["MOST_LISTED", "hand_steps", "inside", "listing", "summary", "sweep_cells"]

MOST_LISTED: Final = 1000
"""The most run directories listed."""
_DEPTH: Final = 4


def inside(root: str | os.PathLike[str], relative: str) -> Path:
    """The path ``relative`` names under ``root``, refused when it leaves it."""
    if not isinstance(relative, str) or "\x00" in relative or len(relative) > 4096:
        raise InputError("a path is text relative to the runs folder")
    parts = Path(relative).parts
    if Path(relative).is_absolute() or ".." in parts:
        raise InputError(f"the path leaves the runs folder: {relative}")
    base = Path(root).resolve()
    try:
        target = (base / relative).resolve()
        if not _within(base, target):
            raise InputError(f"the path leaves the runs folder: {relative}")
        if target.is_dir():
            unreadable = _unreadable(base, target)
            if unreadable is not None:
                raise InputError(("the path leaves the runs folder: " if "link out" in unreadable
                                  else "the path cannot be read: ") + unreadable)
    except OSError as error:  # a name too long, a loop of links, a folder that may not be read
        raise InputError(f"the path cannot be read: {error.strerror or error}") from None
    return target


def _within(base: Path, path: Path) -> bool:
    return path == base or base in path.parents


def _unreadable(base: Path, folder: Path) -> str | None:
    """What under ``folder`` may not be read, said relative to ``base``: a symbolic link out of ``base``, or
    a file that is not a regular file (a FIFO, a socket, a device: reading one could wait forever)."""
    for here, names, files in os.walk(folder, followlinks=False):
        for name in (*names, *files):
            path = Path(here) / name
            shown = path.relative_to(base).as_posix()
            if path.is_symlink():
                if not _within(base, path.resolve()):
                    return f"{shown} is a link out of the runs folder"
            elif name in files and not path.is_file():
                return f"{shown} is not a regular file"
    return None


@contextmanager
def _relative_messages(root: str | os.PathLike[str]) -> Iterator[None]:
    """Refusals that name the runs folder's paths relative to it (where the folder is, is not told)."""
    base = str(Path(root).resolve())
    try:
        yield
    except InputError as error:
        raise InputError(_relative_text(base, str(error))) from None


def _relative_text(base: str, text: str) -> str:
    return text.replace(base + os.sep, "").replace(base, ".")


def listing(root: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The run and sweep directories under ``root`` (up to four levels down, symbolic links not
    followed), each with its path relative to ``root``, kind and one-line description."""
    base = Path(root).resolve()
    found: list[dict[str, Any]] = []
    for folder, names, files in os.walk(base, followlinks=False):
        here = Path(folder)
        depth = len(here.relative_to(base).parts)
        names[:] = sorted(name for name in names if not name.startswith(".")) if depth < _DEPTH else []
        relative = here.relative_to(base).as_posix()
        if SWEEP_FILE in files:
            found.append({"path": relative, "kind": "sweep", "description": f"sweep of {len(names)} cells"})
            names[:] = []
        elif RUN_FILE in files:
            try:
                unreadable = _unreadable(base, here)
                if unreadable is not None:
                    raise InputError(f"{unreadable}: not read")
                identity = RunDirectory.read(here).identity
                found.append({"path": relative, "kind": str(identity.get("kind")),
                              "description": describe_run(identity), "about": _about(identity)})
            except InputError as error:
                found.append({"path": relative, "kind": "damaged",
                              "description": _relative_text(str(base), str(error))})
        if len(found) >= MOST_LISTED:
            break
    return found


def _about(identity: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a run's description that the page words in its own language: the preset its rules
    are (else ``other_rules``, the rules as :meth:`Rules.label` names them), the players, the size and
    its unit, and the seed."""
    kind = kind_of(identity)
    rules = identity.get("rules")
    preset = next((name for name, preset in PRESETS.items() if kind.game == "gin" and preset.to_dict() == rules), None)
    other = kind.rules.from_dict(rules).label() if isinstance(rules, Mapping) and preset is None else None
    return {"rules": preset, "other_rules": other, "players": [str(player) for player in identity.get("players") or []],
            "size": identity.get("size"), "unit": kind.unit, "duplicate": bool(identity.get("duplicate")),
            "seed": identity.get("seed")}


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def summary(root: str | os.PathLike[str], relative: str, by: str | None) -> dict[str, Any]:
    """A run's summary grouped ``by`` (``None``: the whole run) as columns and rows."""
    with _relative_messages(root):
        frame = summarize_run(inside(root, relative), by)
    frame = frame.reset_index() if by is not None and by not in frame.columns else frame
    return {"columns": [str(column) for column in frame.columns],
            "rows": [[_clean(value) for value in row] for row in frame.itertuples(index=False)]}


def sweep_cells(root: str | os.PathLike[str], relative: str) -> dict[str, Any]:
    """Each cell of a sweep with its whole-run summary, side by side."""
    with _relative_messages(root):
        folder = inside(root, relative)
    if not (folder / SWEEP_FILE).is_file():
        raise InputError(f"{relative} is not a sweep directory")
    cells = []
    for cell in sorted(path for path in folder.iterdir() if (path / RUN_FILE).is_file()):
        cell_summary = summary(root, cell.relative_to(Path(root).resolve()).as_posix(), None)
        cells.append({"cell": cell.name, **cell_summary})
    return {"cells": cells}


def hand_steps(root: str | os.PathLike[str], relative: str, hand: int) -> dict[str, Any]:
    """Hand ``hand`` of a run played again: the deal and every event with both hands after it."""
    with _relative_messages(root):
        result = replay_hand(inside(root, relative), hand)
    held = list(result.dealt)
    steps = [{"event": "deal", "player": -1, "card": None, "hands": [_cards(held[0]), _cards(held[1])]}]
    for event in result.events:
        kind, player, card = str(event.kind), int(event.player), int(event.card)
        card = card if 0 <= card < 52 else -1  # a reshuffle names no card
        if kind in ("take_upcard", "draw_stock", "draw_discard", "drawn") and card >= 0:
            held[player] |= 1 << card
        elif kind in ("discard", "knock", "gin") and card >= 0:
            held[player] &= ~(1 << card)
        steps.append({"event": kind, "player": player, "card": None if card < 0 else gincore.card_text(card),
                      "hands": [_cards(held[0]), _cards(held[1])]})
    return {"players": list(result.players), "outcome": result.outcome.value, "winner": result.winner,
            "points": result.points, "upcard": gincore.card_text(result.upcard), "text": result.to_text(),
            "steps": steps}


def _cards(mask: int) -> list[str]:
    return [gincore.card_text(card) for card in gincore.cards_of(mask)]
