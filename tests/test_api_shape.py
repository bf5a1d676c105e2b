"""The two games' Python APIs agree: their run functions take the run options in the same order, and
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
from ginsim import gin, rummy

RUNS = [gin.simulate, gin.simulate_matches, rummy.simulate, rummy.simulate_games]
RUN_OPTIONS = ("workers", "backend", "out", "chunk_size", "scheduler", "progress")


def run_options(function: Callable[..., Any]) -> list[tuple[str, object, object]]:
    parameters = inspect.signature(function).parameters.values()
    return [(p.name, p.kind, p.default) for p in parameters if p.name in RUN_OPTIONS]


@pytest.mark.parametrize("function", RUNS, ids=lambda function: f"{function.__module__}.{function.__name__}")
def test_every_run_takes_the_run_options_in_the_same_order(function: Callable[..., Any]) -> None:
    names = list(inspect.signature(function).parameters)
    assert names[:2] == ["rules", "players"] and names[3] == "seed"
    assert run_options(function) == run_options(gin.simulate)
    assert [name for name, _, _ in run_options(function)] == list(RUN_OPTIONS)


def test_the_run_options_work_by_position_and_by_keyword() -> None:
    rules = rummy.Rules()
    by_position = rummy.simulate(rules, "greedy,greedy", 50, 3, 1, "local", None, chunk_size=7)
    assert by_position.equals(rummy.simulate(rules, "greedy,greedy", 50, 3, workers=1, chunk_size=7))
    games = rummy.simulate_games(rummy.Rules(target=30), "greedy,random", 5, 3, 1, "local")
    assert len(games) == 5


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
