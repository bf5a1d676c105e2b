"""The rating list: who plays it and how often, how it is built and shown, and the shipped file."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from ginsim.gin.game.players import Player
from ginsim.gin.game.specs import SPECS
from ginsim.gin.studies import rating_list
from ginsim.gin.studies.rating_list import (
    ANCHOR_LEVEL,
    ENTRANTS,
    GAMES,
    build,
    markdown_table,
    pairings,
    rating_text,
    shipped,
)


def test_every_built_in_strategy_enters_and_every_pair_meets_once() -> None:
    assert {name.split(":")[0] for name in ENTRANTS} == set(SPECS)
    plan = pairings()
    assert len({frozenset(pair[:2]) for pair in plan}) == len(plan) == len(ENTRANTS) * (len(ENTRANTS) - 1) // 2
    assert {games for _, _, games in plan} == {GAMES} and GAMES % 2 == 0  # equal games; duplicate deals: pairs
    last = list(ENTRANTS)[-1]
    assert all(last in pair for pair in plan[-(len(ENTRANTS) - 1):])  # the slowest player's pairings last


def _table(scores: dict[tuple[str, str], float], games: int = 400) -> pd.DataFrame:
    rows = []
    for (first, second), share in scores.items():
        wins = round(share * games)
        rows.append({"player": Player.of(first).name, "opponent": Player.of(second).name, "matches": games,
                     "wins": wins, "losses": games - wins, "pair_score_sd": 0.4})
    return pd.DataFrame(rows)


def test_a_list_is_built_best_first_around_simple(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rating_list, "ENTRANTS", ("random", "simple", "gin", "marjj"))
    table = _table({("random", "simple"): 0, ("random", "gin"): 0, ("random", "marjj"): 0, ("simple", "gin"): 0.3,
                    ("simple", "marjj"): 0.25, ("gin", "marjj"): 0.4})
    data = build(table, {"random": 0.001, "simple": 0.002, "gin": 0.003, "marjj": 0.01}, command="cmd",
                 commit="abc", date="2026-01-01", seconds=60, cpu_seconds=50, invocations=1)
    assert [row["player"] for row in data["players"]] == ["marjj", "gin", "simple", "random"]
    rows = {row["player"]: row for row in data["players"]}
    assert (rows["simple"]["rating"], rows["simple"]["low"], rows["simple"]["high"]) == (ANCHOR_LEVEL,) * 3
    assert rows["marjj"]["name"] == "marjj:5" and rows["marjj"]["strategy"] == "marjj"
    assert rows["marjj"]["low"] < rows["marjj"]["rating"] < rows["marjj"]["high"]
    assert rows["random"]["rating"] is None and rows["random"]["beyond"] == "below"
    assert rating_text(rows["random"]) == "below all (no finite rating)"
    assert rating_text(rows["simple"]) == "1500 (anchor)"
    assert rating_text(rows["marjj"]) == (f"{rows['marjj']['rating']:.0f} ± "
                                          f"{rows['marjj']['high'] - rows['marjj']['rating']:.0f}")
    assert data["command"] == "cmd" and data["anchor"] == "simple = 1500" and data["rules"] == "eaai"
    assert data["entrants"] == ["random", "simple", "gin", "marjj"] and data["games"] == GAMES
    lines = markdown_table(data).splitlines()
    assert len(lines) == 2 + len(rows) and lines[2].startswith("| `marjj` | ")
    assert lines[-1] == "| `random` | below all (no finite rating) | 1,200 | 0.000 | 0.001 |"


# --- the shipped list ---------------------------------------------------------------------------------

def test_the_shipped_list_is_the_one_the_code_plays() -> None:
    """The file was made by the entrants, games and seed of the code (else: python tools/make_rating_list.py)."""
    data = shipped()
    assert data is not None
    assert data["pairings"] == [list(pair) for pair in pairings()] and data["entrants"] == list(ENTRANTS)
    assert data["games"] == GAMES
    assert (data["rules"], data["seed"]) == (rating_list.RULES, rating_list.SEED)
    assert data["command"].startswith("python tools/make_rating_list.py")
    assert [row["player"] for row in data["players"]] != [] and {row["player"] for row in data["players"]} == set(
        ENTRANTS)


def test_the_shipped_ratings_hold_together() -> None:
    data = shipped()
    assert data is not None
    rows = data["players"]
    finite = [row["rating"] for row in rows if row["rating"] is not None]
    assert finite == sorted(finite, reverse=True) and rows[0]["rating"] is not None  # best first
    for row in rows:
        played = sum(games for first, second, games in data["pairings"] if row["player"] in (first, second))
        assert row["games"] == played and 0 <= row["score"] <= 1 and row["decision_ms"] > 0
        if row["rating"] is None:
            assert row["beyond"] in ("above", "below") and row["low"] is None
        else:
            assert row["low"] <= row["rating"] <= row["high"] and math.isfinite(row["high"] - row["low"])
    simple = next(row for row in rows if row["player"] == "simple")
    assert simple["rating"] == simple["low"] == simple["high"] == ANCHOR_LEVEL
