"""The reference bot ``marjj`` and the search bot ``search``: legal play under every rule set, names,
reproducibility, what they may see, the match-value table, and strength against the baseline."""
from __future__ import annotations

import numpy as np
import pytest

from ginsim import Rules, play_hand, simulate, simulate_matches
from ginsim.gin.engine import engine
from ginsim.gin.equity_tables import match_value_array
from ginsim.gin.strategies import describe, resolve_players
from tests.test_engine_invariants import PRESETS, VARIANTS, sweep

# search plays a few deals per decision here: the rules of play, not its strength, are under test
BOTS = ("marjj", "search:6")
HANDS = {"marjj": 30, "search:6": 6}


@pytest.mark.parametrize("name", list(PRESETS) + list(VARIANTS))
@pytest.mark.parametrize("bot", BOTS)
def test_bots_play_legal_hands_under_every_rule_set(name: str, bot: str, seed_for) -> None:
    """Every move legal and every hand scored by the rules (the independent replayer checks both),
    in either seat, against the baseline and against each other."""
    rules = {**PRESETS, **VARIANTS}[name]
    for players in ((bot, "simple"), ("greedy", bot), (bot, "marjj")):
        sweep(f"bots/{name}", rules, players, range(HANDS[bot]), seed_for(f"bots/{name}/{players}"), 3)


@pytest.mark.parametrize("rules", [Rules(), Rules(target=None), Rules(hollywood=True),
                                   Rules.preset("oklahoma").replace(target=250)])
def test_bots_play_matches_under_match_rules(rules: Rules, test_seed: int) -> None:
    table = simulate_matches(rules, "search:4,marjj", 4, test_seed, workers=1)
    assert len(table) == 4 and set(table["winner"]) <= {-1, 0, 1}


@pytest.mark.parametrize("text, expected", [
    ("marjj,search", ("marjj:5", "search:64:3:0")),
    ("MARJJ:9,search:32", ("marjj:9", "search:32:3:0")),
    ("search:8:2:3,simple", ("search:8:2:3", "simple")),
])
def test_names_and_defaults(text: str, expected: tuple[str, str]) -> None:
    assert resolve_players(text) == expected
    assert all(describe(name) for name in expected)


@pytest.mark.parametrize("text, message", [
    ("search:0,simple", r"search\[:S\[:C\[:K\]\]\] with S deals per decision \(1-4096\)"),
    ("search:8:12,simple", "C discards compared"),
    ("search:8:3:11,simple", "knock threshold"),
    ("marjj:0,simple", r"marjj\[:E\]"),
    ("marjj:5:1,simple", r"marjj\[:E\]"),
    ("marj,simple", "did you mean 'marjj'"),
])
def test_bad_names(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_players(text)


def test_search_is_reproducible(test_seed: int) -> None:
    first = simulate(Rules(), "search:6,marjj", 30, test_seed, workers=1)
    again = simulate(Rules(), "search:6,marjj", 30, test_seed, workers=2, chunk_size=7)
    assert first.equals(again)


@pytest.mark.parametrize("bot", ["marjj", "search:16"])
def test_first_decisions_depend_only_on_what_the_bot_has_seen(bot: str, test_seed: int) -> None:
    """The non-dealer is offered the upcard first: its answer (and, when it takes the card, its
    discard) is the same on two deals that differ only in cards it cannot see, one of the dealer's
    cards swapped with the bottom card of the stock."""
    rng = np.random.default_rng(test_seed)
    for index in range(12):
        deck = [int(card) for card in rng.permutation(52)]
        hidden = list(deck)
        hidden[1], hidden[51] = hidden[51], hidden[1]  # deck[1] is the dealer's first card
        results = [play_hand(Rules(), ["simple", bot], test_seed, index, deck=cards, dealer=0)
                   for cards in (deck, hidden)]
        first = [[(event.kind, event.card) for event in result.events if event.player == 1]
                 for result in results]
        assert first[0][0] == first[1][0], (index, first)
        if first[0][0][0] == "take_upcard":
            assert first[0][1] == first[1][1], (index, first)


def test_match_value_table() -> None:
    """The chance to win from scores (a, b): 1/2 at equal scores, rising with one's own score,
    falling with the opponent's, and the two players' chances adding to 1; under rules with a shipped
    match equity table it is that table, else search's own from simple-vs-simple hands."""
    shipped = match_value_array(Rules())
    assert shipped is not None and match_value_array(Rules.preset("eaai")) is None
    for rules in (Rules(), Rules.preset("eaai")):
        value = engine(rules, "search,simple").match_value
        assert value(0, 0) == pytest.approx(0.5, abs=1e-6)
        assert value(60, 60) == pytest.approx(0.5, abs=1e-6)
        for a, b in ((0, 30), (40, 70), (95, 20), (10, 99)):
            assert value(a, b) + value(b, a) == pytest.approx(1.0, abs=1e-6)
            assert value(a + 5, b) >= value(a, b) >= value(a, b + 5)
        assert value(100, 0) == 1.0 and value(0, 100) == 0.0
    assert engine(Rules(), "search,simple").match_value(30, 70) == pytest.approx(shipped[30, 70])
    assert engine(Rules(target=None), "search,simple").match_value(0, 0) is None
    assert engine(Rules.preset("eaai"), "marjj,simple").match_value(0, 0) is None


def _mean_points(players: str, hands: int, seed: int) -> float:
    records = simulate(Rules(), players, hands, seed, workers=2)
    signed = np.where(records["winner"] == 0, records["points"], -records["points"])
    return float(np.where(records["winner"] < 0, 0, signed).mean())


def test_marjj_and_search_outscore_simple(test_seed: int) -> None:
    # Measured: marjj +4.6 and search +5.5 points a hand against simple (sd about 23), so these
    # sizes keep the mean more than three standard errors above 0.
    assert _mean_points("marjj,simple", 2_000, test_seed) > 0
    assert _mean_points("search:16,simple", 250, test_seed) > 0
