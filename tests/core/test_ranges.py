"""Numeric ranges: every numeric rule field of both games at its bounds and one past them.

One past a bound is refused with one line naming the field (as a value, as command-line text and through
``replace``). At a bound, the hands and games played are scored again here, independently: each hand's
points from its outcome, deadwoods, multiplier and the rules' bonuses (docs/rules.md#the-showdown,
#scoring-a-hand), a sample of hands replayed event by event by the reference replayers, and each match's
totals from its hands (docs/rules.md#games-to-a-target). Any integral number (numpy's too) is taken
wherever an ``int`` is.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from gincore._engine import RECORD_DTYPE
from gincore._rummy import GAME_COLUMNS
from ginsim import Rules, play_hand, rummy, simulate, simulate_matches
from ginsim.core.fields import Integer
from ginsim.gin.game.native import match_key
from ginsim.gin.game.players import engine
from ginsim.gin.game.rules import MOST_BONUS
from ginsim.gin.studies.matches import play_match
from tests.reference.gin_replay import replay
from tests.reference.rummy_replay import replay as rummy_replay

MOST_DEADWOOD = 98
"""The largest deadwood of ten cards: two each of K, Q, J, 10 and 9, no two of them in a run."""


def integer_fields(rules_class: type) -> list[tuple[str, Integer]]:
    return [(field.name, field.metadata["kind"]) for field in dataclasses.fields(rules_class)
            if isinstance(field.metadata["kind"], Integer)]


GIN_FIELDS = integer_fields(Rules)
RUMMY_FIELDS = integer_fields(rummy.Rules)


def test_every_numeric_field_has_a_range() -> None:
    assert {name for name, _ in GIN_FIELDS} == {"knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus",
                                                 "oklahoma_ace_limit", "stock_floor", "max_reshuffles", "target",
                                                 "box_bonus", "game_bonus"}
    assert {name for name, _ in RUMMY_FIELDS} == {"target", "max_turnovers"}
    for _, kind in GIN_FIELDS + RUMMY_FIELDS:
        assert kind.high < 2**31  # the native engines keep every field in a C int


def test_every_score_fits_the_record() -> None:
    import gincore

    worst = gincore.parse_cards("KC KD QH QS JC JD TH TS 9C 9D")
    assert gincore.deadwood(worst) == MOST_DEADWOOD
    # A hand scores at most the defender's deadwood plus the largest bonus, doubled by a spade upcard.
    assert (MOST_DEADWOOD + MOST_BONUS) * 2 <= np.iinfo(RECORD_DTYPE["points"]).max


@pytest.mark.parametrize("rules_class, name, kind", [(Rules, *field) for field in GIN_FIELDS]
                         + [(rummy.Rules, *field) for field in RUMMY_FIELDS])
def test_bounds_are_taken_and_one_past_them_refused(rules_class: type, name: str, kind: Integer) -> None:
    for value in (kind.low, kind.high):
        assert getattr(rules_class(**{name: value}), name) == value
        assert getattr(rules_class().with_overrides([f"{name}={value}"]), name) == value
    for value in (kind.low - 1, kind.high + 1, 2**31, 2**64, -(2**63), 10**40):
        message = rf"^{name} must be {re.escape(kind.describe())}, got "
        with pytest.raises(ValueError, match=message) as info:
            rules_class(**{name: value})
        assert "\n" not in str(info.value)
        with pytest.raises(ValueError, match=message):
            rules_class().replace(**{name: value})
        with pytest.raises(ValueError, match=message):
            rules_class().with_overrides([f"{name}={value}"])


def test_a_number_too_long_to_read_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^gin_bonus must be an integer from 0 to 1000, got a number of 5000 digits$"):
        Rules().with_overrides(["gin_bonus=" + "9" * 5000])
    with pytest.raises(ValueError, match=r"^target must be .*, got an integer of 16,610 bits$"):
        Rules(target=10**5000)


def test_numpy_integers_are_integers() -> None:
    rules = Rules(knock_limit=np.int64(5), gin_bonus=np.uint16(30), big_gin_bonus=np.int8(31))
    assert rules == Rules(knock_limit=5, gin_bonus=30, big_gin_bonus=31)
    assert type(rules.knock_limit) is int and type(rules.to_dict()["gin_bonus"]) is int
    assert rummy.Rules(target=np.int32(50)).target == 50
    for refused in (np.float64(5), np.bool_(True), 5.0, True):
        with pytest.raises(ValueError, match="knock_limit must be an integer from 0 to 10"):
            Rules(knock_limit=refused)
    records = simulate(Rules(), "simple,simple", np.int64(30), np.uint32(4), workers=1, chunk_size=np.int16(7))
    assert records["hand"].tolist() == list(range(30))
    assert Rules.preset("oklahoma").knock_limit_for(np.int64(45)) == 7


def expected_points(rules: Rules, row: object) -> int:
    """The score of one hand from docs/rules.md#scoring-a-hand, given its outcome and deadwoods."""
    outcome = row.outcome
    knocker, defender = int(row.knocker_deadwood), int(row.defender_deadwood)
    if outcome == "draw":
        return 0
    if outcome == "knock":
        base = defender - knocker
    elif outcome == "undercut":
        base = knocker - defender + rules.undercut_bonus
    elif outcome == "gin":
        base = defender + rules.gin_bonus
    else:
        assert rules.big_gin_bonus is not None
        base = defender + rules.big_gin_bonus
    return base * int(row.multiplier)


HAND_RULES = [
    *[Rules(oklahoma=True, gin_bonus=bonus, undercut_bonus=bonus, big_gin_bonus=bonus) for bonus in (0, MOST_BONUS)],
    Rules(gin_bonus=MOST_BONUS, undercut_bonus=MOST_BONUS, big_gin_bonus=None),
    Rules(knock_limit=0), Rules(knock_limit=10, big_gin_bonus=0),
    Rules(oklahoma=True, oklahoma_ace_limit=0), Rules(oklahoma=True, oklahoma_ace_limit=1, spade_doubles=False),
    Rules(stock_floor=0), Rules(stock_floor=10),
    Rules(exhaustion="reshuffle", max_reshuffles=0), Rules(exhaustion="reshuffle", max_reshuffles=1000,
                                                           stock_floor=10),
]


@pytest.mark.parametrize("rules", HAND_RULES, ids=lambda rules: rules.label())
def test_hands_at_the_bounds_score_as_the_rules_say(rules: Rules, seed_for) -> None:
    seed = seed_for(f"ranges {rules.label()}")
    records = simulate(rules, "gin,simple", 600, seed, workers=1)
    for row in records.itertuples():
        assert int(row.points) == expected_points(rules, row), row
        assert int(row.knock_limit) == rules.knock_limit_for(int(row.upcard))
        assert int(row.multiplier) == rules.multiplier_for(int(row.upcard))
    assert records["points"].max() <= (MOST_DEADWOOD + max(rules.gin_bonus, rules.undercut_bonus,
                                                           rules.big_gin_bonus or 0)) * 2
    for index in np.random.default_rng(seed).choice(600, 12, replace=False):
        hand = play_hand(rules, "gin,simple", seed, int(index))
        replay(hand)  # every step and every record field, from the rules text
        assert hand.points == records.loc[int(index), "points"]


def expected_match(rules: Rules, hands: list[tuple[int, int, int]]) -> dict[str, int]:
    """A match's totals from its hands (dealer, winner, points), per docs/rules.md#games-to-a-target: each
    game ends at the target; the winner adds the game bonus, everyone a box per hand won, doubled for a shutout; under
    Hollywood a player's n-th win counts in the first n games."""
    games = 3 if rules.hollywood else 1
    scores = [[0, 0] for _ in range(games)]
    boxes = [[0, 0] for _ in range(games)]
    wins = [0, 0]

    def still_open(game: int) -> bool:  # without a target a game is one scoring hand
        return sum(boxes[game]) == 0 if rules.target is None else max(scores[game]) < rules.target

    for _, winner, points in hands:
        assert any(still_open(game) for game in range(games)), "a hand played after the match ended"
        if winner < 0:
            continue
        wins[winner] += 1
        for game in range(min(wins[winner], games)):
            if still_open(game):
                scores[game][winner] += points
                boxes[game][winner] += 1
    assert not any(still_open(game) for game in range(games)), "the match stopped before its end"
    totals = [0, 0]
    for game in range(games):
        winner = 0 if scores[game][0] > scores[game][1] else 1
        if rules.target is None:
            totals[winner] += scores[game][winner]
            continue
        for player in (0, 1):
            total = scores[game][player] + rules.box_bonus * boxes[game][player]
            if player == winner:
                total += rules.game_bonus
                if boxes[game][1 - player] == 0 and rules.shutout_doubles:
                    total *= 2
            totals[player] += total
    return {"total_0": totals[0], "total_1": totals[1], "hands": len(hands)}


MATCH_RULES = [
    Rules(target=1), Rules(target=None),
    Rules(target=1000, box_bonus=MOST_BONUS, game_bonus=MOST_BONUS, gin_bonus=MOST_BONUS),
    Rules(target=1000, box_bonus=0, game_bonus=0, shutout_doubles=False),
    Rules(target=1000, hollywood=True, oklahoma=True, undercut_bonus=MOST_BONUS),
]


@pytest.mark.parametrize("rules", MATCH_RULES, ids=lambda rules: rules.label())
def test_matches_at_the_bounds_total_as_the_rules_say(rules: Rules, seed_for) -> None:
    seed = seed_for(f"match ranges {rules.label()}")
    table = engine(rules, "gin,simple")
    rows = simulate_matches(rules, "gin,simple", 6, seed, workers=1)
    for match in range(6):
        hands: list[tuple[int, int, int]] = []
        row = play_match(table, rules, match_key(seed), match, hands)
        assert {name: row[name] for name in ("total_0", "total_1", "hands")} == expected_match(rules, hands)
        assert row == {name: rows.loc[match, name] for name in row}


@pytest.mark.parametrize("rules", [rummy.Rules(target=1), rummy.Rules(target=1000, max_turnovers=50),
                                   rummy.Rules(max_turnovers=0, rummy_doubles=False)], ids=lambda rules: rules.label())
def test_rummy_at_the_bounds(rules: rummy.Rules, seed_for) -> None:
    seed = seed_for(f"rummy ranges {rules.label()}")
    hands = rummy.simulate(rules, "greedy,greedy,random", 300, seed, workers=1)
    assert hands["turnovers"].max() <= rules.max_turnovers
    for index in np.random.default_rng(seed).choice(300, 10, replace=False):
        rummy_replay(rummy.play_hand(rules, "greedy,greedy,random", seed, int(index)))
    games = rummy.simulate_games(rules, "greedy,greedy", 8, seed, workers=1)
    assert set(GAME_COLUMNS) <= set(games)
    for row in games.itertuples():
        totals = [row.total_0, row.total_1]
        assert totals[row.winner] >= rules.target > totals[1 - row.winner]
