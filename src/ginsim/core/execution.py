"""The game-independent run layer: a run is cut into chunks of consecutive indices, played on
local processes or a Dask cluster, and optionally stored chunk by chunk in a run directory.

Each game supplies a task ``task(first, count, *args)`` that plays its items ``first .. first+count-1``
and an identity (kind, rules, players, seed, size, chunk size) saved with the run. Because item ``i``
depends only on the identity and ``i``, the results are identical for any number of workers, chunk
size or backend, and a stored run resumes where it stopped.

>>> def squares(first: int, count: int) -> list[int]:
...     return [i * i for i in range(first, first + count)]
>>> identity = {"kind": "squares", "size": 5, "chunk_size": 2}
>>> run_chunks(identity, squares, (), RunOptions(workers=1, progress=False), unit="items")
[[0, 1], [4, 9], [16]]

Where and how a run is played and kept (workers, backend, directory, chunk size, scheduler, progress
bar, repair) is one :class:`RunOptions` value, which every run function of both games takes, as
``options=`` or as its fields one by one (:class:`RunFields`, declared once for all of them).
"""
from __future__ import annotations

import contextlib
import contextvars
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final, TypedDict, TypeVar, Unpack

import numpy as np
import pandas as pd
from tqdm import tqdm

from gincore.errors import InputError
from ginsim._version import install_command
from ginsim.core.checks import count
from ginsim.core.comparison import Measures
from ginsim.core.fields import RuleSet
from ginsim.core.store import RUN_FILE, RunDirectory, RunDirectoryError

__all__ = ["BACKENDS", "LOG", "MAX_CHUNK_SIZE", "MAX_WORKERS", "SLICE_SECONDS", "RunFields", "RunIdentity",
           "RunInterrupted", "RunKind", "RunOptions", "identified", "in_slices", "interruptible", "joined_columns",
           "load_run", "on_threads", "one_pool", "run_chunks", "run_threads", "worker_count"]

LOG = logging.getLogger("ginsim")
_Item = TypeVar("_Item")
_Result = TypeVar("_Result")
"""Where runs say what they reuse from a run directory (INFO); the command line shows it on stderr."""

MAX_CHUNK_SIZE: Final = 10_000_000
"""The most items in one chunk: a worker builds a chunk's results in memory at once."""
MAX_WORKERS: Final = 1024
"""The most worker processes a run starts (each is a whole Python process)."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run into a directory: the message says how many chunks are kept;
    ``signal_number`` is the signal that stopped the run."""

    def __init__(self, message: str, signal_number: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.signal_number = signal_number


class _Terminated(KeyboardInterrupt):
    """SIGTERM during a run, which stops it as Ctrl-C does."""


BACKENDS = ("local", "dask")
# Forked workers start at once and need no ``if __name__ == "__main__"`` guard in the caller's
# script; where fork does not exist, spawn.
_POOL_CONTEXT = multiprocessing.get_context(
    "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
_IN_FLIGHT_PER_WORKER: Final = 2
"""Chunks handed out per worker at a time: the next is ready when one ends, and the chunks of a run are
made one by one as they are handed out (a run may have more chunks than memory holds)."""
_PARENT_CHECK_SECONDS: Final = 0.5


class _SharedPool:
    """The worker processes that the local runs made within :func:`one_pool` share: started by the first
    run that needs them, ended when the block ends (or when a run stops them, to be started again)."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.workers = 0

    def get(self, workers: int) -> ProcessPoolExecutor:
        if self.pool is None or self.workers < workers:
            self.close()
            self.pool, self.workers = _new_pool(workers), workers
        return self.pool

    def lost(self) -> None:
        """The pool was stopped (a run failed or was interrupted): the next run starts another."""
        self.pool, self.workers = None, 0

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        self.lost()


_SHARED: contextvars.ContextVar[_SharedPool | None] = contextvars.ContextVar("ginsim_shared_pool", default=None)


@contextlib.contextmanager
def one_pool() -> Iterator[None]:
    """Within the block, the runs played on local worker processes (of this thread) share one pool of
    them, started once: a study of many runs (a sweep's cells) pays for starting workers once, not per
    run. The results are the same as without it.

    >>> import operator
    >>> identity = {"kind": "sums", "size": 4, "chunk_size": 2}   # a chunk's result: first + count
    >>> with one_pool():   # two runs, one pool of two workers
    ...     [run_chunks(identity, operator.add, (), RunOptions(workers=2, progress=False), unit="items")
    ...      for _ in range(2)]
    [[2, 4], [2, 4]]
    """
    shared = _SharedPool()
    token = _SHARED.set(shared)
    try:
        yield
    except BaseException:
        if shared.pool is not None:
            _stop(shared.pool)
            shared.lost()
        raise
    finally:
        _SHARED.reset(token)
        shared.close()


def run_threads(task: Callable[[_Item], _Result], items: Sequence[_Item], workers: int | None,
                done: Callable[[_Result], None] | None = None) -> list[_Result]:
    """The thread backend, for work that releases the GIL (native kernels) or cannot be sent to other
    processes: ``task(item)`` for every item on up to ``workers`` threads (:func:`worker_count`'s), each
    result handed to ``done`` as it comes; the results in the order of ``items``. A failure cancels what
    has not started and is raised.

    >>> run_threads(abs, [-1, 2, -3], workers=2)
    [1, 2, 3]
    """
    threads = min(len(items), worker_count(workers))
    if threads <= 1:
        results = []
        for item in items:
            results.append(task(item))
            if done is not None:
                done(results[-1])
        return results
    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(task, item) for item in items]
        try:
            for future in as_completed(futures):
                if done is not None:
                    done(future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return [future.result() for future in futures]


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
    return count("workers", workers, MAX_WORKERS)


class RunFields(TypedDict, total=False):
    """The fields of :class:`RunOptions` as keywords, the way every run function takes them one by one
    (``**run: Unpack[RunFields]``, beside ``options=``): ``workers``, ``backend``, ``out``,
    ``chunk_size``, ``scheduler``, ``progress`` and ``repair``, with the meanings and defaults of
    :class:`RunOptions`. A field left out takes its default.

    >>> def play(hands: int, *, options: RunOptions | None = None, **run: Unpack[RunFields]) -> RunOptions:
    ...     return RunOptions.of(options, **run)
    >>> play(10, workers=2, progress=False).workers
    2
    """

    workers: int | None
    backend: str
    out: str | os.PathLike[str] | None
    chunk_size: int | None
    scheduler: str | None
    progress: bool | None
    repair: bool


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """Where and how a run is played and kept, apart from what it plays; taken by every run function of
    both games (as ``options=``, or its fields one by one as keywords) and built once by the command line.

    ``workers``: processes (None: every core, one when a Python strategy must stay in this process);
    ``backend``: ``"local"`` (a process pool) or ``"dask"`` (the cluster at ``scheduler``, a ``tcp://``
    address, or a ``LocalCluster`` started for the run); ``out``: the run directory, each finished chunk
    written there and a stopped run resumed; ``chunk_size``: items per chunk (None: the run's own
    default); ``progress``: the progress bar (None: on a terminal); ``repair``: move damaged or foreign
    parts of ``out`` aside and play their chunks again.

    >>> RunOptions(workers=2, out="runs/a")
    RunOptions(workers=2, backend='local', out='runs/a', chunk_size=None, scheduler=None, progress=None, repair=False)
    >>> RunOptions(backend="spark")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: unknown backend 'spark'; choose from local, dask
    """

    workers: int | None = None
    backend: str = "local"
    out: str | os.PathLike[str] | None = None
    chunk_size: int | None = None
    scheduler: str | None = None
    progress: bool | None = None
    repair: bool = False

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise InputError(f"unknown backend {self.backend!r}; choose from {', '.join(BACKENDS)}")
        if self.scheduler is not None and self.backend != "dask":
            raise InputError("a scheduler address goes with backend='dask'")
        if self.workers is not None:
            worker_count(self.workers)
        if self.chunk_size is not None:
            count("chunk_size", self.chunk_size, MAX_CHUNK_SIZE)

    @classmethod
    def of(cls, options: RunOptions | None, **given: Unpack[RunFields]) -> RunOptions:
        """The run options of a call: ``options``, or else the fields ``given`` one by one (a run
        function's ``**run`` keywords); both at once is refused, so that neither silently wins, and a
        keyword that is no field is refused by name.

        >>> RunOptions.of(None, workers=1).workers, RunOptions.of(RunOptions(workers=2), workers=None).workers
        (1, 2)
        >>> RunOptions.of(None, wokers=2)  # type: ignore[call-arg]
        Traceback (most recent call last):
            ...
        TypeError: unexpected keyword argument 'wokers' (the run options are workers, backend, out, chunk_size, \
scheduler, progress, repair)
        """
        defaults = {field.name: field.default for field in fields(cls)}
        unknown = [name for name in given if name not in defaults]
        if unknown:
            raise TypeError(f"unexpected keyword argument {unknown[0]!r} (the run options are "
                            f"{', '.join(defaults)})")
        if options is None:
            return cls(**given)
        if not isinstance(options, RunOptions):
            raise InputError(f"options must be RunOptions, got {type(options).__name__}")
        both = [name for name, value in given.items() if value != defaults[name]]
        if both:
            raise InputError(f"the run options are given both as options= and one by one ({', '.join(both)}): "
                             "give them one way")
        return options

    def chunk(self, default: int) -> int:
        """The items per chunk: ``chunk_size``, else the run's ``default``."""
        return default if self.chunk_size is None else self.chunk_size

    def directory(self) -> Path | None:
        """``out`` as a path, if any."""
        return None if self.out is None else Path(self.out)


_STOPPING_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM})
"""The signals that stop a run, held from a worker until it has set its own handling of them."""


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold the signals that stop a run in this thread while it may start worker processes: a worker
    starts with them held, so that neither reaches it before :func:`_worker_started` has set its own
    handling (the parent's, which a forked worker inherits, would raise inside the worker's start and
    print a traceback). A signal that comes meanwhile reaches this thread when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: workers are spawned, with handlers of their own
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_started(parent: int) -> None:
    """In every pool worker: Ctrl-C is the parent's to handle (it stops the pool), SIGTERM ends the worker
    at once (not as the parent's handler, which a forked worker inherits, would), and the worker ends
    when its parent does, however the parent ends (``kill -9`` included). The worker starts with both
    signals held (:func:`_signals_held`): a SIGTERM sent while it started ends it here, without a word."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_end_with, args=(parent,), name="ginsim-parent-watch", daemon=True).start()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING_SIGNALS)


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_PARENT_CHECK_SECONDS)
    os._exit(1)


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """While a run plays in the main thread: SIGTERM stops it as Ctrl-C does (unless the program
    handles SIGTERM itself)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def interrupt(number: int, frame: object) -> None:
        raise _Terminated()

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _execute(task: Callable[..., Any], args: tuple[Any, ...], chunks: Iterator[tuple[int, int]], chunk_count: int,
             items: int, workers: int, backend: str, scheduler: str | None, progress: bool | None, unit: str,
             done: Callable[[int, Any], None]) -> None:
    """Run ``task(first, count, *args)`` for every chunk (``chunk_count`` chunks of ``items`` items in
    all, made one by one) and hand each result to ``done``."""
    show = sys.stderr.isatty() if progress is None else progress

    def progress_bar() -> Any:
        return tqdm(total=items, unit=f" {unit}", unit_scale=True, disable=not show or not chunk_count,
                    smoothing=0.05, dynamic_ncols=True)

    if backend == "dask" or (workers > 1 and chunk_count > 1):
        _check_sendable(task, args)
    if backend == "dask":
        _execute_dask(task, args, chunks, workers, scheduler, progress_bar, done)
    elif workers == 1 or chunk_count <= 1:
        with progress_bar() as bar:
            for first, count in chunks:
                done(first, task(first, count, *args))
                bar.update(count)
    else:
        _execute_pool(task, args, chunks, min(workers, chunk_count), progress_bar, done)


SLICE_SECONDS: Final = 0.25
"""About the longest one native call of a chunk runs. A native call cannot be stopped, and Ctrl-C reaches
the program between two: a run stops within about this long, whatever its strategies' speed."""


def in_slices(play: Callable[[int, int], _Result], first: int, count: int) -> list[_Result]:
    """``play(start, size)`` over consecutive slices of the items ``first .. first+count-1``, in order, each
    slice short: the first of one item, each next sized to take about ``SLICE_SECONDS`` by the one before
    (growing at most fourfold). A chunk's task plays its items so, as an item's result does not depend on
    the slice it is played in: Ctrl-C stops a chunk of a slow strategy's hands within a moment.

    >>> in_slices(lambda start, size: list(range(start, start + size)), 10, 6)[0]   # the first slice: one item
    [10]
    >>> sum(in_slices(lambda start, size: list(range(start, start + size)), 10, 6), [])
    [10, 11, 12, 13, 14, 15]
    """
    parts = []
    played, size = 0, 1
    while played < count:
        size = min(size, count - played)
        started = time.perf_counter()
        parts.append(play(first + played, size))
        seconds = time.perf_counter() - started
        played += size
        size = max(1, min(4 * size, int(size * SLICE_SECONDS / max(seconds, 1e-6))))
    return parts


def joined_columns(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Column arrays of consecutive slices as one set of columns (a row per item, the slices in order).

    >>> joined_columns([{"hand": np.array([0, 1])}, {"hand": np.array([2])}])["hand"].tolist()
    [0, 1, 2]
    """
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}


def _check_sendable(task: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """Refuse, in one line, a run whose task cannot be sent to worker processes (an object that does not
    pickle, such as a Python strategy holding a lambda or an open file)."""
    try:
        pickle.dumps((task, args))
    except Exception as error:  # pickle raises PicklingError, TypeError or AttributeError, by the object
        raise InputError(f"the run cannot be sent to worker processes ({type(error).__name__}: {error}); play it "
                         "with one worker, or give a Python strategy as file.py:Class or module:Class") from None


def _new_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=_POOL_CONTEXT, initializer=_worker_started,
                               initargs=(os.getpid(),))


def _execute_pool(task: Callable[..., Any], args: tuple[Any, ...], chunks: Iterator[tuple[int, int]], workers: int,
                  progress_bar: Callable[[], Any], done: Callable[[int, Any], None]) -> None:
    shared = _SHARED.get()
    pool = _new_pool(workers) if shared is None else shared.get(workers)
    pending: dict[Future[Any], tuple[int, int]] = {}

    def hand_out(number: int) -> None:
        for first, count in itertools.islice(chunks, number):
            with _signals_held():  # a submit may start the workers
                pending[pool.submit(task, first, count, *args)] = (first, count)

    try:
        hand_out(_IN_FLIGHT_PER_WORKER * workers)  # every worker starts here, before the bar starts its thread
        with progress_bar() as bar:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda future: pending[future]):
                    first, count = pending.pop(future)
                    done(first, future.result())
                    bar.update(count)
                    hand_out(1)
    except BaseException:
        _stop(pool)
        if shared is not None:
            shared.lost()
        raise
    if shared is None:
        pool.shutdown()


def _stop(pool: ProcessPoolExecutor) -> None:
    """End a pool at once: the chunks not started are dropped and the workers ended (the chunks they
    were playing are lost; none is half-written, parts being written by this process)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way to end running workers
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    # The pool's manager thread ends once its workers have: wait for it, so that a pool forked next does not
    # copy a lock the thread holds (a forked worker that then needs it would wait forever).
    if manager is not None:
        manager.join(10)


def _execute_dask(task: Callable[..., Any], args: tuple[Any, ...], chunks: Iterator[tuple[int, int]], workers: int,
                  scheduler: str | None, progress_bar: Callable[[], Any], done: Callable[[int, Any], None]) -> None:
    try:
        from distributed import Client, LocalCluster
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InputError(f"the dask backend needs the 'distributed' package: {install_command('dask')}") from None
    import dask

    if scheduler is not None:
        _check_address(scheduler)
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
    except (ValueError, TypeError) as error:  # an address that is none, e.g. without its port
        raise InputError(f"{scheduler!r} is not a Dask scheduler address ({error}); write tcp://host:port") from None
    except RuntimeError as error:  # "Nanny failed to start": spawned workers re-ran an unguarded script
        raise InputError(f"the local Dask workers did not start ({error}); put the script's code under "
                         "if __name__ == '__main__':") from None
    try:
        pending: dict[Any, tuple[int, int]] = {}
        threads = max(workers, sum(client.nthreads().values()))
        for first, count in itertools.islice(chunks, _IN_FLIGHT_PER_WORKER * threads):
            pending[client.submit(task, first, count, *args, pure=False)] = (first, count)
        completed = dask_completed(list(pending))
        with progress_bar() as bar:
            for future in completed:
                first, count = pending.pop(future)
                done(first, future.result())
                bar.update(count)
                for following in itertools.islice(chunks, 1):
                    submitted = client.submit(task, *following, *args, pure=False)
                    pending[submitted] = following
                    completed.add(submitted)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _check_address(scheduler: str) -> None:
    """Refuse a TCP scheduler address that names no host and port, before any connection is tried."""
    from distributed.comm.addressing import get_address_host_port, parse_address

    try:
        if parse_address(scheduler)[0] in ("tcp", "tls"):
            get_address_host_port(scheduler)
    except ValueError as error:
        raise InputError(f"{scheduler!r} is not a Dask scheduler address ({error}); write tcp://host:port") from None


def _chunks(total: int, size: int, skip: set[int], start: int) -> Iterator[tuple[int, int]]:
    """The chunks of items ``start .. total - 1`` not in ``skip``, made as they are asked for."""
    return ((first, min(size, total - first)) for first in range(start, total, size) if first not in skip)


@dataclass(frozen=True)
class RunIdentity:
    """What a run is, as its directory's ``_run.json`` holds it, returned with its results (a frame's
    ``attrs["identity"]``, a stream's ``Counts.identity``) so that what reports a run reads it rather than
    building it again: the ``kind`` of run, its ``players``' names, ``seed`` and ``size``, and ``fields``,
    every field in the order stored (the rules, the chunk size, a Python strategy's origin …).

    >>> identity = RunIdentity.of({"kind": "hands", "rules": {}, "players": ["simple", "gin"], "seed": 1, "size": 9})
    >>> identity.players, identity.size, identity.to_dict()["kind"]
    (('simple', 'gin'), 9, 'hands')
    """

    kind: str
    players: tuple[str, ...]
    seed: int | None
    size: int
    fields: dict[str, Any]

    @classmethod
    def of(cls, fields: Mapping[str, Any]) -> RunIdentity:
        """The identity of a run from its fields."""
        return cls(str(fields["kind"]), tuple(fields.get("players", ())), fields.get("seed"), int(fields["size"]),
                   dict(fields))

    @property
    def rules(self) -> dict[str, Any]:
        """The rule fields the run was played under."""
        return dict(self.fields.get("rules") or {})

    def to_dict(self) -> dict[str, Any]:
        """Every field, as stored."""
        return dict(self.fields)


def on_threads(run: RunOptions, what: str) -> int:
    """The threads ``what`` (a study whose work releases the GIL, run in this process) plays on under ``run``:
    its ``workers`` (every core by default); a directory, a chunk size, a repair or Dask are refused.

    >>> on_threads(RunOptions(workers=2), "the analysis")
    2
    >>> on_threads(RunOptions(out="somewhere"), "the analysis")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: the analysis runs on threads in this process: it takes no out, chunk_size, ...
    """
    if run.out is not None or run.chunk_size is not None or run.repair or run.backend != "local":
        raise InputError(f"{what} runs on threads in this process: it takes no out, chunk_size, repair or dask "
                         "backend")
    return worker_count(run.workers)


def identified(frame: pd.DataFrame, identity: Mapping[str, Any]) -> pd.DataFrame:
    """``frame`` with the identity of the run it holds as ``frame.attrs["identity"]`` (a :class:`RunIdentity`)."""
    frame.attrs["identity"] = RunIdentity.of(identity)
    return frame


def run_chunks(identity: dict[str, Any], task: Callable[..., Any], args: tuple[Any, ...], options: RunOptions,
               unit: str, start: int = 0, *, merge: Callable[[Any, Any], Any] | None = None,
               in_process: bool = False) -> list[Any]:
    """Play the run that ``identity`` describes (its ``size`` items in chunks of ``chunk_size``) with
    ``task(first, count, *args)`` as ``options`` say (``in_process``: one worker unless they name more,
    for a Python strategy that may not reach other processes); the chunks' results in order. ``start``
    skips the items before it (a run grown batch by batch; not with ``out``). With ``merge``, results
    are combined as they come (``merge(a, b)``, in any order) and the one result is returned alone in
    the list.

    With ``out`` every finished chunk is written there (a DataFrame as Parquet, a dict of arrays as
    numpy), chunks already there are not played again, and the results are read back from it (all
    frames as one DataFrame); ``repair`` moves damaged or foreign parts aside and plays their chunks
    again. Ctrl-C or SIGTERM raise :class:`RunInterrupted`, saying what is kept.
    """
    out, workers = options.out, worker_count(options.workers, in_process)
    if start and out is not None:
        raise ValueError("a run into a directory starts at item 0")
    total, size = identity["size"], identity["chunk_size"]
    opened: list[RunDirectory] = []

    def kept() -> str:
        if not opened:
            return f"nothing was played yet in {out}; the same call again starts the run"
        run = opened[0]
        return (f"{len(run.finished())} of {run.chunk_count()} chunks are kept in {run.path}; the same call again "
                "resumes the run")

    # Without a directory Ctrl-C is Ctrl-C; with one, from its opening to the results read back, it says
    # what is kept.
    with contextlib.ExitStack() as stack, (interruptible(kept) if out is not None else _sigterm_as_interrupt()):
        if out is not None:
            opened.append(stack.enter_context(RunDirectory.open(out, identity, repair=options.repair)))
        run = opened[0] if opened else None
        finished = run.finished() if run is not None else set()
        chunk_count = len(range(start, total, size)) - len(finished)
        items = total - start - sum(min(size, total - first) for first in finished)
        results: dict[int, Any] = {}

        def done(first: int, result: Any) -> None:
            if run is None:
                results[first] = result if merge is None or not results else merge(results.popitem()[1], result)
            elif isinstance(result, pd.DataFrame):
                run.write_frame(first, result)
            else:
                run.write_arrays(first, result)

        if run is not None:
            _say_what_is_reused(run, chunk_count)
        _execute(task, args, _chunks(total, size, finished, start), chunk_count, items, workers, options.backend,
                 options.scheduler, options.progress, unit, done)
        if run is None:
            return [results[first] for first in sorted(results)]
        if run.holds_frames():
            return [run.read_frame()]
        arrays = run.read_arrays()
        if merge is None:
            return list(arrays)
        merged = next(arrays, None)
        for following in arrays:
            merged = merge(merged, following)
        return [] if merged is None else [merged]


@contextlib.contextmanager
def interruptible(kept: Callable[[], str]) -> Iterator[None]:
    """Ctrl-C, or SIGTERM, within the block (played in the main thread) raises :class:`RunInterrupted`
    with the words of ``kept()``: what is kept and how to go on. An interruption already told in such
    words (a run within the block) passes as it is.
    """
    try:
        with _sigterm_as_interrupt():
            yield
    except RunInterrupted:
        raise
    except KeyboardInterrupt as interrupt:
        number = signal.SIGTERM if isinstance(interrupt, _Terminated) else signal.SIGINT
        raise RunInterrupted(kept(), number) from None


def _say_what_is_reused(run: RunDirectory, to_play: int) -> None:
    if run.moved_aside:
        LOG.info("%s: repairing: %d damaged or foreign part%s moved aside (%s), %s played again", run.path,
                 len(run.moved_aside), "s" if len(run.moved_aside) > 1 else "", ", ".join(run.moved_aside),
                 "its chunk" if len(run.moved_aside) == 1 else "their chunks")
    kept = run.chunk_count() - to_play
    if kept:
        LOG.info("%s: %s", run.path, "the run was played before: reading it, playing nothing" if not to_play else
                 f"resuming: {kept} of {run.chunk_count()} chunks were played before; playing the other {to_play}")


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
    """The run's items for :func:`ginsim.core.comparison.compare` (``None`` where the results keep no rows)."""
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
    if "rules" in run.identity:
        try:
            kind.rules.from_dict(run.identity["rules"])
        except InputError as error:
            raise RunDirectoryError(f"{run.path / RUN_FILE} is damaged: its rules are not valid: {error}") from None
    return kind, dict(run.identity), kind.load(run)
