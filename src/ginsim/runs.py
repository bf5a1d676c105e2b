"""The game-independent run layer: a run is cut into chunks of consecutive indices, played on
local processes or a Dask cluster, and optionally stored chunk by chunk in a run directory.

Each game supplies a task ``task(first, count, *args)`` that plays its items ``first .. first+count-1``
and an identity (kind, rules, players, seed, size, chunk size) saved with the run. Because item ``i``
depends only on the identity and ``i``, the results are identical for any number of workers, chunk
size or backend, and a stored run resumes where it stopped.

>>> def squares(first: int, count: int) -> list[int]:
...     return [i * i for i in range(first, first + count)]
>>> identity = {"kind": "squares", "size": 5, "chunk_size": 2}
>>> run_chunks(identity, squares, (), workers=1, backend="local", scheduler=None, progress=False,
...            out=None, unit="items")
[[0, 1], [4, 9], [16]]
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import pandas as pd
from tqdm import tqdm

from gincore.errors import InputError
from ginsim.checks import positive
from ginsim.comparison import Measures
from ginsim.fields import RuleSet
from ginsim.store import RunDirectory, RunDirectoryError

__all__ = ["BACKENDS", "LOG", "RunInterrupted", "RunKind", "load_run", "run_chunks", "worker_count"]

LOG = logging.getLogger("ginsim")
"""Where runs say what they reuse from a run directory (INFO); the command line shows it on stderr."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run into a directory: the message says how many chunks are kept."""


BACKENDS = ("local", "dask")
# Forked workers start at once and need no ``if __name__ == "__main__"`` guard in the caller's
# script; where fork does not exist, spawn.
_POOL_CONTEXT = multiprocessing.get_context(
    "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def worker_count(workers: int | None, in_process: bool = False) -> int:
    """The number of worker processes: every core unless given; one when the run has to stay
    ``in_process`` (a Python strategy defined in a notebook or script may not reach other processes).

    >>> worker_count(3), worker_count(None, in_process=True)
    (3, 1)
    """
    if workers is None and in_process:
        return 1
    if workers is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return positive("workers", workers)


def _execute(task: Callable[..., Any], args: tuple[Any, ...], chunks: Sequence[tuple[int, int]],
             workers: int, backend: str, scheduler: str | None, progress: bool | None, unit: str,
             done: Callable[[int, Any], None]) -> None:
    """Run ``task(first, count, *args)`` for every chunk and hand each result to ``done``."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise InputError("a scheduler address goes with backend='dask'")
    show = sys.stderr.isatty() if progress is None else progress

    def progress_bar() -> Any:
        return tqdm(total=sum(count for _, count in chunks), unit=f" {unit}", unit_scale=True,
                    disable=not show or not chunks, smoothing=0.05, dynamic_ncols=True)

    if backend == "dask":
        with progress_bar() as bar:
            _execute_dask(task, args, chunks, workers, scheduler, bar, done)
    elif workers == 1 or len(chunks) <= 1:
        with progress_bar() as bar:
            for first, count in chunks:
                done(first, task(first, count, *args))
                bar.update(count)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=_POOL_CONTEXT) as pool:
            # Every worker starts while submitting, before the progress bar starts its thread.
            futures = {pool.submit(task, first, count, *args): (first, count) for first, count in chunks}
            with progress_bar() as bar:
                for future in as_completed(futures):
                    first, count = futures[future]
                    done(first, future.result())
                    bar.update(count)


def _execute_dask(task: Callable[..., Any], args: tuple[Any, ...], chunks: Sequence[tuple[int, int]],
                  workers: int, scheduler: str | None, bar: Any, done: Callable[[int, Any], None]) -> None:
    try:
        from distributed import Client, LocalCluster
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InputError("the dask backend needs the 'distributed' package: pip install 'ginsim[dask]'") from None
    import dask

    cluster = None
    try:
        if scheduler is None:
            # Forked workers, as in the local pool: a script without a ``__main__`` guard is not run again
            # in every worker (spawned workers would, and fail to start).
            with dask.config.set({"distributed.worker.multiprocessing-method": _POOL_CONTEXT.get_start_method()}):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="5s")
    except (OSError, TimeoutError) as error:
        if cluster is not None:
            cluster.close()
        raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    except RuntimeError as error:  # "Nanny failed to start": spawned workers re-ran an unguarded script
        raise InputError(f"the local Dask workers did not start ({error}); put the script's code under "
                         "if __name__ == '__main__':") from None
    try:
        futures = {client.submit(task, first, count, *args, pure=False): (first, count)
                   for first, count in chunks}
        for future in dask_completed(list(futures)):
            first, count = futures[future]
            done(first, future.result())
            bar.update(count)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _chunks(total: int, size: int, skip: Iterable[int] = (), start: int = 0) -> list[tuple[int, int]]:
    finished = set(skip)
    return [(first, min(size, total - first)) for first in range(start, total, size) if first not in finished]


def run_chunks(identity: dict[str, Any], task: Callable[..., Any], args: tuple[Any, ...], workers: int,
               backend: str, scheduler: str | None, progress: bool | None,
               out: str | os.PathLike[str] | None, unit: str, start: int = 0) -> list[Any]:
    """Play the run that ``identity`` describes (its ``size`` items in chunks of ``chunk_size``) with
    ``task(first, count, *args)``; the chunks' results in order. ``start`` skips the items before it
    (a run grown batch by batch; not with ``out``).

    With ``out`` every finished chunk is written there (a DataFrame as Parquet, a dict of arrays as
    numpy), chunks already there are not played again, and the results are read back from it (all
    frames as one DataFrame).
    """
    if start and out is not None:
        raise ValueError("a run into a directory starts at item 0")
    run = RunDirectory.open(out, identity) if out is not None else None
    results: dict[int, Any] = {}

    def done(first: int, result: Any) -> None:
        if run is None:
            results[first] = result
        elif isinstance(result, pd.DataFrame):
            run.write_frame(first, result)
        else:
            run.write_arrays(first, result)

    chunks = _chunks(identity["size"], identity["chunk_size"], run.finished() if run else (), start)
    total = len(range(0, identity["size"], identity["chunk_size"]))
    if run is not None and len(chunks) < total:
        kept = total - len(chunks)
        LOG.info("%s: %s", run.path, "the run was played before: reading it, playing nothing" if not chunks else
                 f"resuming: {kept} of {total} chunks were played before; playing the other {len(chunks)}")
    try:
        _execute(task, args, chunks, workers, backend, scheduler, progress, unit, done)
    except KeyboardInterrupt:
        if run is None:
            raise
        raise RunInterrupted(f"{len(run.finished())} of {total} chunks are kept in {run.path}; the same call "
                             "again resumes the run") from None
    if run is None:
        return [results[first] for first in sorted(results)]
    return [run.read_frame()] if run.holds_frames() else run.read_arrays()


@dataclass(frozen=True)
class RunKind:
    """One kind of run a directory can hold: its game, what its size counts, how it is read back and
    summarised. Each game declares its kinds; :mod:`ginsim.games` gathers them."""

    name: str
    """The ``kind`` in the run directory's identity."""
    game: str
    """``"gin"`` or ``"rummy"``."""
    unit: str
    """What the run's ``size`` counts: ``"hands"``, ``"matches"`` or ``"games"``."""
    rules: type[RuleSet]
    """The rules class of the game, to read the identity's rules back."""
    load: Callable[[RunDirectory], Any]
    """The results of a complete run directory (records, or counts)."""
    summarize: Callable[[Any, Any], pd.DataFrame]
    """``summarize(results, by)``: the run's summary table."""
    groups: tuple[str, ...]
    """What ``by`` may name (one or several of these, or ``None``)."""
    default_by: str | None
    """The grouping of ``ginsim summary`` when none is given."""
    measures: Callable[[Any], Measures] | None = None
    """The run's items for :func:`ginsim.comparison.compare` (``None`` where the results keep no rows)."""
    replay: Callable[[Mapping[str, Any], int], Any] | None = None
    """``replay(identity, index)``: item ``index`` of the run played again alone with its trace (an
    object with ``to_text(symbols)`` and ``to_json()``); ``None`` where the items are not hands."""


def load_run(path: str | os.PathLike[str], kinds: Mapping[str, RunKind]) -> tuple[RunKind, dict[str, Any], Any]:
    """A complete run directory of one of ``kinds``: its kind, its identity and its results."""
    run = RunDirectory.read(path)
    name = run.identity.get("kind")
    kind = kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        raise RunDirectoryError(f"{os.fspath(path)} holds a run of kind {name!r}, "
                                f"not one of {', '.join(kinds)}")
    return kind, dict(run.identity), kind.load(run)
