"""The two games' Python APIs agree: their run functions take the run options declared once, and
their outcomes and event kinds are ``StrEnum``s whose values are the engines' names and the records'."""
from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import pytest

from gincore._engine import EVENT_NAMES as GIN_EVENT_NAMES
from gincore._engine import OUTCOME_NAMES
from gincore._rummy import EVENT_NAMES as RUMMY_EVENT_NAMES
from ginsim import InputError, gin, rummy
from ginsim.core.execution import RunFields, RunOptions
from ginsim.gin.review.analysis import decide, evaluate_options
from ginsim.gin.studies.exact import exact_distribution
from ginsim.gin.studies.knocking import compare_rules
from ginsim.gin.studies.simulate import simulate_until

KEYWORD_ONLY, VAR_KEYWORD = inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD

RUNS = [gin.simulate, gin.simulate_matches, gin.tournament, gin.sweep, simulate_until, rummy.simulate,
        rummy.simulate_games]


@pytest.mark.parametrize("function", RUNS, ids=lambda function: f"{function.__module__}.{function.__name__}")
def test_every_run_takes_the_run_options_declared_once(function: Callable[..., Any]) -> None:
    parameters = inspect.signature(function).parameters
    assert not set(parameters) & set(RunFields.__annotations__)  # no signature repeats a field
    last = list(parameters.values())[-2:]
    assert [(p.name, p.kind, p.default) for p in last] == [("options", KEYWORD_ONLY, None),
                                                          ("run_options", VAR_KEYWORD, inspect.Parameter.empty)]
    assert last[1].annotation == "Unpack[RunFields]"
    if function not in (gin.sweep, simulate_until):
        assert list(parameters)[:2] == ["rules", "players"] and list(parameters)[3] == "seed"


STUDIES = [gin.equity_table, gin.analyze, decide, evaluate_options, exact_distribution, compare_rules]


@pytest.mark.parametrize("function", STUDIES, ids=lambda function: f"{function.__module__}.{function.__name__}")
def test_every_study_takes_the_run_options_declared_once(function: Callable[..., Any]) -> None:
    parameters = inspect.signature(function).parameters
    assert not set(parameters) & set(RunFields.__annotations__)
    assert parameters["options"].kind == KEYWORD_ONLY and parameters["options"].default is None


def test_the_run_options_are_keywords() -> None:
    rules = rummy.Rules()
    by_keyword = rummy.simulate(rules, "greedy,greedy", 50, 3, workers=1, backend="local", out=None, chunk_size=7)
    assert by_keyword.equals(rummy.simulate(rules, "greedy,greedy", 50, 3, options=RunOptions(workers=1)))
    with pytest.raises(TypeError, match="takes 4 positional arguments but 5 were given"):
        rummy.simulate(rules, "greedy,greedy", 50, 3, 1)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'wokers' \(the run options are workers, "):
        gin.simulate_matches(gin.Rules(), "greedy,simple", 5, 3, wokers=1)  # type: ignore[call-arg]
    with pytest.raises(InputError, match="simulate_until grows the run batch by batch: it takes no out"):
        simulate_until(gin.Rules(), "simple,simple", 0.1, None, 1000, 3, out="somewhere")


def test_the_enums_are_the_engines_names() -> None:
    assert tuple(gin.Outcome) == OUTCOME_NAMES
    assert tuple(gin.EventKind) == GIN_EVENT_NAMES
    assert tuple(rummy.EventKind) == RUMMY_EVENT_NAMES
    assert tuple(rummy.Outcome) == rummy.OUTCOMES


def test_records_and_json_keep_plain_values() -> None:
    records = gin.simulate(gin.Rules(), "simple,simple", 200, 1, workers=1)
    assert set(records["outcome"].cat.categories) <= set(OUTCOME_NAMES)
    assert all(type(value) is str for value in records["outcome"].cat.categories)
    hand = gin.play_hand(gin.Rules(), "simple,simple", 1, 5)
    assert isinstance(hand.outcome, gin.Outcome) and hand.outcome == records.loc[5, "outcome"]
    assert all(isinstance(event.kind, gin.EventKind) for event in hand.events)
    shown = hand.to_json()
    assert type(shown["outcome"]) is str and all(type(event["kind"]) is str for event in shown["events"])
    assert json.loads(json.dumps(shown))["outcome"] == hand.outcome.value
    played = rummy.play_hand(rummy.Rules(), "greedy,greedy,random", 1, 3)
    assert isinstance(played.outcome, rummy.Outcome)
    assert all(isinstance(event.kind, rummy.EventKind) for event in played.events)
    assert type(played.to_json()["outcome"]) is str
