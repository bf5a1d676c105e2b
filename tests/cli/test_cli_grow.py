"""A finished run grows: the same command with a larger size over its directory plays only what is new,
the rows it held unchanged (a chunk the smaller run cut short is played again whole, the same); a run never
shrinks. Recordings, runs of hands, of matches and of counts, tournaments and sweeps alike."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ginsim.core.store import RunDirectory
from ginsim.gin.studies.decisions import load_recording
from tests.cli_runner import invoke, one_line_error

RECORD = ["record", "--expert", "marjj", "--against", "simple,greedy", "--workers", "1"]


def played(*args: str) -> str:
    code, out, err = invoke(*args)
    assert code == 0, err
    return err


def test_a_recording_grows_with_its_first_hands_rows_unchanged(tmp_path: Path, test_seed: int) -> None:
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    seed = ["--seed", str(test_seed)]
    played(*RECORD, *seed, "--hands", "60", "--out", str(grown))
    before = load_recording(grown)
    code, out, err = invoke(*RECORD, *seed, "--hands", "120", "--out", str(grown))
    assert code == 0, err
    assert "in 120 hands against simple, greedy" in out and "different" not in err
    after = load_recording(grown)
    first = after["hand"].astype(np.int64) < 60
    for column in before:
        np.testing.assert_array_equal(after[column][first], before[column])
    played(*RECORD, *seed, "--hands", "120", "--out", str(fresh))
    whole = load_recording(fresh)
    for column in whole:
        np.testing.assert_array_equal(after[column], whole[column])
    one_line_error([*RECORD, *seed, "--hands", "60", "--out", str(grown)],
                   f"{grown} holds a larger run: size 120 (not 60); a run grows but never shrinks")


@pytest.mark.parametrize("size", [["--hands", "60", "--chunk-size", "25"], ["--matches", "30", "--chunk-size", "8"],
                                  ["--hands", "60", "--chunk-size", "25", "--stream"]])
def test_a_run_grows_keeping_its_whole_chunks(size: list[str], tmp_path: Path, test_seed: int) -> None:
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    command = ["run", "--players", "greedy,simple", "--seed", str(test_seed), "--workers", "1", *size[2:]]
    played(*command, size[0], size[1], "--out", str(grown))
    kept = {part.name: part.read_bytes() for part in grown.glob("part-*")}
    larger = str(2 * int(size[1]))
    err = played(*command, size[0], larger, "--out", str(grown))
    whole_chunks = int(size[1]) // int(size[3])
    assert f"resuming: {whole_chunks} of " in err
    for name, data in sorted(kept.items())[:whole_chunks]:  # the whole chunks, as they were
        assert (grown / name).read_bytes() == data, name
    played(*command, size[0], larger, "--out", str(fresh))  # the grown run is the run played at that size at once
    ours, theirs = RunDirectory.read(grown), RunDirectory.read(fresh)
    assert ours.size == theirs.size == int(larger)
    if "--stream" in size:
        for mine, other in zip(ours.read_arrays(), theirs.read_arrays(), strict=True):
            assert mine.keys() == other.keys() and all(np.array_equal(mine[name], other[name]) for name in mine)
    else:
        assert ours.read_frame().equals(theirs.read_frame())


def test_a_sweep_and_a_tournament_grow(tmp_path: Path) -> None:
    sweep = ["sweep", "--knock-limit", "5,10", "--players", "greedy,simple", "--workers", "1", "--out",
             str(tmp_path / "sweep")]
    played(*sweep, "--hands", "50")
    err = played(*sweep, "--hands", "80")
    assert "different" not in err
    assert all(RunDirectory.read(cell).size == 80 for cell in (tmp_path / "sweep").iterdir() if cell.is_dir())
    one_line_error([*sweep, "--hands", "40"], "holds a larger sweep: size 80 (not 40)")
    tournament = ["tournament", "--players", "greedy,simple", "--workers", "1", "--out", str(tmp_path / "rr")]
    played(*tournament, "--matches", "10")
    err = played(*tournament, "--matches", "20")
    assert "resuming: 5 of 10 chunks were played before" in err
