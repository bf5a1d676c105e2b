"""The run layer: determinism across workers, chunks and backends; resume; Oklahoma effects; summaries."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ginsim import Rules, simulate, summarize
from ginsim.core.store import RunDirectoryError


def test_identical_for_any_workers_and_chunks(test_seed: int) -> None:
    rules = Rules.preset("oklahoma")
    one = simulate(rules, "simple,greedy", 4000, test_seed, workers=1, chunk_size=4000)
    two = simulate(rules, "simple,greedy", 4000, test_seed, workers=2, chunk_size=333)
    pd.testing.assert_frame_equal(one, two)
    assert one["hand"].tolist() == list(range(4000))


def test_rows_are_the_hands_of_play_hand(test_seed: int) -> None:
    from ginsim import play_hand

    rules = Rules.preset("eaai")
    records = simulate(rules, "simple,random", 50, test_seed, workers=1, chunk_size=7)
    for row in records.itertuples():
        hand = play_hand(rules, "simple,random", test_seed, row.hand)
        assert (hand.outcome, hand.winner, hand.points, hand.turns, hand.upcard, hand.dealer) == (
            row.outcome, row.winner, row.points, row.turns, row.upcard, row.dealer)


def test_dask_backend_matches_local(test_seed: int) -> None:
    pytest.importorskip("distributed")
    rules = Rules.preset("standard")
    local = simulate(rules, "greedy,greedy", 3000, test_seed, workers=1)
    dask = simulate(rules, "greedy,greedy", 3000, test_seed, workers=2, backend="dask", chunk_size=500)
    pd.testing.assert_frame_equal(local, dask)


def test_stream_counts_equal_record_counts(test_seed: int) -> None:
    rules = Rules.preset("oklahoma")
    records = simulate(rules, "simple,simple", 5000, test_seed, workers=1, chunk_size=1200)
    counts = simulate(rules, "simple,simple", 5000, test_seed, workers=2, chunk_size=900, stream=True)
    assert counts.total == 5000
    for by in (None, "upcard", ["upcard_suit", "dealer"], "knock_limit"):
        pd.testing.assert_frame_equal(summarize(records, by=by), summarize(counts, by=by))


def test_oklahoma_ace_never_knocks_and_spades_double(test_seed: int) -> None:
    records = simulate(Rules.preset("oklahoma"), "simple,simple", 20000, test_seed, workers=2)
    aces = records[records["upcard_rank"] == "A"]
    assert len(aces) > 0
    assert not aces["outcome"].isin(["knock", "undercut"]).any()
    assert (aces["knock_limit"] == 0).all()
    spades = records["upcard_suit"] == "S"
    assert (records["multiplier"] == np.where(spades, 2, 1)).all()
    scored = records[records["outcome"] != "draw"]
    knocker, defender = scored["knocker_deadwood"], scored["defender_deadwood"]
    base = np.select(
        [scored["outcome"] == "knock", scored["outcome"] == "undercut", scored["outcome"] == "gin"],
        [defender - knocker, knocker - defender + 25, defender + 25], default=-1)
    assert (scored["points"] == base * scored["multiplier"]).all()
    assert (scored.loc[scored["upcard_suit"] == "S", "points"] % 2 == 0).all()


def _wilson(count: int, total: int) -> tuple[float, float]:
    z = 1.959963984540054
    centre = (count + z * z / 2) / (total + z * z)
    half = z * np.sqrt(count * (total - count) / total + z * z / 4) / (total + z * z)
    return centre - half, centre + half


def test_summary_against_independent_counts(test_seed: int) -> None:
    records = simulate(Rules.preset("standard"), "simple,greedy", 6000, test_seed, workers=1)
    table = summarize(records, by="upcard_suit")
    for row in table.itertuples():
        group = records[records["upcard_suit"] == row.upcard_suit]
        total = len(group)
        assert row.hands == total
        knocks = int(group["outcome"].isin(["knock", "undercut"]).sum())
        assert row.knock_rate == pytest.approx(knocks / total)
        assert (row.knock_rate_low, row.knock_rate_high) == pytest.approx(_wilson(knocks, total))
        assert row.undercut_rate == pytest.approx((group["outcome"] == "undercut").mean())
        assert row.gin_rate == pytest.approx(group["outcome"].isin(["gin", "big_gin"]).mean())
        assert row.draw_rate == pytest.approx((group["outcome"] == "draw").mean())
        assert row.mean_points == pytest.approx(group["points"].mean())
        assert row.mean_turns == pytest.approx(group["turns"].mean())
        assert row.win_rate_0 == pytest.approx((group["winner"] == 0).mean())
        assert row.win_rate_1 == pytest.approx((group["winner"] == 1).mean())
    whole = summarize(records, by=None)
    assert int(whole["hands"].iloc[0]) == len(records)
    with pytest.raises(ValueError, match="cannot group by 'colour'"):
        summarize(records, by="colour")


def test_run_directory_round_trip_and_refusals(tmp_path: Path, test_seed: int) -> None:
    out = tmp_path / "run"
    rules = Rules.preset("last-card")
    written = simulate(rules, "simple,simple", 2500, test_seed, workers=1, out=out, chunk_size=1000)
    assert sorted(p.name for p in out.iterdir()) == [
        "_run.json", "part-000000000000000.parquet", "part-000000000001000.parquet",
        "part-000000000002000.parquet"]
    pd.testing.assert_frame_equal(written, simulate(rules, "simple,simple", 2500, test_seed, workers=1))
    pd.testing.assert_frame_equal(summarize(out), summarize(written))
    import pyarrow.parquet as pq
    metadata = pq.read_schema(out / "part-000000000000000.parquet").metadata[b"ginsim"]
    assert b'"stock_floor": 0' in metadata and f'"seed": {test_seed}'.encode() in metadata
    with pytest.raises(RunDirectoryError, match="holds a different run: seed"):
        simulate(rules, "simple,simple", 2500, test_seed + 1, workers=1, out=out, chunk_size=1000)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(RunDirectoryError, match="not a ginsim run directory"):
        simulate(rules, "simple,simple", 10, test_seed, workers=1, out=foreign)
    assert (foreign / "notes.txt").read_text() == "mine"
    (out / "part-000000000001000.parquet").write_bytes(b"not parquet")
    with pytest.raises(RunDirectoryError, match="not a readable Parquet file"):
        summarize(out)


KILLED_RUN = textwrap.dedent("""
    import sys
    from ginsim import Rules, simulate
    simulate(Rules(), "random,random", 400_000, int(sys.argv[2]), workers=1, out=sys.argv[1],
             chunk_size=4_000, progress=False)
""")


@pytest.mark.slow
def test_resume_after_kill(tmp_path: Path, test_seed: int) -> None:
    out = tmp_path / "killed"
    process = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(out), str(test_seed)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if len(list(out.glob("part-*.parquet"))) >= 5:
            break
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = {part.name: part.stat().st_mtime_ns for part in out.glob("part-*.parquet")}
    assert 5 <= len(kept) < 100
    resumed = simulate(Rules(), "random,random", 400_000, test_seed, workers=2, out=out, chunk_size=4_000)
    assert {part.name: part.stat().st_mtime_ns for part in out.glob("part-*.parquet")
            if part.name in kept} == kept  # finished chunks are not played again
    assert len(list(out.glob("part-*.parquet"))) == 100
    assert not list(out.glob(".*"))  # no temporary file left behind
    assert resumed["hand"].tolist() == list(range(400_000))
    fresh = simulate(Rules(), "random,random", 400_000, test_seed, workers=2, chunk_size=50_000)
    # Exact: every column holds integers or categories, and the inexact comparison of categories takes
    # seconds per column at this size.
    pd.testing.assert_frame_equal(resumed, fresh, check_exact=True)


@pytest.mark.parametrize("bad, message", [
    (dict(hands=0), "hands must be a positive integer"),
    (dict(seed=-1), "seed must be a non-negative int"),
    (dict(workers=0), "workers must be a positive integer"),
    (dict(backend="spark"), "unknown backend 'spark'"),
    (dict(players="simple"), "exactly two players"),
    (dict(players="simple,smiple"), "did you mean 'simple'"),
    (dict(chunk_size=0), "chunk_size must be a positive integer"),
])
def test_bad_arguments(bad: dict, message: str) -> None:
    arguments = dict(rules=Rules(), players="simple,simple", hands=10, seed=1, workers=1) | bad
    with pytest.raises(ValueError, match=message):
        simulate(**arguments)
