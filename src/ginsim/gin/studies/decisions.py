"""Decisions recorded from native play: what a strategy saw and chose, for imitation and offline learning.

:func:`record_decisions` plays hands natively (the hands ``simulate`` plays with the same seed) and keeps,
at each decision of the recorded seats, the player's observation in any layout
(``ginsim.gin.game.policy.observations`` documents them), its mask of legal actions, the action it took
(:mod:`ginsim.gin.game.actions`), the hand's index, the seat and, once the hand is over, the hand's points for
that seat; where the rules have a target and a shipped match equity table, also the chance to win the
game after that hand from 0-0.

:func:`record_expert_decisions` records one expert's decisions against opponents in turn on the run layer
(worker processes or a Dask cluster), chunk by chunk into a run directory that a stopped recording
resumes from (``ginsim record``); :func:`load_recording` reads a finished one back for ``ginsim train
--decisions``. The native recorder releases the GIL, but the search strategies' decisions cost
milliseconds, so the chunks go to processes, as a run's hands do.

>>> from ginsim import Rules
>>> rows = record_decisions(Rules(), "marjj,simple", hands=20, seed=1, seats=(0,))
>>> sorted(rows)
['action', 'action_mask', 'equity', 'hand', 'observation', 'points', 'seat']
>>> rows["observation"].shape[1], bool((rows["action_mask"][np.arange(len(rows["action"])), rows["action"]] == 1).all())
(636, True)
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, Unpack

import numpy as np
import numpy.typing as npt

from gincore.errors import InputError
from ginsim.core.checks import as_integer, check_seed, count
from ginsim.core.execution import RunFields, RunOptions, in_slices, joined_columns, run_chunks
from ginsim.core.store import RunDirectory
from ginsim.core.streams import LIMITS
from ginsim.gin.game.equity_tables import match_value_array
from ginsim.gin.game.native import LAYOUT_NAMES, native_record_decisions, run_key
from ginsim.gin.game.players import Player, PlayerSpec, engine, has_python, resolve_players, run_identity
from ginsim.gin.game.rules import Rules, check_rules
from ginsim.gin.game.specs import split_players

__all__ = ["CHUNK_HANDS", "HANDS_PER_RECORDED_CHUNK", "RECORDING_KIND", "load_recording", "record_decisions",
           "record_expert_decisions", "recording_identity"]

CHUNK_HANDS = 4096
"""Hands recorded per native call (progress is reported between calls)."""


def _seat_mask(seats: Sequence[int]) -> int:
    chosen = list(seats)
    if not chosen or any(as_integer(seat) not in (0, 1) for seat in chosen) or len(set(chosen)) != len(chosen):
        raise InputError(f"seats must be 0, 1 or both, once each, got {chosen!r}")
    return sum(1 << int(seat) for seat in chosen)


def equity_after(rules: Rules, points: npt.NDArray[np.int16]) -> npt.NDArray[np.float32] | None:
    """The chance to win the game after a hand that scored ``points`` (signed for the player) from
    0-0, by the rules' shipped match equity table; ``None`` without a target or a shipped table.

    >>> [round(float(value), 2) for value in equity_after(Rules(target=100), np.array([0, 25, -100], np.int16))]
    [0.5, 0.64, 0.0]
    """
    if rules.target is None:
        return None
    values = match_value_array(rules)
    if values is None:
        return None
    target = values.shape[0]
    won = np.clip(points, 0, None).astype(np.int64)
    lost = np.clip(-points, 0, None).astype(np.int64)
    equity = values[np.minimum(won, target - 1), np.minimum(lost, target - 1)]
    equity = np.where(won >= target, 1.0, np.where(lost >= target, 0.0, equity))
    return equity.astype(np.float32)


def record_decisions(rules: Rules, players: str | Sequence[PlayerSpec], hands: int, seed: int,
                     layout: str = "learner", seats: Sequence[int] = (0, 1), first: int = 0, finals: bool = False,
                     progress: Callable[[int], None] | None = None) -> dict[str, npt.NDArray[np.generic]]:
    """Hands ``first`` .. ``first + hands - 1`` of the run with ``seed`` played by ``players`` (built-in
    strategies; Python ones play too, slowly), and every decision of the ``seats`` recorded, one row each
    in the order made: ``observation`` (int8, in ``layout``), ``action_mask`` (int8, 107), ``action``
    (int16), ``hand`` (int64, the hand's index), ``seat`` (int8) and ``points`` (int16, the hand's
    points signed for the seat), and ``equity`` (float32, see :func:`equity_after`) where the rules
    have a target and a shipped table. With ``finals``, each hand's decisions of a seat are followed by
    a row of what it saw once the hand was over (action -1, its mask all 0: an episode's last
    observation). ``progress`` is called with the hands done after each chunk.
    """
    rules = check_rules(rules)
    resolved = resolve_players(players)
    if layout not in LAYOUT_NAMES:
        raise InputError(f"unknown observation layout {layout!r}; layouts: {', '.join(LAYOUT_NAMES)}")
    count, start = as_integer(hands), as_integer(first)
    if count is None or count < 0 or start is None or start < 0:
        raise InputError(f"hands and first must be whole numbers from 0, got {hands!r} and {first!r}")
    mask = _seat_mask(seats)
    hand_engine = engine(rules, resolved)
    key0, key1 = run_key(check_seed(seed))
    chunk = 256 if has_python(resolved) else CHUNK_HANDS
    parts = []
    for done in range(0, count, chunk):
        size = min(chunk, count - done)
        parts.append(native_record_decisions(hand_engine, key0, key1, start + done, size,
                                             LAYOUT_NAMES.index(layout), mask, finals))
        if progress is not None:
            progress(done + size)
    if not parts:
        parts.append(native_record_decisions(hand_engine, key0, key1, start, 0, LAYOUT_NAMES.index(layout), mask))
    rows = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    equity = equity_after(rules, rows["points"])
    if equity is not None:
        rows["equity"] = equity
    return rows


# --- recordings: an expert's decisions on the run layer, into a directory ------------------------------

RECORDING_KIND = "decisions"
"""The ``kind`` of a recording's run directory."""
HANDS_PER_RECORDED_CHUNK = 1000
"""Hands per chunk of a recording: a search's chunk takes about a minute, what a stop may lose."""


def _record_chunk(first: int, hands: int, engines: tuple[Any, ...], key: tuple[int, int], layout: int,
                  rules: Rules) -> dict[str, npt.NDArray[np.generic]]:
    """Hands ``first .. first + hands - 1`` of a recording: hand ``i`` is hand ``i // K`` of the run
    against opponent ``i % K`` (``K`` opponents), so each opponent's hands in a chunk are consecutive
    hands of its own run, recorded together; the rows in the order of ``i``."""
    opponents = len(engines)
    parts = []
    for index, hand_engine in enumerate(engines):
        low = max(0, -(-(first - index) // opponents))
        high = -(-(first + hands - index) // opponents)
        if high > low:
            rows = _recorded(hand_engine, key, layout, low, high - low)
            rows["hand"] = rows["hand"] * opponents + index
            rows["opponent"] = np.full(len(rows["action"]), index, np.int8)
            parts.append(rows)
    rows = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    order = np.argsort(rows["hand"], kind="stable")  # stable: a hand's decisions stay in the order made
    rows = {name: column[order] for name, column in rows.items()}
    equity = equity_after(rules, rows["points"])
    if equity is not None:
        rows["equity"] = equity
    return rows


def _recorded(hand_engine: Any, key: tuple[int, int], layout: int, first: int, count: int
              ) -> dict[str, npt.NDArray[Any]]:
    """The rows of hands ``first .. first + count - 1`` of one opponent's run, recorded natively a short
    slice at a time (Ctrl-C stops between two)."""
    def record(start: int, size: int) -> dict[str, npt.NDArray[Any]]:
        return native_record_decisions(hand_engine, key[0], key[1], start, size, layout, 1, False)

    return joined_columns(in_slices(record, first, count))


def _decisions_in(rows: dict[str, npt.NDArray[np.generic]]) -> int:
    return int(rows["decisions"]) if "decisions" in rows else len(rows["action"])


def _tally(first: dict[str, npt.NDArray[np.generic]], second: dict[str, npt.NDArray[np.generic]]
           ) -> dict[str, npt.NDArray[np.generic]]:
    """Two chunks' (or tallies') decisions counted: a recording read back is not held in memory."""
    return {"decisions": np.array(_decisions_in(first) + _decisions_in(second), np.int64)}


def record_expert_decisions(rules: Rules, expert: PlayerSpec, against: str | Sequence[PlayerSpec], hands: int,
                            seed: int, layout: str = "learner", *, options: RunOptions | None = None,
                            **run: Unpack[RunFields]) -> dict[str, Any]:
    """Record ``expert``'s decisions (seat 0) in ``hands`` hands against the opponents ``against`` in turn:
    hand ``i`` is hand ``i // K`` of the run with ``seed`` (``ginsim replay --players EXPERT,OPPONENT``
    plays it again) against opponent ``i % K`` of the ``K``, so the opponents meet the expert on the same
    deals. Played in chunks on the run layer (``options``: workers, the Dask backend, ``out``); hand
    ``i``'s rows do not depend on the workers or the chunk size. The rows are :func:`record_decisions`'s
    for seat 0, ``hand`` being ``i``, with ``opponent`` (int8, the index of the opponent).

    With ``out``, each chunk is written there as it finishes (a stopped recording resumes, a finished one
    is read, not played again; :func:`load_recording` reads it) and the result is the recording's identity
    with its ``decisions`` counted; without, the rows themselves.

    >>> rows = record_expert_decisions(Rules(), "marjj", "simple,greedy", hands=6, seed=1, workers=1,
    ...                                progress=False)
    >>> int(rows["hand"][0]), sorted(set(rows["opponent"].tolist()))
    (0, [0, 1])
    """
    rules = check_rules(rules)
    chosen = Player.of(expert)
    names = split_players(against) if isinstance(against, str) else list(against)
    if not names:
        raise InputError("name at least one opponent for the expert")
    opponents = [Player.of(item) for item in names]
    if layout not in LAYOUT_NAMES:
        raise InputError(f"unknown observation layout {layout!r}; layouts: {', '.join(LAYOUT_NAMES)}")
    total = count("hands", hands, LIMITS["gin_hands"])
    options = RunOptions.of(options, **run)
    size = options.chunk(HANDS_PER_RECORDED_CHUNK)
    everyone = [chosen, *opponents]
    identity: dict[str, Any] = {"kind": RECORDING_KIND, "rules": rules.to_dict(), **run_identity(everyone),
                                "layout": layout, "seed": check_seed(seed), "size": total, "chunk_size": size}
    engines = tuple(engine(rules, (chosen, opponent)) for opponent in opponents)
    args = (engines, run_key(identity["seed"]), LAYOUT_NAMES.index(layout), rules)
    merge = _tally if options.out is not None else None
    parts = run_chunks(identity, _record_chunk, args, options, "hands", merge=merge, in_process=has_python(everyone))
    if options.out is None:
        return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    return {**identity, "decisions": _decisions_in(parts[0]) if parts else 0}


def recording_identity(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The identity of the finished recording in ``path`` (``InputError`` for another kind of run, or an
    unfinished one)."""
    folder = RunDirectory.read(path)
    if folder.identity.get("kind") != RECORDING_KIND:
        raise InputError(f"{os.fspath(path)} holds a run of kind {folder.identity.get('kind')!r}, not a recording "
                         "of decisions (ginsim record)")
    missing = folder.chunk_count() - len(folder.finished())
    if missing:
        raise InputError(f"{os.fspath(path)} is an unfinished recording ({missing:,} of {folder.chunk_count():,} "
                         "chunks to record); run its ginsim record command again to finish it")
    return dict(folder.identity)


def load_recording(path: str | os.PathLike[str]) -> dict[str, npt.NDArray[np.generic]]:
    """Every row of the finished recording in ``path``, in order, each part checked as it is read."""
    recording_identity(path)
    parts = list(RunDirectory.read(path).read_arrays())
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
