"""Studies from stored runs on the command line: replaying a run's hand, comparing two runs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ginsim import Rules, play_hand, rummy, simulate
from tests.cli_runner import ctrl_c_as_from_a_terminal, invoke


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("runs")
    made = {
        "okla": ["run", "--rules", "oklahoma", "--players", "greedy,simple", "--hands", "600", "--seed", "5"],
        "standard": ["run", "--players", "greedy,simple", "--hands", "600", "--seed", "5"],
        "standard-other-seed": ["run", "--players", "greedy,simple", "--hands", "600", "--seed", "6"],
        "matches": ["run", "--matches", "6"],
        "rummy": ["rummy", "run", "--players", "greedy,greedy,random", "--hands", "300", "--seed", "2",
                  "--max-turnovers", "1"],
    }
    for name, args in made.items():
        code, _, err = invoke(*args, "--workers", "1", "--out", str(folder / name))
        assert code == 0, err
    return {name: folder / name for name in made}


def test_replay_of_a_run_directory_uses_its_rules_players_and_seed(runs: dict[str, Path]) -> None:
    code, out, _ = invoke("replay", str(runs["okla"]), "--hand", "42", "--letters")
    assert code == 0
    expected = play_hand(Rules.preset("oklahoma"), "greedy,simple", seed=5, index=42).to_text()
    assert out.rstrip("\n") == expected
    assert out.startswith("Hand 42 of seed 5 under oklahoma rules: player 0 greedy, player 1 simple")


def test_replay_of_a_rummy_run_and_as_json(runs: dict[str, Path]) -> None:
    code, out, _ = invoke("replay", str(runs["rummy"]), "--hand", "7", "--json")
    assert code == 0
    shown = json.loads(out)
    expected = rummy.play_hand(rummy.Rules(max_turnovers=1), "greedy,greedy,random", seed=2, index=7)
    assert shown == json.loads(json.dumps(expected.to_json()))
    assert (shown["game"], shown["rules"]["max_turnovers"], shown["hand"]) == ("rummy", 1, 7)
    code, out, _ = invoke("rummy", "replay", "--players", "greedy,greedy,random", "--seed", "2",
                          "--max-turnovers", "1", "--hand", "7", "--json")
    assert code == 0 and json.loads(out) == shown


def test_a_replayed_hand_is_the_runs_record(runs: dict[str, Path]) -> None:
    records = simulate(Rules.preset("oklahoma"), "greedy,simple", hands=600, seed=5, workers=1)
    code, out, _ = invoke("replay", str(runs["okla"]), "--hand", "123", "--json")
    shown = json.loads(out)
    row = records.loc[123]
    assert (shown["outcome"], shown["winner"], shown["points"], shown["turns"]) == (
        row["outcome"], row["winner"], row["points"], row["turns"])


@pytest.mark.parametrize("args, message", [
    (["--hand", "600"], "hand 600 is not in the run: it has hands 0 to 599"),
    (["--hand", "1", "--seed", "3"], "drop --seed"),
    (["--hand", "1", "--rules", "straight"], "drop --rules"),
    (["--hand", "1", "--knock-limit", "3"], "drop --knock-limit"),
])
def test_replay_errors(runs: dict[str, Path], args: list[str], message: str) -> None:
    code, out, err = invoke("replay", str(runs["okla"]), *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_replay_of_matches_is_refused(runs: dict[str, Path]) -> None:
    code, _, err = invoke("replay", str(runs["matches"]), "--hand", "1")
    assert code == 2 and "holds a run of matches: replay takes a run of hands" in err


def test_compare_pairs_runs_of_one_seed(runs: dict[str, Path]) -> None:
    from ginsim.games import compare_runs

    table = compare_runs(runs["standard"], runs["okla"])
    assert bool(table["paired"].all()) and list(table["measure"]) == [
        "knock_rate", "undercut_rate", "gin_rate", "draw_rate", "win_rate_0", "mean_points", "mean_turns"]
    gin = table.set_index("measure").loc["gin_rate"]
    assert gin["low"] <= gin["difference"] <= gin["high"] and gin["b"] > gin["a"]
    # Oklahoma's ace upcards (gin only) make gin far more common: clear even on 600 paired hands.
    assert bool(gin["significant"])
    same = compare_runs(runs["standard"], runs["standard"])
    assert (same["difference"] == 0).all() and not same["significant"].any()


def test_compare_of_independent_runs(runs: dict[str, Path]) -> None:
    from ginsim.games import compare_runs

    table = compare_runs(runs["standard"], runs["standard-other-seed"], by="dealer")
    assert not table["paired"].any() and set(table["dealer"]) == {0, 1}
    assert (table["low"] <= table["difference"]).all() and (table["difference"] <= table["high"]).all()
    assert (table["p_holm"] >= table["p_value"]).all()
    forced = compare_runs(runs["standard"], runs["okla"], paired=False)
    assert not forced["paired"].any()


def test_compare_on_the_command_line(runs: dict[str, Path], tmp_path: Path) -> None:
    csv = tmp_path / "difference.csv"
    code, out, _ = invoke("compare", str(runs["standard"]), str(runs["okla"]), "--by", "upcard_suit",
                          "--csv", str(csv))
    assert code == 0
    assert out.startswith("ginsim ")
    words = " ".join(out.split())  # the lines wrapped at 80 columns
    assert f"a: {runs['standard']} (standard rules | greedy vs simple | 600 hands | seed 5)" in words
    assert f"b: {runs['okla']} (oklahoma rules | greedy vs simple | 600 hands | seed 5)" in words
    assert "b - a, paired hand by hand; * significant at 5% after Holm's correction for 28 comparisons" in words
    written = csv.read_text().splitlines()
    assert written[0].startswith("# ginsim ") and "a: standard rules" in written[0]
    assert written[2].startswith("upcard_suit,measure,a,b,difference,low,high,p_value,p_holm,significant")
    code, out, _ = invoke("compare", str(runs["rummy"]), str(runs["rummy"]), "--json")
    assert code == 0 and {row["measure"] for row in json.loads(out)["rows"]} >= {"win_rate_0", "draw_rate"}


@pytest.mark.parametrize("pair, args, message", [
    (("standard", "rummy"), [], "cannot compare a run of hands with one of rummy hands"),
    (("standard", "okla"), ["--by", "seat"], "cannot compare runs of hands by 'seat'"),
    (("matches", "matches"), ["--by", "upcard"], "choose from nothing (the whole run)"),
])
def test_compare_errors(runs: dict[str, Path], pair: tuple[str, str], args: list[str], message: str) -> None:
    code, out, err = invoke("compare", str(runs[pair[0]]), str(runs[pair[1]]), *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_run_says_what_it_reuses(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--hands", "4000", "--chunk-size", "1000", "--workers", "1", "--out", str(out)]
    code, first, err = invoke(*args)
    assert code == 0 and err == ""
    code, again, err = invoke(*args)
    assert code == 0 and again == first
    assert err.strip() == f"{out}: the run was played before: reading it, playing nothing"
    (out / "part-000000000002000.parquet").unlink()
    code, resumed, err = invoke(*args)
    assert code == 0 and resumed == first
    assert err.strip() == f"{out}: resuming: 3 of 4 chunks were played before; playing the other 1"


@pytest.mark.slow
def test_ctrl_c_says_what_is_kept_and_the_same_command_resumes(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "slow"
    # The sampler is slow enough (milliseconds a decision) that the run is still going when interrupted.
    command = [str(Path(sys.executable).with_name("ginsim")), "run", "--players", "sampler:8,simple", "--hands", "400",
               "--chunk-size", "20", "--workers", "1", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_from_a_terminal)
    deadline = time.monotonic() + 120
    while not list(out.glob("part-*.parquet")) and process.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    if process.returncode == 0:
        pytest.skip("the run finished before the interrupt reached it")
    assert process.returncode == 130, err
    kept = len(list(out.glob("part-*.parquet")))
    assert err.strip() == f"Interrupted: {kept} of 20 chunks are kept in {out}; the same call again resumes the run."
    assert not list(out.glob(".*.tmp"))  # nothing half-written
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and f"resuming: {kept} of 20 chunks were played before" in done.stderr


def test_run_writes_its_summary_as_csv_and_json(tmp_path: Path) -> None:
    csv = tmp_path / "rates.csv"
    code, out, _ = invoke("run", "--hands", "500", "--workers", "1", "--json", "--csv", str(csv))
    rows = json.loads(out)["rows"]
    assert code == 0 and rows[0]["hands"] == 500 and 0 < rows[0]["knock_rate"] < 1
    header = next(line for line in csv.read_text().splitlines() if not line.startswith("# "))
    assert header.startswith("hands,knock_rate,knock_rate_low")
    code, out, _ = invoke("rummy", "run", "--hands", "100", "--workers", "1", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["rows"][0]["hands"] == 100 and shown["source"]["kind"] == "rummy_hands"


def test_a_precision_targeted_run_is_a_plain_run_of_its_size(test_seed: int) -> None:
    import numpy as np

    from ginsim.gin.studies.simulate import simulate_until
    from ginsim.gin.studies.summary import summarize, widest_halfwidth

    rules = Rules.preset("oklahoma")
    counts = simulate_until(rules, "simple,simple", 0.03, "upcard_suit", 50_000, test_seed, workers=1,
                            first_batch=500)
    assert counts.total in {500 * 2**k for k in range(7)}  # batches of 500, 1000, 2000, ...
    assert widest_halfwidth(summarize(counts, by="upcard_suit")) <= 0.03
    plain = simulate(rules, "simple,simple", counts.total, test_seed, workers=2, stream=True, chunk_size=777)
    for name in ("hands", "points", "turns", "points_histogram"):
        assert np.array_equal(getattr(counts, name), getattr(plain, name))
    smaller = simulate_until(rules, "simple,simple", 0.03, "upcard_suit", counts.total // 2, test_seed, workers=1,
                             first_batch=500)
    assert smaller.total == counts.total // 2  # the bound stops it short


def test_until_halfwidth_on_the_command_line() -> None:
    code, out, _ = invoke("run", "--until-halfwidth", "0.05", "--by", "upcard_suit", "--hands", "100000",
                          "--workers", "1", "--json")
    rows = json.loads(out)["rows"]
    assert code == 0 and [row["upcard_suit"] for row in rows] == ["C", "D", "H", "S"]
    assert all(row["hands"] >= 100 for row in rows)
    code, out, _ = invoke("run", "--until-halfwidth", "0.001", "--hands", "2000", "--workers", "1")
    assert code == 0 and out.startswith("2000 hands (the --hands bound; not every rate is within 0.001)")
    code, _, err = invoke("run", "--until-halfwidth", "0.01", "--hands", "2000", "--out", "somewhere")
    assert code == 2 and "takes no --out or --chunk-size" in err
    code, _, err = invoke("run", "--until-halfwidth", "0.7", "--hands", "2000")
    assert code == 2 and "0.7" in err


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_plot_size_and_dpi(runs: dict[str, Path], tmp_path: Path) -> None:
    output = tmp_path / "rates.png"
    code, _, err = invoke("plot", str(runs["okla"]), "--by", "upcard_suit", "-o", str(output), "--size", "4x3",
                          "--dpi", "50")
    assert code == 0, err
    assert png_size(output) == (200, 150)
    code, _, err = invoke("plot", str(runs["okla"]), "-o", str(output), "--size", "4by3")
    assert code == 2 and "WIDTHxHEIGHT" in err


def test_plot_of_a_run_of_matches_and_a_tournament_heatmap(runs: dict[str, Path], tmp_path: Path) -> None:
    code, out, err = invoke("plot", str(runs["matches"]), "-o", str(tmp_path / "wins.png"))
    assert code == 0 and out.strip().endswith("6 matches"), err
    heat = tmp_path / "heat.svg"
    code, out, err = invoke("tournament", "--players", "simple,gin,random", "--matches", "4", "--workers", "1",
                            "--plot", str(heat))
    assert code == 0, err
    assert b"<svg" in heat.read_bytes()[:400]
    assert err.strip().splitlines()[-1] == f"wrote {heat}: the match win rates of 3 players"  # where it wrote
    code, _, err = invoke("tournament", "--players", "simple,gin", "--matches", "4", "--plot", str(tmp_path / "x.doc"))
    assert code == 2 and "cannot tell the figure format" in err
    code, _, err = invoke("plot", str(runs["rummy"]), "-o", str(tmp_path / "rummy.png"))
    assert code == 2 and "plot draws a Gin run of hands or of matches" in err


def test_means_have_intervals(runs: dict[str, Path]) -> None:
    from ginsim import summarize, summarize_matches
    from ginsim.core.intervals import mean_interval

    records = simulate(Rules(), "greedy,simple", hands=600, seed=5, workers=1)
    table = summarize(records, by="dealer")
    for dealer, row in table.set_index("dealer").iterrows():
        points = records.loc[records["dealer"] == dealer, "points"]
        assert (row["mean_points_low"], row["mean_points_high"]) == pytest.approx(mean_interval(points))
        assert row["mean_points_low"] < row["mean_points"] < row["mean_points_high"]
    matches = summarize_matches(runs["matches"]).iloc[0]
    assert matches["mean_margin_0_low"] < matches["mean_margin_0"] < matches["mean_margin_0_high"]
    code, out, _ = invoke("summary", str(runs["rummy"]))
    header = next(number for number, line in enumerate(out.splitlines()) if line.split()[-1:] == ["turns"])
    assert code == 0 and "±" in out.splitlines()[header + 1].split()[-1]  # mean turns, with its interval


def test_a_run_of_two_players_says_who_won() -> None:
    """``ginsim run --hands`` says who won: the net points a hand with its interval and the hands won."""
    code, out, err = invoke("run", "--players", "gin,random", "--hands", "400", "--workers", "1", "--seed", "2")
    assert code == 0, err
    words = " ".join(out.split())
    assert re.search(r"\(gin, player 0, scored \d+\.\d\d points a hand more than random \[95%: \d+\.\d\d, \d+\.\d\d\]: "
                     r"ahead, the interval above 0; hands won: gin \d+\.\d% \[", words), words
    code, out, err = invoke("run", "--players", "gin,random", "--hands", "400", "--workers", "1", "--seed", "2",
                            "--json")
    assert code == 0 and any("scored" in note for note in json.loads(out)["notes"]), err
