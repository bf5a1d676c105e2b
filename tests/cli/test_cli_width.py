"""What the command line prints fits an 80-column terminal: every command's help, the lists of rules
and strategies, and the tables and texts of the commands a newcomer runs first."""
from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from ginsim.cli import main
from tests.cli_runner import invoke

WIDTH = 80


def command_paths(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group under ``group``, as the words that name it."""
    found = [prefix]
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += command_paths(command, (*prefix, name))
        else:
            found.append((*prefix, name))
    return found


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


@pytest.mark.parametrize("words", command_paths(), ids=lambda words: " ".join(("ginsim", *words)))
def test_help_fits_80_columns_in_plain_text(words: tuple[str, ...]) -> None:
    code, out, err = invoke(*words, "--help")
    assert code == 0, err
    assert too_wide(out) == []
    assert "``" not in out  # the docstrings' reStructuredText literals are for the docs page only


@pytest.mark.parametrize("words", [("strategies",), ("rules",), ("rummy", "strategies"), ("rummy", "rules"),
                                   ("run", "--hands", "3000", "--by", "upcard_rank", "--workers", "1"),
                                   ("run", "--matches", "20", "--players", "greedy,simple", "--duplicate",
                                    "--workers", "1"),
                                   ("run", "--matches", "20", "--players", "greedy,simple", "--teams", "2",
                                    "--workers", "1"),
                                   ("tournament", "--players", "simple,greedy,gin", "--matches", "4",
                                    "--workers", "1"),
                                   ("hand", "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]"),
                                   ("replay", "--seed", "0", "--hand", "42"),
                                   ("sweep", "--knock-limit", "0..10:5", "--players", "simple,simple", "--players",
                                    "marjj,simple", "--hands", "300", "--workers", "1", "--by", "dealer"),
                                   ("sweep", "--rules", "standard,oklahoma,knock5", "--undercut-bonus", "10,25",
                                    "--players", "marjj,simple", "--matches", "4", "--workers", "1"),
                                   ("when-to-knock", "--hands", "20", "--deals", "1", "--play", "10"),
                                   ("equity", "--target", "20", "--hands", "3000", "--replicates", "2",
                                    "--workers", "1")],
                         ids=lambda words: " ".join(words[:2]))
def test_lists_and_tables_fit_80_columns(words: tuple[str, ...]) -> None:
    code, out, err = invoke(*words)
    assert code == 0, err
    assert too_wide(out) == []


@pytest.mark.slow
def test_an_analysis_fits_80_columns(tmp_path: Path) -> None:
    code, shown, err = invoke("replay", "--players", "greedy,marjj", "--seed", "3", "--match", "1", "--json")
    assert code == 0, err
    path = tmp_path / "match.json"
    path.write_text(shown)
    code, out, err = invoke("analyze", str(path), "--deals", "4", "--options", "2")
    assert code == 0, err
    assert "Hand 0:" in out and too_wide(out) == []
    assert json.loads(shown)["hands"][0]["hand"] == 0  # the numbering of the record, the replay and the text


@pytest.mark.parametrize("words", [("hand", "6H 7H 8H 9C 9D 9S 2S 3S 4S 5D KD", "--defender",
                                    "2H 3H 4H QC QD QH QS 9H 7S AC"),
                                   ("play", "--against", "greedy"),
                                   ("rummy", "run", "--players", "greedy,greedy,random", "--hands", "300",
                                    "--workers", "1")],
                         ids=lambda words: " ".join(words[:2]))
def test_more_texts_fit_80_columns(words: tuple[str, ...]) -> None:
    """The showdown of ``hand --defender``, the help and the quitting line of ``play``, Rummy's rows."""
    code, out, err = invoke(*words, input="?\nq\n")
    assert code == 0, err
    assert too_wide(out) == []


def test_compare_fits_80_columns(tmp_path: Path) -> None:
    for name, rules in (("a", "standard"), ("b", "oklahoma")):
        code, _, err = invoke("run", "--rules", rules, "--hands", "500", "--workers", "1", "--out",
                              str(tmp_path / name))
        assert code == 0, err
    code, out, err = invoke("compare", str(tmp_path / "a"), str(tmp_path / "b"))
    assert code == 0, err
    assert too_wide(out) == [] and "* significant at 5% after Holm's correction" in " ".join(out.split())


def test_the_source_line_breaks_between_words() -> None:
    """A wrapped source line never cuts a name at its hyphen (it printed "last-" and "card" on two lines)."""
    code, out, err = invoke("sweep", "--rules", "standard,oklahoma,last-card,reshuffle", "--hands", "200",
                            "--workers", "1")
    assert code == 0, err
    assert "standard,oklahoma,last-card,reshuffle" in out and too_wide(out) == []


def test_a_long_player_name_is_shown_short_with_a_legend(tmp_path: Path) -> None:
    """A player named by a long file (``learned(weights=...)``) widened a tournament's tables to 110
    columns: the text shows a short name and says in a legend what it stands for; the JSON keeps it."""
    import shutil

    import ginsim

    folder = tmp_path / "a-folder-with-a-rather-long-name" / "and-another-one"
    folder.mkdir(parents=True)
    policy = folder / "policy.npz"
    shutil.copy(Path(ginsim.__file__).parent / "gin" / "data" / "learned_standard.npz", policy)
    players = f"learned(weights={policy}),simple,greedy"
    code, out, err = invoke("tournament", "--players", players, "--matches", "4", "--workers", "1")
    assert code == 0, err
    assert too_wide(out) == []
    legend = f"(learned(policy) is learned(weights='{policy}'))"
    assert "learned(policy)" in out and "".join(legend.split()) in "".join(out.split())  # the legend, wrapped
    code, out, err = invoke("tournament", "--players", players, "--matches", "4", "--workers", "1", "--json")
    assert code == 0 and {row["player"] for row in json.loads(out)["rows"]} >= {f"learned(weights='{policy}')"}


def test_play_against_a_long_name_fits_80_columns() -> None:
    """``play`` against ``reader:512:3:0:50:0`` printed its first line at 94 columns and its table lines,
    with the cards the opponent holds from the pile, past 80."""
    code, out, err = invoke("play", "--against", "reader:512:3:0:50:0", "--target", "10", "--seed", "3",
                            input="\n" * 400)
    assert code == 0, err
    assert "holds from the pile" in out and too_wide(out) == []
    # the input ending mid-game names the opponent as a table does: 93 columns with its full name
    code, out, err = invoke("play", "--against", "reader:512:3:0:50:0", "--target", "10", input="?\n")
    assert code == 1 and err.strip().startswith("The input ended") and "you 0, reader:512:3:0:50:0 0)" in err
    assert too_wide(out) == [] and too_wide(err) == []


def test_a_plots_names_agree_with_its_footer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep's plot named its pair ``marjj:5,simple`` in the legend where its footer said ``marjj,simple``:
    the text, the figure and its footer name players by their display names (parameters at their defaults
    left out); the CSV keeps the full names. The tournament's heatmap names them as its table does."""
    from ginsim.gin.studies import plot

    drawn: dict[str, object] = {}
    monkeypatch.setattr(plot, "plot_sweep", lambda table, x, path, subtitle, **_: drawn.update(
        names=set(table["players"]), subtitle=subtitle))
    monkeypatch.setattr(plot, "plot_win_matrix", lambda matrix, path, subtitle, **_: drawn.update(
        names=set(matrix.index) | set(matrix.columns), subtitle=subtitle))
    code, out, err = invoke("sweep", "--knock-limit", "0,10", "--players", "marjj:5,simple", "--players",
                            "reader:512:3,simple", "--hands", "20", "--workers", "1", "--plot",
                            str(tmp_path / "kl.png"), "--csv", str(tmp_path / "kl.csv"))
    assert code == 0, err
    assert drawn["names"] == {"marjj,simple", "reader,simple"}
    assert "| marjj,simple; reader,simple |" in str(drawn["subtitle"])
    assert "marjj:5" not in out and "reader:512" not in out and "marjj,simple; reader,simple" in out
    assert "marjj:5,simple" in (tmp_path / "kl.csv").read_text()
    code, out, err = invoke("tournament", "--players", "marjj:5,simple,reader:512", "--matches", "4",
                            "--workers", "1", "--plot", str(tmp_path / "heat.png"))
    assert code == 0, err
    assert drawn["names"] == {"marjj", "simple", "reader"} and "| marjj, simple, reader |" in str(drawn["subtitle"])
    assert "marjj:5" not in out and "reader:512" not in out
