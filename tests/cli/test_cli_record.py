"""``ginsim record`` and ``ginsim train --decisions``: an expert's decisions recorded in chunks on the run
layer, the same rows for any workers or chunk size, resumed after a stop, reused once finished, cloned."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ginsim.gin.studies.decisions import load_recording
from tests.cli_runner import invoke, one_line_error

RECORD = ["record", "--rules", "eaai", "--expert", "marjj", "--against", "simple,search", "--hands", "24"]


def recorded(out: Path, seed: int, *extra: str) -> tuple[int, str, str]:
    return invoke(*RECORD, "--seed", str(seed), "--out", str(out), *extra)


def same_rows(first: dict[str, np.ndarray], second: dict[str, np.ndarray]) -> None:
    assert sorted(first) == sorted(second)
    for column in first:
        np.testing.assert_array_equal(first[column], second[column])


def test_the_rows_do_not_depend_on_the_workers(tmp_path: Path, test_seed: int) -> None:
    code, out, err = recorded(tmp_path / "one", test_seed, "--workers", "1", "--chunk-size", "5")
    assert code == 0, err
    assert out.strip().endswith(f"decisions of marjj in 24 hands against simple, search (seed {test_seed}, "
                                f"learner layout) in {tmp_path / 'one'}")
    code, _, err = recorded(tmp_path / "two", test_seed, "--workers", "2", "--chunk-size", "7")
    assert code == 0, err
    one, two = load_recording(tmp_path / "one"), load_recording(tmp_path / "two")
    same_rows(one, two)
    assert np.array_equal(np.unique(one["hand"]), np.arange(24)) and set(one["opponent"].tolist()) == {0, 1}


def test_a_stopped_recording_resumes_and_a_finished_one_is_reused(tmp_path: Path, test_seed: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = recorded(tmp_path / "whole", test_seed, "--workers", "1", "--chunk-size", "4")
    assert code == 0, err
    module = sys.modules["ginsim.gin.studies.decisions"]
    real = module._record_chunk
    calls: list[int] = []

    def stopped_at_the_third(first: int, hands: int, *args: Any) -> Any:
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(first, hands, *args)

    monkeypatch.setattr(module, "_record_chunk", stopped_at_the_third)
    out = tmp_path / "stopped"
    code, _, err = recorded(out, test_seed, "--workers", "1", "--chunk-size", "4")
    assert code == 130, err
    assert err.strip() == f"Interrupted: 2 of 6 chunks are kept in {out}; the same call again resumes the run."
    monkeypatch.setattr(module, "_record_chunk", real)
    code, _, err = recorded(out, test_seed, "--workers", "1", "--chunk-size", "4")
    assert code == 0, err
    assert "resuming: 2 of 6 chunks were played before; playing the other 4" in err
    same_rows(load_recording(tmp_path / "whole"), load_recording(out))
    monkeypatch.setattr(module, "_record_chunk", stopped_at_the_third)  # a finished recording plays nothing
    calls.clear()
    code, again, err = recorded(out, test_seed, "--workers", "1", "--chunk-size", "4")
    assert code == 0 and not calls and "playing nothing" in err, err


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    one_line_error(RECORD, "give --out DIR")
    one_line_error(["record", "--expert", "nobody", "--hands", "2", "--out", str(tmp_path / "a")], "nobody")
    one_line_error(["record", "--expert", "simple", "--against", "", "--hands", "2", "--out", str(tmp_path / "b")],
                   "unknown strategy ''")
    code, _, err = recorded(tmp_path / "c", 1, "--workers", "1")
    assert code == 0, err
    one_line_error([*RECORD, "--seed", "2", "--out", str(tmp_path / "c")], "holds a different run: seed 1 (not 2)")


def test_train_clones_a_recording(tmp_path: Path, test_seed: int) -> None:
    rec = tmp_path / "rec"
    code, _, err = recorded(rec, test_seed, "--workers", "1", "--chunk-size", "10")
    assert code == 0, err
    train = ["train", "--rules", "eaai", "--layout", "learner", "--hidden", "16", "--imitate-epochs", "2",
             "--steps", "64", "--envs", "4", "--rollout", "16", "--seed", str(test_seed), "--no-progress"]
    code, out, err = invoke(*train, "--out", str(tmp_path / "run"), "--decisions", str(rec))
    assert code == 0, err
    assert "of the expert's decisions matched in the last of 2 passes" in out
    one_line_error([*train, "--out", str(tmp_path / "x"), "--decisions", str(rec), "--imitate", "simple"],
                   "holds the decisions of marjj:5, not of simple")
    one_line_error([*train, "--out", str(tmp_path / "x"), "--decisions", str(rec), "--imitate-hands", "10"],
                   "--imitate-hands does not apply")
    one_line_error([*train[:3], "--layout", "compact", *train[5:], "--out", str(tmp_path / "x"), "--decisions",
                    str(rec)], "in the learner layout; this run's network reads compact")
    one_line_error([*train, "--rules", "oklahoma", "--out", str(tmp_path / "x"), "--decisions", str(rec)],
                   "hands are played otherwise")
    one_line_error([*train, "--out", str(tmp_path / "x"), "--decisions", str(tmp_path / "run")],
                   "not a ginsim run directory")


def test_train_refuses_an_unfinished_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sys.modules["ginsim.gin.studies.decisions"]

    def stopped(*args: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "_record_chunk", stopped)
    code, _, err = recorded(tmp_path / "rec", 1, "--workers", "1")
    assert code == 130, err
    monkeypatch.undo()
    one_line_error(["train", "--rules", "eaai", "--layout", "learner", "--out", str(tmp_path / "run"), "--decisions",
                    str(tmp_path / "rec")], "is an unfinished recording")
