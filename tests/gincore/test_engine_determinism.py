"""Reproducibility of the hand loop (docs/how-it-is-built.md#reproducibility).

Hand ``i`` of a run with seed ``s`` is a pure function of (rules, players, s, i): ``play_hand`` gives the
same ``HandResult`` every time, whatever was played before, and its record equals row ``i`` of the
native batch entry point however the rows are cut into chunks (``first``/``count``). Different seeds
and different indices give different hands.
"""
from __future__ import annotations

import collections
import itertools
import pickle

import numpy as np
import pytest

import gincore._engine as native
import ginsim.gin.game.native
from ginsim import Rules, play_hand
from ginsim.gin.game.native import native_config, run_key
from tests.conftest import PRESET_NAMES, rule_sets

COLUMNS = ("hand", "dealer", "upcard", "knock_limit", "multiplier", "outcome", "winner", "knocker", "points",
           "knocker_deadwood", "defender_deadwood", "laid_off", "turns", "upcard_taken_by")
STRATEGY_NAMES = ("random", "simple", "greedy")
PAIRINGS = list(itertools.product(STRATEGY_NAMES, repeat=2))
RULE_SETS = rule_sets(*PRESET_NAMES, "big-gin", "reshuffle-2")
OUTCOME_NAMES = tuple(getattr(native, "OUTCOME_NAMES", ("knock", "undercut", "gin", "big_gin", "draw")))


def engine(rules: Rules, players: tuple[str, str]):
    """The native engine object of a rule set and two built-in strategies."""
    if hasattr(ginsim.gin.game.native, "engine"):
        return ginsim.gin.game.native.engine(rules, players)
    return native.Engine(native_config(rules), [native.STRATEGY_KINDS[name] for name in players])


def batch(rules: Rules, players: tuple[str, str], seed: int, first: int, count: int) -> dict[str, np.ndarray]:
    """Rows ``first .. first + count - 1`` from the native batch entry point."""
    key0, key1 = run_key(seed)
    if hasattr(native, "play_hands"):  # the module-level form play_hands(config, codes, key0, key1, ...)
        codes = [native.STRATEGY_KINDS[name] for name in players]
        return native.play_hands(native_config(rules), codes, key0, key1, first, count)
    return engine(rules, players).play_hands(key0, key1, first, count)


def rows(columns: dict[str, np.ndarray]) -> list[dict[str, object]]:
    out = []
    for i in range(len(columns["hand"])):
        row = {name: int(columns[name][i]) for name in COLUMNS}
        row["outcome"] = OUTCOME_NAMES[row["outcome"]]
        out.append(row)
    return out


def record(result) -> dict[str, object]:
    return {name: getattr(result, name) for name in COLUMNS}


def chunked(rules, players, seed, sizes, first=0) -> list[dict[str, object]]:
    out = []
    for size in sizes:
        out += rows(batch(rules, players, seed, first, size))
        first += size
    return out


def cut(total: int, size: int) -> list[int]:
    return [size] * (total // size) + ([total % size] if total % size else [])



@pytest.mark.parametrize("players", [("simple", "greedy"), ("random", "random"), ("greedy", "simple")])
@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_play_hand_is_a_pure_function_of_seed_and_index(rules_name, players, test_seed):
    rules = RULE_SETS[rules_name]
    indices = list(range(40)) + [10**6 + 3, 2**40 + 1]
    first = [play_hand(rules, players, test_seed, i) for i in indices]
    # Again, in another order and after other hands and other runs: nothing carries over.
    play_hand(rules, players, test_seed + 1, 7)
    again = {i: play_hand(rules, players, test_seed, i) for i in reversed(indices)}
    for i, result in zip(indices, first, strict=True):
        assert again[i] == result, f"seed {test_seed}, index {i}: a second play differs"
        assert result.hand == i and result.seed == test_seed


@pytest.mark.parametrize("players", PAIRINGS)
@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_play_hand_matches_the_batch_rows(rules_name, players, test_seed, full):
    rules = RULE_SETS[rules_name]
    whole = rows(batch(rules, players, test_seed, 0, 1000))
    # With --full every hand is played again; by default the first 200 and every hand of a rarer ending
    # (under a quarter of the rows), where the traced path is likeliest to part from the batch.
    endings = collections.Counter(row["outcome"] for row in whole)
    indices = range(1000) if full else sorted(set(range(200)) | {
        i for i, row in enumerate(whole) if endings[row["outcome"]] < len(whole) / 4})
    mismatches = [(i, whole[i], want) for i in indices
                  if whole[i] != (want := record(play_hand(rules, players, test_seed, i)))]
    assert not mismatches, (f"seed {test_seed}: batch row != play_hand for {len(mismatches)} hands; first "
                            f"(index, batch row, play_hand): {mismatches[0]}")


@pytest.mark.parametrize("sizes", [cut(1000, 1), cut(1000, 7), cut(1000, 333), [0, 999, 0, 1]],
                         ids=["by-1", "by-7", "by-333", "uneven"])
@pytest.mark.parametrize("players", [("simple", "greedy"), ("random", "greedy")])
@pytest.mark.parametrize("rules_name", ["standard", "oklahoma", "reshuffle-2"])
def test_chunking_does_not_change_the_rows(rules_name, players, sizes, test_seed):
    rules = RULE_SETS[rules_name]
    whole = rows(batch(rules, players, test_seed, 0, 1000))
    assert chunked(rules, players, test_seed, sizes) == whole, f"seed {test_seed}"


def test_rows_far_from_the_start_match_play_hand(test_seed):
    rules = Rules()
    players = ("simple", "random")
    first = 5_000_000_000
    got = rows(batch(rules, players, test_seed, first, 50))
    assert got == [record(play_hand(rules, players, test_seed, first + i)) for i in range(50)], f"seed {test_seed}"
    assert [row["hand"] for row in got] == list(range(first, first + 50))


@pytest.mark.parametrize("seed", [0, 1, 2**32, 2**64 + 5, 10**30])
def test_any_non_negative_seed_is_reproducible(seed):
    rules = Rules.preset("oklahoma")
    players = ("greedy", "simple")
    assert rows(batch(rules, players, seed, 0, 20)) == [record(play_hand(rules, players, seed, i))
                                                        for i in range(20)]
    assert play_hand(rules, players, seed, 3) == play_hand(rules, players, seed, 3)


def test_different_seeds_give_different_hands(test_seed):
    rules = Rules()
    players = ("simple", "simple")
    decks = {seed: [play_hand(rules, players, seed, i).deck for i in range(50)] for seed in (test_seed, test_seed + 1)}
    same = sum(a == b for a, b in zip(decks[test_seed], decks[test_seed + 1], strict=True))
    assert same == 0, f"seeds {test_seed} and {test_seed + 1} deal {same} identical decks out of 50"
    records = {seed: rows(batch(rules, players, seed, 0, 500)) for seed in (test_seed, test_seed + 1)}
    assert records[test_seed] != records[test_seed + 1]


def test_different_indices_give_different_hands(test_seed):
    decks = [play_hand(Rules(), ("simple", "simple"), test_seed, i).deck for i in range(300)]
    assert len(set(decks)) == len(decks), f"seed {test_seed}: two indices deal the same deck"


def test_deal_looks_uniform(test_seed):
    """Dealer, upcard and deck positions are spread as a fair shuffle spreads them (loose bounds)."""
    columns = batch(Rules(), ("simple", "simple"), test_seed, 0, 20_000)
    dealer_share = columns["dealer"].mean()
    assert 0.47 < dealer_share < 0.53, f"seed {test_seed}: dealer 1 in {dealer_share:.3f} of hands"
    upcards = np.bincount(columns["upcard"].astype(np.int64), minlength=52)
    # 20000 / 52 = 385 per card, standard deviation about 19.4: 6 deviations either way.
    assert upcards.min() > 385 - 6 * 19.4 and upcards.max() < 385 + 6 * 19.4, f"seed {test_seed}: {upcards}"
    tops = [play_hand(Rules(), ("random", "random"), test_seed, i).deck[0] for i in range(5200)]
    first_cards = np.bincount(tops, minlength=52)
    assert first_cards.min() > 100 - 6 * 10 and first_cards.max() < 100 + 6 * 10, f"seed {test_seed}"


def test_strategy_coin_flips_come_from_the_hand_stream(test_seed):
    """With a given deck the random players' flips still depend on (seed, index) only."""
    deck = list(range(52))
    one = play_hand(Rules(), ("random", "random"), test_seed, 4, deck=deck, dealer=0)
    assert one == play_hand(Rules(), ("random", "random"), test_seed, 4, deck=deck, dealer=0)
    others = [play_hand(Rules(), ("random", "random"), test_seed, i, deck=deck, dealer=0).events
              for i in range(5, 25)]
    assert any(events != one.events for events in others)


@pytest.mark.skipif(not hasattr(native, "Engine"), reason="no Engine class in this build")
class TestEngineEntryPoints:
    """The other native entry points agree with ``play_hands`` row by row."""

    @pytest.mark.parametrize("rules_name", ["standard", "oklahoma", "big-gin"])
    def test_play_record_is_the_row(self, rules_name, test_seed):
        rules = RULE_SETS[rules_name]
        players = ("greedy", "random")
        native_engine = engine(rules, players)
        key0, key1 = run_key(test_seed)
        expected = rows(batch(rules, players, test_seed, 100, 200))
        for row in expected:
            got = dict(zip(COLUMNS, native_engine.play_record(key0, key1, row["hand"]), strict=True))
            got["outcome"] = OUTCOME_NAMES[got["outcome"]]
            assert got == row, f"seed {test_seed}"

    def test_engine_survives_pickling(self, test_seed):
        rules, players = RULE_SETS["oklahoma"], ("simple", "greedy")
        original = engine(rules, players)
        clone = pickle.loads(pickle.dumps(original))
        key0, key1 = run_key(test_seed)
        for name, column in original.play_hands(key0, key1, 0, 300).items():
            assert np.array_equal(column, clone.play_hands(key0, key1, 0, 300)[name]), name

    @pytest.mark.skipif(not hasattr(getattr(native, "Engine", None), "play_counts"), reason="no play_counts")
    @pytest.mark.parametrize("rules_name", ["standard", "oklahoma", "big-gin"])
    def test_play_counts_add_up_the_rows(self, rules_name, test_seed):
        rules = RULE_SETS[rules_name]
        players = ("simple", "random")
        native_engine = engine(rules, players)
        key0, key1 = run_key(test_seed)
        columns = native_engine.play_hands(key0, key1, 0, 3000)
        counts = native_engine.play_counts(key0, key1, 0, 3000)
        hands = np.zeros((2, 52, 5, 3), np.int64)
        points = np.zeros((2, 52, 5, 3), np.int64)
        turns = np.zeros((2, 52, 5, 3), np.int64)
        cell = (columns["dealer"].astype(np.int64), columns["upcard"].astype(np.int64),
                columns["outcome"].astype(np.int64), columns["winner"].astype(np.int64) + 1)
        np.add.at(hands, cell, 1)
        np.add.at(points, cell, columns["points"].astype(np.int64))
        np.add.at(turns, cell, columns["turns"].astype(np.int64))
        assert np.array_equal(counts["hands"], hands)
        assert np.array_equal(counts["points"], points)
        assert np.array_equal(counts["turns"], turns)
        assert counts["points_histogram"].sum() == 3000
        # Counts of one long run equal the sum of counts of its chunks.
        parts = [native_engine.play_counts(key0, key1, first, size)
                 for first, size in ((0, 1), (1, 999), (1000, 2000))]
        for name in ("hands", "points", "turns", "points_histogram"):
            assert np.array_equal(sum(part[name] for part in parts), counts[name]), name
