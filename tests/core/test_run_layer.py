"""The run layer under sizes and signals: every count has a documented bound, chunks are made as they are
handed out (a run may have more chunks than memory holds), pool workers end with their parent, SIGTERM
stops a run as Ctrl-C does, and a scheduler address that is none is one line."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gincore.errors import InputError
from ginsim import Rules, play_hand, rummy, simulate, simulate_matches, tournament
from ginsim.core.execution import MAX_CHUNK_SIZE, RunOptions, run_chunks
from ginsim.core.streams import LIMITS
from ginsim.gin.studies.simulate import simulate_until
from tests.cli_runner import ctrl_c_as_from_a_terminal


@pytest.mark.parametrize("call, message", [
    (lambda: simulate(Rules(), "simple,simple", 2**63, 0, stream=True),
     "hands must be a positive integer of at most 1,000,000,000,000,000,000, got 9223372036854775808"),
    (lambda: simulate(Rules(), "simple,simple", 10**30, 0), "hands must be .* at most .*, got 10\\*\\*30"),
    (lambda: simulate(Rules(), "simple,simple", 10, 0, chunk_size=MAX_CHUNK_SIZE + 1),
     "chunk_size must be a positive integer of at most 10,000,000"),
    (lambda: simulate_until(Rules(), "simple,simple", 0.01, None, 2**63, 0), "max_hands must be"),
    (lambda: simulate_matches(Rules(), "simple,simple", 10**20, 0), "matches must be .* at most 1,000,000,000,000"),
    (lambda: simulate_matches(Rules(), "simple,simple", 10**6, 0, teams=10**7), "teams must be .* at most 1,000,000"),
    (lambda: tournament(Rules(), ["simple", "greedy"], 10**20, 0), "matches must be .* at most"),
    (lambda: rummy.simulate(rummy.Rules(), "greedy,greedy", 10**19, 0), "hands must be .* at most"),
    (lambda: rummy.simulate_games(rummy.Rules(), "greedy,greedy", 10**13, 0), "games must be .* at most"),
    (lambda: play_hand(Rules(), "simple,simple", 0, 2**64), "hand index must be an integer from 0 to "
                                                          "999,999,999,999,999,999, got 18446744073709551616"),
    (lambda: rummy.play_hand(rummy.Rules(), "greedy,greedy", 0, -1), "hand index must be an integer from 0 to"),
    (lambda: simulate(Rules(), "simple,simple", 10**9, 0, workers=10**5, chunk_size=1000),
     "workers must be a positive integer of at most 1,024, got 100000"),
])
def test_every_size_has_a_bound(call, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


def test_the_bounds_fit_the_streams() -> None:
    assert LIMITS["gin_hands"] < 2**63 and LIMITS["rummy_hands"] < 2**63
    assert LIMITS["gin_matches"] < 2**40 and LIMITS["rummy_games"] < 2**40  # hand j of item m: (m << 24) | j
    play_hand(Rules(), "simple,simple", 0, LIMITS["gin_hands"] - 1)  # the last hand of the largest run plays


class Enough(Exception):
    """Raised by the task once it has played a few chunks."""


def few_chunks(first: int, count: int, played: list[int]) -> int:
    played.append(first)
    if len(played) >= 3:
        raise Enough
    return count


def chunk_or_stop(first: int, count: int) -> int:
    if first >= 5:
        raise Enough
    return count


@pytest.mark.parametrize("size, chunk", [(10**18, 1), (10**18, MAX_CHUNK_SIZE)])
def test_chunks_are_made_as_they_are_handed_out(size: int, chunk: int) -> None:
    """A run of 10**18 chunks starts at once: none is made before it is played (listing them would not
    fit in memory)."""
    played: list[int] = []
    with pytest.raises(Enough):
        run_chunks({"kind": "test", "size": size, "chunk_size": chunk}, few_chunks, (played,),
                   RunOptions(workers=1, progress=False), unit="items")
    assert played == [0, chunk, 2 * chunk]
    with pytest.raises(Enough):
        run_chunks({"kind": "test", "size": 10**18, "chunk_size": 1}, chunk_or_stop, (),
                   RunOptions(workers=2, progress=False), unit="items")


def test_a_streamed_run_keeps_one_sum(test_seed: int) -> None:
    """Streamed counts are added as chunks finish, whatever their number."""
    counts = simulate(Rules(), "simple,simple", 3000, test_seed, workers=2, chunk_size=100, stream=True)
    assert counts.total == 3000
    whole = simulate(Rules(), "simple,simple", 3000, test_seed, workers=1, stream=True)
    assert (counts.hands == whole.hands).all() and (counts.points_squares == whole.points_squares).all()


def test_a_scheduler_address_that_is_none(test_seed: int) -> None:
    pytest.importorskip("distributed")
    for address in ("not-an-address", "tcp://", "tcp://host:notaport"):
        with pytest.raises(InputError) as info:
            simulate(Rules(), "simple,simple", 10, test_seed, backend="dask", scheduler=address)
        assert address in str(info.value) and "\n" not in str(info.value)


# --- signals -----------------------------------------------------------------------------------------

SLOW_RUN = textwrap.dedent("""
    import multiprocessing
    import sys
    from ginsim import Rules, simulate
    from ginsim.core.execution import RunInterrupted
    from ginsim.core.store import RunDirectory

    write_frame, told = RunDirectory.write_frame, []

    def write_and_tell(run, first, frame):
        # Once a part is kept, the pool's workers (all started with the first chunk) are named on a line
        # of their own: the test waits for it.
        write_frame(run, first, frame)
        if not told:
            told.append(first)
            print("ready", *sorted(child.pid for child in multiprocessing.active_children()), flush=True)

    RunDirectory.write_frame = write_and_tell
    try:
        simulate(Rules(), "sampler:64,simple", 100_000, 1, workers=2, chunk_size=10, progress=False, out=sys.argv[1])
    except RunInterrupted as interrupted:
        print(interrupted.signal_number, interrupted)
        sys.exit(5)
""")

needs_pidfd = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on process descriptors (Linux)")


def started_with_workers(out: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """A slow run into ``out`` on two workers, once it has kept a part: the process and a descriptor of
    each worker (taken while it runs: ended, its number may be given to another process)."""
    process = subprocess.Popen([sys.executable, "-c", SLOW_RUN, str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_as_from_a_terminal)
    assert process.stdout is not None
    told = process.stdout.readline().split()  # blocks until the run tells, or ends without telling
    assert told[:1] == ["ready"] and len(told) == 3, (told, process.communicate())
    return process, [os.pidfd_open(int(pid)) for pid in told[1:]]


def ended(workers: list[int], wait: bool = False) -> bool:
    """Whether every worker has ended (an orphan's descriptor turns readable when it exits, even if no
    one reaps it); with ``wait``, once they have."""
    readable = [bool(select.select([descriptor], [], [], None if wait else 0)[0]) for descriptor in workers]
    for descriptor in workers:
        os.close(descriptor)
    return all(readable)


@needs_pidfd
def test_workers_end_with_their_parent(tmp_path: Path) -> None:
    process, workers = started_with_workers(tmp_path / "run")
    process.kill()
    process.communicate()
    assert ended(workers, wait=True)  # each sees its parent gone and ends


@needs_pidfd
def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path: Path) -> None:
    out = tmp_path / "run"
    process, workers = started_with_workers(out)
    process.send_signal(signal.SIGTERM)
    printed, errors = process.communicate()
    assert process.returncode == 5, errors
    kept = len(list(out.glob("part-*.parquet")))
    assert kept > 0
    assert printed.strip() == f"{int(signal.SIGTERM)} {kept} of 10000 chunks are kept in {out}; the same call again " \
                              "resumes the run"
    assert ended(workers)  # the run ended (and joined) its workers before it exited
    assert not list(out.glob(".*.tmp"))
    assert errors == ""  # no worker's traceback


@needs_pidfd
def test_ctrl_c_stops_the_workers_at_once(tmp_path: Path) -> None:
    out = tmp_path / "run"
    process, workers = started_with_workers(out)
    process.send_signal(signal.SIGINT)
    printed, errors = process.communicate()
    assert process.returncode == 5, errors
    assert printed.startswith(f"{int(signal.SIGINT)} ") and "chunks are kept" in printed
    assert ended(workers)
    assert errors == ""  # no worker's traceback


def test_run_options_come_one_way() -> None:
    """The run options of a call are one RunOptions or its fields one by one, never both; the same run
    either way."""
    options = RunOptions(workers=1, chunk_size=7)
    assert simulate(Rules(), "simple,greedy", 20, 3, options=options).equals(
        simulate(Rules(), "simple,greedy", 20, 3, workers=1, chunk_size=7))
    with pytest.raises(InputError, match=r"given both as options= and one by one \(workers, chunk_size\)"):
        simulate(Rules(), "simple,greedy", 20, 3, workers=2, chunk_size=5, options=options)
    with pytest.raises(InputError, match="options must be RunOptions, got dict"):
        simulate(Rules(), "simple,greedy", 20, 3, options={"workers": 1})  # type: ignore[arg-type]
    for bad, message in ((dict(workers=0), "workers must be"), (dict(chunk_size=0), "chunk_size must be"),
                         (dict(backend="spark"), "unknown backend 'spark'"),
                         (dict(scheduler="tcp://h:1"), "a scheduler address goes with backend='dask'")):
        with pytest.raises(InputError, match=message):
            RunOptions(**bad)
