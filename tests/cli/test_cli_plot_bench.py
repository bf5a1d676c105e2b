"""``ginsim plot``, ``ginsim bench`` and the suit symbols of ``ginsim replay``."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ginsim import Rules, play_hand, summarize
from ginsim.core.text import symbols_supported, with_symbols
from ginsim.games import describe_run
from ginsim.gin.studies.plot import plot_rates
from tests.cli_runner import invoke

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"



@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("runs")
    made = {
        "hands": ["--rules", "oklahoma", "--hands", "3000", "--seed", "4"],
        "counts": ["--hands", "2000", "--stream"],
        "matches": ["--matches", "10"],
        "rummy": ["--players", "greedy,random", "--hands", "200"],
    }
    for name, args in made.items():
        command = ["rummy", "run"] if name == "rummy" else ["run"]
        code, out, err = invoke(*command, *args, "--workers", "1", "--out", str(folder / name))
        assert code == 0, err
    return {name: folder / name for name in made}


def test_plot_writes_a_png(runs: dict[str, Path], tmp_path: Path) -> None:
    output = tmp_path / "rates.png"
    code, out, err = invoke("plot", str(runs["hands"]), "--by", "upcard", "-o", str(output))
    assert code == 0, err
    assert out.strip() == f"wrote {output}: 52 groups, 3,000 hands"
    data = output.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rates.png"]  # no temporary left behind
    if shutil.which("file"):
        kind = subprocess.run(["file", "-b", str(output)], capture_output=True, text=True, check=True).stdout
        assert kind.startswith("PNG image data")


@pytest.mark.parametrize("by, name", [
    (["--by", "upcard_rank", "--by", "dealer"], "rates.svg"),
    (["--by", "none"], "rates.pdf"),
    (["--by", "knock_limit"], "RATES.PNG"),
])
def test_plot_groupings_and_formats(runs: dict[str, Path], tmp_path: Path, by: list[str], name: str) -> None:
    output = tmp_path / name
    code, _, err = invoke("plot", str(runs["hands"]), *by, "--output", str(output))
    assert code == 0, err
    head = output.read_bytes()[:200]
    assert {".svg": b"<svg", ".pdf": b"%PDF", ".png": PNG_SIGNATURE}[output.suffix.lower()] in head


def test_plot_of_a_streamed_run(runs: dict[str, Path], tmp_path: Path) -> None:
    code, out, _ = invoke("plot", str(runs["counts"]), "--by", "upcard_suit", "-o", str(tmp_path / "suits.png"))
    assert code == 0 and "4 groups, 2,000 hands" in out


def test_the_title_names_the_run() -> None:
    identity = {"kind": "hands", "rules": Rules.preset("oklahoma").replace(target=250).to_dict(),
                "players": ["simple", "greedy"], "size": 3000, "seed": 4}
    assert describe_run(identity) == "oklahoma rules with target=250 | simple vs greedy | 3,000 hands | seed 4"


def test_a_failed_write_leaves_the_old_figure(runs: dict[str, Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from matplotlib.figure import Figure

    output = tmp_path / "rates.png"
    output.write_bytes(b"the old figure")
    table = summarize(runs["hands"], by="upcard_rank")

    def broken(self: Figure, *args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Figure, "savefig", broken)
    with pytest.raises(OSError, match="disk full"):
        plot_rates(table, ["upcard_rank"], output)
    assert output.read_bytes() == b"the old figure"
    assert [path.name for path in tmp_path.iterdir()] == ["rates.png"]


@pytest.mark.parametrize("target, args, message", [
    ("missing", [], "does not exist"),
    ("file", [], "is a file"),
    ("plain", [], "is not a ginsim run directory"),
    ("damaged", [], "is not a readable Parquet file"),
    ("matches", ["--by", "upcard"], "a run of matches is drawn whole: leave out --by"),
    ("rummy", [], "holds a run of rummy hands"),
    ("hands", ["--by", "colour"], "'colour' is not one of"),
    ("hands", ["--by", "seat"], "cannot group by 'seat'"),
    ("hands", ["-o", "rates.txt"], "'.txt' is not a figure format"),
    ("hands", ["-o", "rates"], "it has no extension"),
    ("hands", ["-o", "no-such-folder/rates.png"], "no directory"),
])
def test_plot_errors_are_one_line(runs: dict[str, Path], tmp_path: Path, target: str, args: list[str],
                                  message: str) -> None:
    paths = {"missing": tmp_path / "missing", "file": tmp_path / "file.txt", "plain": tmp_path,
             "damaged": tmp_path / "damaged", **runs}
    (tmp_path / "file.txt").write_text("not a run")
    damaged = tmp_path / "damaged"
    shutil.copytree(runs["hands"], damaged)
    for part in damaged.glob("part-*"):
        part.write_bytes(b"garbage")
    options = args if "-o" in args else [*args, "-o", str(tmp_path / "out.png")]
    options = [str(tmp_path / option) if option.startswith(("rates", "no-such")) else option for option in options]
    code, out, err = invoke("plot", str(paths[target]), *options)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out.png").exists()


def test_bench_prints_three_rates() -> None:
    code, out, err = invoke("bench", "--seconds", "0.3", "--repeats", "1")
    assert code == 0, err
    rates = re.findall(r"^  (.+?)\s+([\d,]+) hands/s$", out, flags=re.MULTILINE)
    assert [label.split(",")[0] for label, _ in rates] == [
        "solver deadwood_many", "solver best_discards_many", "hand loop play_hands"]
    assert all(int(rate.replace(",", "")) > 0 for _, rate in rates)
    assert "benchmarks are the real measurement (pytest-benchmark)" in out


def test_bench_refuses_a_bad_budget() -> None:
    code, out, err = invoke("bench", "--seconds", "0")
    assert code == 2 and out == "" and "0.1" in err


def test_replay_suits_as_letters_or_symbols() -> None:
    text = play_hand(Rules(), "simple,simple", 3, 1).to_text()
    assert invoke("replay", "--seed", "3", "--hand", "1")[1].strip() == text  # not a terminal: letters
    assert invoke("replay", "--seed", "3", "--hand", "1", "--letters")[1].strip() == text
    code, shown, _ = invoke("replay", "--seed", "3", "--hand", "1", "--symbols")
    assert code == 0 and shown.strip() == with_symbols(text)
    assert re.search("[\u2663\u2666\u2665\u2660]", shown)
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b", shown)
    assert re.sub("[\u2663\u2666\u2665\u2660]", lambda match: "CDHS"["\u2663\u2666\u2665\u2660".index(match[0])],
                  shown) == invoke("replay", "--seed", "3", "--hand", "1")[1]


class _Terminal(io.StringIO):
    def __init__(self, encoding: str) -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        return True


def test_symbols_only_on_a_terminal_that_can_show_them() -> None:
    assert symbols_supported(_Terminal("utf-8"))
    assert not symbols_supported(_Terminal("ascii"))
    assert not symbols_supported(_Terminal("latin-1"))
    assert not symbols_supported(io.StringIO())  # not a terminal
    assert not symbols_supported(object())



def test_long_group_labels_widen_the_figure(tmp_path: Path) -> None:
    """Nine ``turn`` bins ("35-39", "40+") get a wider figure than nine one-letter ranks, so that their
    labels do not run together."""
    import pandas as pd

    from ginsim.gin.studies.groups import TURN_BINS

    def width(labels: list[str], name: str) -> int:
        table = pd.DataFrame({"group": labels, "hands": 10, **{f"{rate}{end}": 0.5 for rate in (
            "knock_rate", "undercut_rate", "gin_rate", "draw_rate") for end in ("", "_low", "_high")}})
        header = plot_rates(table, ["group"], tmp_path / name).read_bytes()[16:20]  # the PNG's width
        return int.from_bytes(header, "big")

    assert width(list(TURN_BINS), "turns.png") > width(list("A23456789"), "ranks.png") + 50
