"""Typed strategy parameters: one declaration per strategy (ginsim.gin.game.specs) read by the parser, the
native structs' check, ``ginsim strategies`` and the error messages."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gincore._engine import STRATEGY_PARAMETERS
from gincore.errors import InputError
from ginsim import Rules, simulate
from ginsim.core.fields import File, Integer
from ginsim.gin.game.players import native_spec, resolve_players, run_identity
from ginsim.gin.game.specs import (
    SPECS,
    Parameter,
    StrategySpec,
    canonical_name,
    check_native_structs,
    split_players,
)
from tests.cli_runner import invoke

WITH_PARAMETERS = [spec for spec in SPECS.values() if spec.parameters and spec.numeric]


@st.composite
def written_values(draw: st.DrawFn) -> tuple[StrategySpec, list[int]]:
    """A strategy with parameters and a value for each, within its range."""
    spec = draw(st.sampled_from(WITH_PARAMETERS))
    values = [draw(st.integers(p.kind.low, p.kind.high)) for p in spec.parameters if isinstance(p.kind, Integer)]
    return spec, values


@given(written_values(), st.data())
def test_keywords_and_shorthand_name_the_same_strategy(case: tuple[StrategySpec, list[int]],
                                                       data: st.DataObject) -> None:
    spec, values = case
    given_count = data.draw(st.integers(0, len(values)))
    shorthand = ":".join([spec.name, *map(str, values[:given_count])])
    keywords = ", ".join(f"{p.name}={v}" for p, v in zip(spec.parameters, values[:given_count], strict=False))
    if given_count < sum(p.required for p in spec.parameters):
        with pytest.raises(InputError, match="must be given"):
            canonical_name(f"{spec.name}({keywords})")
        return
    expected = ":".join([spec.name, *map(str, values[:given_count]),
                         *(str(p.default) for p in spec.parameters[given_count:])])
    assert canonical_name(shorthand) == canonical_name(f" {spec.name.upper()}( {keywords} ) ") == expected
    # keywords in any order
    reordered = ", ".join(reversed(keywords.split(", "))) if keywords else ""
    assert canonical_name(f"{spec.name}({reordered})") == expected


def test_the_canonical_names_are_the_stored_ones() -> None:
    """Runs stored before typed parameters name their players so; they must resume. (``reader``'s name
    gained a fifth value with its network guess, which changed its play: its runs stored before refuse to
    resume, as a run of another player would.)"""
    assert [canonical_name(name) for name in ("reader", "search", "sampler:128", "marjj", "threshold:5", "gin")] == [
        "reader:512:3:0:50:1", "search:64:3:0", "sampler:128:3:0", "marjj:5", "threshold:5", "gin"]
    assert canonical_name("reader(deals=1024, hedge=30)") == "reader:1024:3:0:30:1"


@pytest.mark.parametrize("text, message", [
    ("reader(deal=8)", "reader has no parameter 'deal' (did you mean 'deals'?); its parameters are deals, "
                       "discards, knock_at, hedge"),
    ("reader(deals=0)", "deals must be an integer from 1 to 4096, got 0"),
    ("reader(deals=5000)", "deals must be an integer from 1 to 4096, got 5000"),
    ("reader:\u0665", "deals must be an integer from 1 to 4096, got '\u0665'"),
    ("reader:+5", "deals must be an integer from 1 to 4096, got '+5'"),
    ("reader: 5", "a value with spaces or an empty value between colons"),
    ("reader:5.0", "deals must be an integer from 1 to 4096, got '5.0'"),
    ("reader:" + "9" * 40, "deals must be an integer from 1 to 4096"),
    ("reader(deals=8, deals=9)", "deals is given more than once"),
    ("reader(deals=8, 3)", "a value without a name after a named one"),
    ("reader(8, deals=9)", "deals is given more than once"),
    ("reader:1:2:3:4:1:6", "reader takes at most 5 parameters, got 6"),
    ("reader(1, 2, 3, 4, 1, 6)", "reader takes at most 5 parameters, got 6"),
    ("reader:1:2:3:4:5", "guess must be 0 or 1, got 5"),
    ("reader(deals=8,,hedge=3)", "an empty argument between commas"),
    ("reader(deals='8)", "a quote is not closed"),
    ("threshold", "knock_at must be given"),
    ("threshold()", "knock_at must be given"),
    ("simple(deals=3)", "simple takes no parameters"),
    ("simple:3", "simple takes no parameters"),
    ("gin:0", "gin takes no parameters"),
    ("serch(deals=3)", "unknown strategy 'serch(deals=3)' (did you mean 'search'?)"),
])
def test_every_mistake_is_named_in_one_line(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)) as caught:
        canonical_name(text)
    assert "\n" not in str(caught.value)


def test_a_message_shows_how_to_write_the_strategy() -> None:
    with pytest.raises(InputError) as caught:
        canonical_name("search:")
    assert "write search(deals=64, discards=3, knock_at=0) or search:S:C:K, with deals (S): an integer from 1 " \
           "to 4096, default 64; deals per decision" in str(caught.value)


def test_the_native_structs_are_the_declared_parameters() -> None:
    for spec in SPECS.values():
        if not spec.numeric:  # its values become other ints natively (learned: a network's number)
            assert spec.table_entry in STRATEGY_PARAMETERS
            continue
        assert STRATEGY_PARAMETERS[spec.table_entry] == (*spec.fixed, *(p.name for p in spec.parameters))
    assert STRATEGY_PARAMETERS["search"] == ("deals", "discards", "knock_at")


def test_a_declaration_that_disagrees_with_its_struct_is_refused_at_import() -> None:
    swapped = StrategySpec("search", "x", (SPECS["search"].parameters[1], SPECS["search"].parameters[0]))
    with pytest.raises(ImportError, match=r"strategy 'search' declares the parameters \('discards', 'deals'\), "
                                          r"its native struct has \('deals', 'discards', 'knock_at'\)"):
        check_native_structs({"search": swapped}, STRATEGY_PARAMETERS)
    with pytest.raises(ImportError, match="its native struct has None"):
        check_native_structs({"nowhere": StrategySpec("nowhere", "x")}, STRATEGY_PARAMETERS)


def test_the_native_spec_lays_the_values_in_struct_order() -> None:
    kinds = native_spec("reader(hedge=30, deals=8)", Rules())
    assert kinds[1:] == (8, 3, 0, 30, 1)
    assert native_spec("gin", Rules())[1:] == (0,) and native_spec("threshold(knock_at=4)", Rules())[1:] == (4,)


def test_players_are_split_outside_parentheses() -> None:
    assert split_players("reader(deals=8, hedge=3),search:8") == ["reader(deals=8, hedge=3)", "search:8"]
    assert [seat.name for seat in resolve_players("reader(deals=8, hedge=3), search(deals=8)")] == ["reader:8:3:0:3:1",
                                                                                           "search:8:3:0"]
    with pytest.raises(InputError, match="exactly two players, got 3"):
        resolve_players("simple,reader(deals=8),simple")


def test_a_keyword_player_plays_as_its_shorthand() -> None:
    keyword = simulate(Rules(), ["search(deals=4, discards=2)", "simple"], hands=6, seed=3, workers=1)
    shorthand = simulate(Rules(), ["search:4:2", "simple"], hands=6, seed=3, workers=1)
    assert keyword.equals(shorthand)


# --- a file parameter (a strategy's weights, say), on a spec made here --------------------------------

FILE_SPEC = StrategySpec("weighted", "A strategy of the tests with a file parameter.",
                         (Parameter("weights", File((".npz",)), "its weights file", letter="W"),
                          Parameter("depth", Integer(1, 9), "how deep", 2, "D")))


def test_a_file_parameter_is_an_existing_file_named_by_its_absolute_path(tmp_path: Path) -> None:
    weights = tmp_path / "w.npz"
    weights.write_bytes(b"first")
    values = FILE_SPEC.values("weighted", [], {"weights": f"'{weights}'"})
    assert values == {"weights": str(weights.resolve()), "depth": 2}
    assert FILE_SPEC.canonical(values) == f"weighted(weights={str(weights.resolve())!r})"  # defaults left out
    assert FILE_SPEC.canonical({**values, "depth": 3}) == f"weighted(weights={str(weights.resolve())!r}, depth=3)"
    first = FILE_SPEC.file_digests(values)
    weights.write_bytes(b"second")
    assert FILE_SPEC.file_digests(values) != first  # a changed file is another run
    for written, message in ((str(tmp_path / "none.npz"), "weights must be the path of an existing .npz file"),
                             (str(tmp_path), "weights must be the path of an existing .npz file"),
                             ("", "weights must be the path of an existing .npz file")):
        with pytest.raises(InputError, match=re.escape(message)):
            FILE_SPEC.values("weighted", [written], {})


def test_a_run_identity_is_unchanged_for_numeric_strategies() -> None:
    assert run_identity(["reader(deals=8)", "simple"]) == {"players": ["reader:8:3:0:50:1", "simple"]}


# --- the command line -----------------------------------------------------------------------------------

def test_the_strategies_command_lists_every_parameter_within_80_columns() -> None:
    code, out, err = invoke("strategies")
    assert code == 0 and err == ""
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "reader(deals=512, discards=3, knock_at=0, hedge=50, guess=1)\n    (short: reader:S:C:K:H:G)" in out
    assert "search(deals=64, discards=3, knock_at=0)  (short: search:S:C:K)" in out
    assert "- hedge (H): an integer from 0 to 100, default 50; the percentage of deals" in out
    code, out, _ = invoke("strategies", "--json")
    listed = {entry["name"]: entry for entry in json.loads(out)}
    assert code == 0 and list(listed) == list(SPECS)
    assert listed["threshold"]["parameters"][0] == {"name": "knock_at", "letter": "K", "allowed":
                                                    "an integer from 0 to 10", "default": None,
                                                    "meaning": "the most deadwood it knocks with"}


def test_the_command_line_takes_keyword_players() -> None:
    code, out, err = invoke("run", "--players", "search(deals=4, knock_at=2),simple", "--hands", "4")
    assert code == 0, err
    assert "search:4:3:2" in out
    code, out, err = invoke("run", "--players", "search(deals=0),simple", "--hands", "4")
    assert code == 2 and out == "" and "deals must be an integer from 1 to 4096, got 0" in err
    assert len(err.strip().splitlines()) == 1
