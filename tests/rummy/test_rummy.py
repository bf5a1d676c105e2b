"""Classic Rummy (docs/rules.md#classic-rummy): the native engine, the ``ginsim.rummy`` layer, and their invariants.

- Sweeps: for each number of players (2..6), 45,000 seeded hands (30,000 all greedy, 10,000 mixed,
  5,000 all random; 40,000 of each with ``--full``) are played natively with the engine's per-event
  audit on (every card in exactly one place, every table meld valid, no discard of the card just taken
  from the pile, melding leaves a legal discard) and with the final card masks, from which
  conservation and the score are recounted on every row in numpy. A sample of each sweep is replayed
  event by event by the independent checker of ``tests/reference/rummy_replay.py``.
- Forced paths from hand-built decks: rummy doubled, a lay-off onto another player's meld, the pile
  turned over (in order, not shuffled) until the hand is drawn, going out without a final discard.
- Determinism: the same (rules, players, seed, index) always gives the same hand, whatever the chunks,
  workers, or a pickled engine; games match a hand-by-hand reproduction.

Seeds derive from the run's ``test_seed`` (``--test-seed N`` replays a run).
"""
from __future__ import annotations

import collections
import dataclasses
import doctest
import pickle
import re

import numpy as np
import pandas as pd
import pytest

import gincore
import gincore._rummy as native_rummy
from gincore._rummy import MASK_COLUMNS, MAX_TURNS_IN_HAND, RECORD_COLUMNS, RummyEngine
from ginsim import rummy
from tests.reference.rummy_replay import ReplayError, replay

FULL_DECK = (1 << 52) - 1
CARD_VALUES = np.array([min(card % 13 + 1, 10) for card in range(52)], np.int64)
LINEUPS = ("greedy", "random", "mixed")
# Hands per lineup, (default, --full). Random players' hands are long and rarely a rummy, so the default
# plays fewer of them: the greedy hands make a rummy certain even with two players (0.04% of hands).
HANDS_PER_LINEUP = {"greedy": (30_000, 40_000), "random": (5_000, 40_000), "mixed": (10_000, 40_000)}
REPLAYS_PER_SWEEP = 120


def lineup(kind: str, players: int) -> tuple[str, ...]:
    if kind == "mixed":
        return tuple("greedy" if seat % 2 == 0 else "random" for seat in range(players))
    return (kind,) * players


def mask_values(masks: np.ndarray) -> np.ndarray:
    """The card value total of each uint64 mask."""
    total = np.zeros(masks.shape, np.int64)
    for card in range(52):
        total += ((masks >> np.uint64(card)) & np.uint64(1)).astype(np.int64) * CARD_VALUES[card]
    return total


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks).astype(np.int64)


def check_columns(columns: dict[str, np.ndarray], rules: rummy.Rules, players: int, context: str) -> None:
    """Every row: cards conserved, the score recounted, the record consistent with the final table."""
    count = len(columns["hand"])
    bad: dict[str, np.ndarray] = {}
    held = [columns[f"held_{seat}"] for seat in range(6)]
    places = held + [columns["table"], columns["stock"], columns["pile"]]
    union = np.zeros(count, np.uint64)
    sizes = np.zeros(count, np.int64)
    for place in places:
        union |= place
        sizes += popcount(place)
    bad["cards not conserved"] = (union != np.uint64(FULL_DECK)) | (sizes != 52)
    bad["audit failures during the hand"] = columns["audit_failures"] != 0
    for seat in range(6):
        left = columns[f"cards_left_{seat}"].astype(np.int64)
        if seat < players:
            bad[f"cards_left_{seat} differs from the final hand"] = left != popcount(held[seat])
        else:
            bad[f"absent seat {seat} has cards"] = (left != -1) | (held[seat] != 0)
    bad["table_cards"] = columns["table_cards"] != popcount(columns["table"])
    bad["stock_left"] = columns["stock_left"] != popcount(columns["stock"])
    bad["pile_left"] = columns["pile_left"] != popcount(columns["pile"])
    bad["players column"] = columns["players"] != players
    bad["dealer out of range"] = (columns["dealer"] < 0) | (columns["dealer"] >= players)
    winner = columns["winner"].astype(np.int64)
    won = winner >= 0
    values = np.stack([mask_values(held[seat]) for seat in range(players)])
    winner_value = np.where(won, values[np.clip(winner, 0, players - 1), np.arange(count)], 0)
    others = values.sum(axis=0) - winner_value
    factor = np.where((columns["rummy"] > 0) & rules.rummy_doubles, 2, 1)
    winner_held = np.zeros(count, np.uint64)
    for seat in range(players):
        winner_held = np.where(winner == seat, held[seat], winner_held)
    bad["winner still holds cards"] = won & (winner_held != 0)
    bad["points differ from the recount of the other hands"] = won & (columns["points"] != others * factor)
    bad["a drawn hand scores"] = ~won & ((columns["points"] != 0) | (columns["rummy"] != 0))
    bad["drawn before the turnovers are used up"] = ~won & (
        (columns["turnovers"] != rules.max_turnovers) | (columns["stock_left"] != 0))
    bad["too many turnovers"] = columns["turnovers"] > rules.max_turnovers
    bad["safety bound on turns reached"] = columns["turns"] >= MAX_TURNS_IN_HAND
    bad["winner out of range"] = winner >= players
    failures = {name: int(mask.sum()) for name, mask in bad.items() if mask.any()}
    if failures:
        first = {name: int(columns["hand"][np.flatnonzero(mask)[0]]) for name, mask in bad.items() if mask.any()}
        raise AssertionError(f"{context}: {failures}; first failing hand indices {first}")


def replay_sample(rules: rummy.Rules, players: tuple[str, ...], seed: int, indices) -> None:
    failures: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    for index in indices:
        result = rummy.play_hand(rules, players, seed, int(index))
        try:
            replay(result)
        except ReplayError as error:
            kind = re.sub(r"\d+", "N", str(error).split("\n", 1)[0])[:90]
            failures[kind] += 1
            examples.setdefault(kind, f"index {index}: {str(error)[:2000]}")
    if failures:
        raise AssertionError(f"{sum(failures.values())} replays fail (players {players}, seed {seed}): "
                             f"{dict(failures)}\nfirst: {next(iter(examples.values()))}")


# --- sweeps ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.slow
def test_invariants_on_every_hand(players: int, seed_for, full: bool) -> None:
    rules = rummy.Rules()
    outcomes = collections.Counter()
    for kind in LINEUPS:
        names = lineup(kind, players)
        seed = seed_for(f"sweep/{players}/{kind}")
        key0, key1 = rummy.run_key(seed)
        count = HANDS_PER_LINEUP[kind][full]
        columns = rummy.engine(rules, names).play_hands(key0, key1, 0, count, masks=True, audit=True)
        check_columns(columns, rules, players, f"players {names}, seed {seed}")
        outcomes["rummy"] += int(columns["rummy"].sum())
        outcomes["turnover"] += int((columns["turnovers"] > 0).sum())
        outcomes["drawn"] += int((columns["winner"] < 0).sum())
        outcomes["out"] += int((columns["winner"] >= 0).sum())
        # Replay a sample event by event: the first hands, plus hands with a rummy, a turnover, a draw.
        interesting = np.concatenate([np.flatnonzero(columns["rummy"] > 0)[:10],
                                      np.flatnonzero(columns["turnovers"] > 0)[:10],
                                      np.flatnonzero(columns["winner"] < 0)[:5]])
        replay_sample(rules, names, seed, sorted(set(range(REPLAYS_PER_SWEEP)) | set(interesting.tolist())))
    # The sweep reaches every kind of ending.
    assert all(outcomes[name] > 0 for name in ("rummy", "turnover", "drawn", "out")), outcomes


@pytest.mark.parametrize("rules", [rummy.Rules(max_turnovers=0, rummy_doubles=False), rummy.Rules(max_turnovers=1),
                                   rummy.Rules(max_turnovers=6)], ids=["no-turnover-single", "one", "six"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_invariants_under_other_rules(rules: rummy.Rules, players: int, seed_for) -> None:
    for kind in LINEUPS:
        names = lineup(kind, players)
        seed = seed_for(f"rules/{rules}/{players}/{kind}")
        key0, key1 = rummy.run_key(seed)
        columns = rummy.engine(rules, names).play_hands(key0, key1, 0, 4000, masks=True, audit=True)
        check_columns(columns, rules, players, f"players {names}, rules {rules}, seed {seed}")
        replay_sample(rules, names, seed, range(30))


def test_the_replayer_catches_broken_traces(seed_for) -> None:
    seed = seed_for("tamper")
    result = next(r for r in (rummy.play_hand(rummy.Rules(), "greedy,greedy,greedy", seed, i) for i in range(200))
                  if r.winner >= 0 and any(e.kind == "lay_off" for e in r.events))
    replay(result)
    events = list(result.events)
    discard = next(i for i, e in enumerate(events) if e.kind == "discard")
    lay_off = next(i for i, e in enumerate(events) if e.kind == "lay_off")
    broken = {
        "points": {"points": result.points + 1},
        "rummy": {"rummy": not result.rummy},
        "discard": {"events": tuple(events[:discard] + [events[discard]._replace(card=(events[discard].card + 1) % 52)]
                                    + events[discard + 1:])},
        "lay-off target": {"events": tuple(events[:lay_off]
                                           + [events[lay_off]._replace(meld=(events[lay_off].meld + 1) % 17)]
                                           + events[lay_off + 1:])},
        "dropped event": {"events": tuple(events[:discard] + events[discard + 1:])},
        "dealer": {"dealer": (result.dealer + 1) % 3},
    }
    for change in broken.values():
        with pytest.raises(ReplayError):
            replay(dataclasses.replace(result, **change))


# --- forced paths from hand-built decks -------------------------------------------------------------------


def cards(text: str) -> list[int]:
    return [gincore.parse_cards(token).bit_length() - 1 for token in text.split()]


def mask_of(text: str) -> int:
    return gincore.parse_cards(text)


def two_player_deck(first: str, second: str, upcard: str, stock: str = "") -> list[int]:
    """A deck for two players with seat 1 dealing: seat 0 (first to play) gets ``first``, seat 1
    ``second`` (cards alternate, seat 0 first); then the upcard; then ``stock`` on top of the rest."""
    hands = (cards(first), cards(second))
    order = [hands[i % 2][i // 2] for i in range(20)] + cards(upcard) + cards(stock)
    return order + [card for card in range(52) if card not in order]


def play(rules: rummy.Rules, players: str, deck: list[int], seed: int = 0) -> rummy.RummyHandResult:
    result = rummy.play_hand(rules, players, seed, 0, deck=deck, dealer=1)
    replay(result)
    return result


def steps(result) -> list[tuple[str, int, str]]:
    shown = []
    for event in result.events:
        what = gincore.format_cards(event.cards) if event.kind == "meld" else (
            gincore.card_text(event.card) if event.card >= 0 else "")
        shown.append((event.kind, event.player, what))
    return shown


SECOND_HAND = "2H 4H 6H 8H TH QH 2S 4S 6S 8S"  # no meld; value 60


@pytest.mark.parametrize("doubles", [True, False])
def test_rummy_without_a_discard_doubles_the_score(doubles: bool) -> None:
    # Seat 0 refuses the KH upcard, draws 9C and lays down all eleven cards in one turn: rummy.
    deck = two_player_deck("AC 2C 3C 4C 5D 6D 7D 8D 9H 9S", SECOND_HAND, "KH", "9C")
    result = play(rummy.Rules(rummy_doubles=doubles), "greedy,greedy", deck)
    assert steps(result) == [("draw_stock", 0, "9C"), ("meld", 0, "9C 9H 9S"), ("meld", 0, "AC 2C 3C 4C"),
                             ("meld", 0, "5D 6D 7D 8D"), ("go_out", 0, "")]
    assert (result.winner, result.rummy, result.outcome) == (0, True, "rummy")
    assert result.points == (120 if doubles else 60)
    assert result.cards_left == (0, 10) and result.turns == 1


def test_rummy_with_a_final_discard() -> None:
    deck = two_player_deck("AC 2C 3C 4D 5D 6D 7H 7S 7C KD", SECOND_HAND, "QS", "7D")
    result = play(rummy.Rules(), "greedy,random", deck)
    assert [kind for kind, _, _ in steps(result)] == ["draw_stock", "meld", "meld", "meld", "discard", "go_out"]
    assert steps(result)[-2] == ("discard", 0, "KD")
    assert (result.winner, result.rummy, result.points) == (0, True, 120)


def test_lay_off_onto_another_players_meld_and_out_without_a_discard() -> None:
    # Turn 1: seat 0 draws 6S, lays AC-3C, 9C 9D 9H and 4S-6S, discards KD and keeps 8S.
    # Turn 2: seat 1 lays 4C off onto seat 0's club run and 9S onto seat 0's nines, discards TH.
    # Turn 3: seat 0 draws 7S, lays it off and then 8S onto its spade run: out, no discard, no rummy.
    deck = two_player_deck("AC 2C 3C 9H 9D 9C 4S 5S KD 8S", "4C 9S 2H 3D 5H 6D 8H TH AD 7D", "KC",
                           "6S AS 7S")
    result = play(rummy.Rules(), "greedy,greedy", deck)
    assert steps(result) == [
        ("draw_stock", 0, "6S"), ("meld", 0, "9C 9D 9H"), ("meld", 0, "AC 2C 3C"), ("meld", 0, "4S 5S 6S"),
        ("discard", 0, "KD"),
        ("draw_stock", 1, "AS"), ("lay_off", 1, "4C"), ("lay_off", 1, "9S"), ("discard", 1, "TH"),
        ("draw_stock", 0, "7S"), ("lay_off", 0, "7S"), ("lay_off", 0, "8S"), ("go_out", 0, ""),
    ]
    club_run, nines = result.events[6].meld, result.events[7].meld
    assert result.melds[club_run] == (mask_of("AC 2C 3C 4C"), 0)  # seat 0's meld, grown by seat 1
    assert result.melds[nines] == (mask_of("9C 9D 9H 9S"), 0)
    assert (result.winner, result.rummy, result.outcome) == (0, False, "out")
    assert result.points == 2 + 3 + 5 + 6 + 8 + 1 + 7 + 1  # seat 1's 2H 3D 5H 6D 8H AD 7D AS
    assert result.pile[-1] == cards("TH")[0]  # the last discard was seat 1's: seat 0 did not discard


@pytest.mark.parametrize("turnovers", [1, 3])
def test_the_pile_is_turned_over_in_order_until_the_hand_is_drawn(turnovers: int) -> None:
    # Both players hold ten low cards that never meld (no 4 and 5 of a suit together); upcard and stock
    # are the 32 cards 6..K. Each greedy player draws a high card and throws it straight back, so the
    # stock runs out after 31 turns, and then after every 32 turns once it is the turned-over pile.
    low_0, low_1 = "AC 2C 4C 3D 5D AH 2H 4H 3S 5S", "3C 5C AD 2D 4D 3H 5H AS 2S 4S"
    high = [card for card in range(52) if card % 13 >= 5]
    deck = two_player_deck(low_0, low_1, gincore.card_text(high[0]),
                           " ".join(gincore.card_text(card) for card in high[1:]))
    result = play(rummy.Rules(max_turnovers=turnovers), "greedy,greedy", deck)
    assert (result.winner, result.points, result.outcome) == (-1, 0, "draw")
    assert result.turnovers == turnovers and result.turns == 31 + 32 * turnovers
    assert result.final_hands == (mask_of(low_0), mask_of(low_1))
    kinds = [event.kind for event in result.events]
    assert kinds.count("turnover") == turnovers and kinds[-1] == "drawn"
    # The first new stock is the pile turned face down: the upcard first, then the discards in order.
    first = kinds.index("turnover")
    discards = [event.card for event in result.events[:first] if event.kind == "discard"]
    after = [event.card for event in result.events[first:] if event.kind == "draw_stock"][:32]
    assert after == [high[0]] + discards
    assert result.events[first].cards == sum(1 << card for card in high)


def test_random_players_follow_the_same_deal() -> None:
    deck = two_player_deck("AC 2C 3C 4C 5D 6D 7D 8D 9H 9S", SECOND_HAND, "KH", "9C")
    for seed in range(20):
        result = play(rummy.Rules(), "random,random", deck, seed)
        assert result.dealt == (mask_of("AC 2C 3C 4C 5D 6D 7D 8D 9H 9S"), mask_of(SECOND_HAND))


def test_deal_sizes_and_order_round_the_table() -> None:
    deck = list(range(52))
    for players, size in ((2, 10), (3, 7), (4, 7), (5, 6), (6, 6)):
        for dealer in range(players):
            result = rummy.play_hand(rummy.Rules(), ["greedy"] * players, 0, 0, deck=deck, dealer=dealer)
            for seat in range(players):
                offset = (seat - dealer - 1) % players
                assert result.dealt[seat] == sum(1 << card for card in range(offset, players * size, players))
            assert result.upcard == players * size
            assert result.events[0].player == (dealer + 1) % players


# --- determinism -------------------------------------------------------------------------------------------


def test_same_seed_and_index_give_the_same_hand(seed_for) -> None:
    seed = seed_for("determinism")
    for players in ("greedy,random", "random,greedy,random,greedy", "greedy,greedy,greedy,greedy,greedy,greedy"):
        for index in (0, 7, 12345):
            assert rummy.play_hand(rummy.Rules(), players, seed, index) == rummy.play_hand(rummy.Rules(), players,
                                                                                         seed, index)
        assert rummy.play_hand(rummy.Rules(), players, seed, 1) != rummy.play_hand(rummy.Rules(), players, seed, 2)


@pytest.mark.parametrize("players", ["greedy,random,greedy", "random,random,random,random,random"])
def test_chunking_workers_and_pickling_do_not_change_hands(players: str, seed_for) -> None:
    seed = seed_for(f"chunks/{players}")
    rules = rummy.Rules(max_turnovers=2)
    whole = rummy.simulate(rules, players, 3000, seed, workers=1)
    assert whole.equals(rummy.simulate(rules, players, 3000, seed, workers=2, chunk_size=701))
    assert whole.head(200).equals(rummy.simulate(rules, players, 200, seed, workers=1, chunk_size=1))
    engine = pickle.loads(pickle.dumps(rummy.engine(rules, players)))
    key0, key1 = rummy.run_key(seed)
    part = engine.play_hands(key0, key1, 1000, 500)
    for name in RECORD_COLUMNS:
        assert np.array_equal(part[name], whole[name].to_numpy()[1000:1500]), name
    for index in (0, 1499, 2999):
        hand = rummy.play_hand(rules, players, seed, index)
        row = whole.iloc[index]
        assert (hand.winner, hand.points, hand.turns, hand.turnovers, hand.dealer, int(hand.rummy)) == (
            row["winner"], row["points"], row["turns"], row["turnovers"], row["dealer"], row["rummy"])
        assert hand.cards_left == tuple(row[f"cards_left_{s}"] for s in range(len(hand.players)))
        assert engine.play_record(key0, key1, index) == {name: int(row[name]) for name in RECORD_COLUMNS}
    masked = engine.play_hands(key0, key1, 0, 200, masks=True)
    assert set(masked) == set(RECORD_COLUMNS) | set(MASK_COLUMNS)


def test_the_stream_is_the_gin_engines(seed_for) -> None:
    # Both engines shuffle with the generator of gincore/_random.pxd (the Gin engine with its own copy),
    # then draw the dealer: with the same key words and two players, the deal is the same.
    from ginsim import Rules
    from ginsim.gin.game.players import engine

    gin = engine(Rules(), "random,random")
    table = rummy.engine(rummy.Rules(), "random,random")
    for index in range(50):
        key0, key1 = rummy.run_key(seed_for(f"stream/{index}"))
        gin_hand, rummy_hand = gin.play_traced(key0, key1, index), table.play_traced(key0, key1, index)
        assert gin_hand["deck"] == rummy_hand["deck"]
        assert gin_hand["record"]["dealer"] == rummy_hand["record"]["dealer"]


def test_run_streams_are_their_own() -> None:
    from ginsim.gin.game.native import match_key, run_key

    assert len({rummy.run_key(5), rummy.game_key(5), run_key(5), match_key(5)}) == 4
    words = np.random.SeedSequence(5, spawn_key=(2,)).generate_state(2, np.uint64)
    assert rummy.run_key(5) == tuple(int(word) for word in words)


# --- games --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["greedy,greedy", "greedy,random,greedy",
                                     "random,greedy,random,greedy,random,greedy"])
def test_games_follow_the_deal_and_target(players: str, seed_for) -> None:
    seed = seed_for(f"games/{players}")
    rules = rummy.Rules(target=60, max_turnovers=1)
    games = rummy.simulate_games(rules, players, 40, seed, workers=1)
    count = len(players.split(","))
    totals = games[[f"total_{s}" for s in range(count)]].to_numpy()
    assert (totals[np.arange(len(games)), games["winner"]] >= 60).all()
    assert ((totals >= 60).sum(axis=1) == 1).all()
    assert (games[[f"total_{s}" for s in range(count, 6)]] == -1).all().all()
    won = games[[f"hands_won_{s}" for s in range(count)]].sum(axis=1)
    assert (won + games["drawn_hands"] == games["hands"]).all()
    assert games.equals(rummy.simulate_games(rules, players, 40, seed, workers=2, chunk_size=9))
    # Reproduce each game hand by hand: the first dealer from the first hand's stream, then the deal
    # passes left (with two players the winner deals, the same dealer after a draw).
    engine = rummy.engine(rules, players)
    key0, key1 = rummy.game_key(seed)
    for game in range(10):
        dealer, scores, hands, drawn = -1, [0] * count, 0, 0
        while True:
            record = engine.play_record(key0, key1, (game << 24) | hands, dealer)
            if hands == 0:
                assert record["dealer"] == games["first_dealer"][game]
            else:
                assert record["dealer"] == dealer
            hands += 1
            if record["winner"] < 0:
                drawn += 1
            else:
                scores[record["winner"]] += record["points"]
                if scores[record["winner"]] >= 60:
                    break
            if count == 2:
                dealer = record["winner"] if record["winner"] >= 0 else record["dealer"]
            else:
                dealer = (record["dealer"] + 1) % count
        row = games.iloc[game]
        assert scores == [row[f"total_{s}"] for s in range(count)]
        assert (hands, drawn, record["winner"]) == (row["hands"], row["drawn_hands"], row["winner"])


# --- rules, summaries, the Python layer ---------------------------------------------------------------------


def test_rules_are_checked() -> None:
    with pytest.raises(ValueError, match="target must be an integer from 1 to 1000"):
        rummy.Rules(target=0)
    with pytest.raises(ValueError, match="rummy_doubles must be True or False"):
        rummy.Rules(rummy_doubles=1)
    with pytest.raises(ValueError, match="did you mean 'max_turnovers'"):
        rummy.Rules().replace(max_turnover=2)
    with pytest.raises(ValueError, match="2 to 6 players"):
        rummy.engine(rummy.Rules(), ["greedy"] * 7)
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        rummy.simulate(rummy.Rules(), "greedy,gredy", 10, 1)
    with pytest.raises(TypeError, match="rummy.Rules"):
        rummy.simulate(object(), "greedy,greedy", 10, 1)
    with pytest.raises(ValueError, match="deck must hold each of the 52 cards"):
        rummy.play_hand(rummy.Rules(), "greedy,greedy", deck=list(range(51)), dealer=0)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        rummy.play_hand(rummy.Rules(), "greedy,greedy", deck=list(range(52)), dealer=2)
    with pytest.raises(ValueError, match="2 to 6"):
        RummyEngine({"max_turnovers": 3, "rummy_doubles": True}, [1])
    assert rummy.Rules().with_overrides(["max-turnovers=0"]) == rummy.Rules(max_turnovers=0)


def test_summaries(seed_for) -> None:
    seed = seed_for("summary")
    frames = [rummy.simulate(rummy.Rules(), ["greedy"] * n, 3000, seed, workers=1) for n in (2, 4)]
    records = pd.concat(frames, ignore_index=True)
    by_players = rummy.summarize(records, by="players")
    assert by_players["players"].tolist() == [2, 4] and by_players["hands"].tolist() == [3000, 3000]
    rates = by_players[[f"win_rate_{s}" for s in range(6)]].fillna(0).sum(axis=1) + by_players["draw_rate"]
    assert np.allclose(rates, 1)
    assert by_players[["win_rate_4", "win_rate_5"]].isna().all().all()
    assert by_players.loc[0, ["win_rate_2", "win_rate_3"]].isna().all()
    for name in ("win_rate_0", "rummy_rate", "draw_rate"):
        assert (by_players[f"{name}_low"] <= by_players[name]).all()
        assert (by_players[name] <= by_players[f"{name}_high"]).all()
    from statsmodels.stats.proportion import proportion_confint

    wins = int((frames[0]["winner"] == 0).sum())
    assert np.allclose(by_players.loc[0, ["win_rate_0_low", "win_rate_0_high"]].to_numpy(float),
                       proportion_confint(wins, 3000, method="wilson"))
    overall = rummy.summarize(records, by=None)
    assert len(overall) == 1 and overall["hands"].iloc[0] == 6000
    assert np.isclose(overall["mean_points"].iloc[0], records["points"].mean())
    for by in ("seat", "position"):
        table = rummy.summarize(records, by=by)
        assert len(table) == 2 + 4
        assert table.groupby("players")["wins"].sum().tolist() == [
            int((frame["winner"] >= 0).sum()) for frame in frames]
        assert np.isclose(table.groupby("players")["mean_points_won"].sum().tolist(),
                          [frame["points"].mean() for frame in frames]).all()
    with pytest.raises(ValueError, match="cannot group"):
        rummy.summarize(records, by="upcard")
    games = rummy.simulate_games(rummy.Rules(target=50), "greedy,random,greedy", 50, seed, workers=1)
    table = rummy.summarize(games)
    assert table.equals(rummy.summarize_games(games))
    assert np.isclose(table[["win_rate_0", "win_rate_1", "win_rate_2"]].sum(axis=1).iloc[0], 1)


def test_hand_text_and_run_directory(tmp_path) -> None:
    result = rummy.play_hand(rummy.Rules(), "greedy,random,greedy", 3, 4)
    text = str(result)
    assert text.splitlines()[0] == "Rummy hand 4 of seed 3: seat 0 greedy, seat 1 random, seat 2 greedy"
    assert ("No score." in text) == (result.winner < 0)
    first = rummy.simulate(rummy.Rules(), "greedy,greedy", 500, 2, workers=1, chunk_size=100, out=tmp_path / "run")
    assert first.equals(rummy.simulate(rummy.Rules(), "greedy,greedy", 500, 2, workers=1, chunk_size=100,
                                       out=tmp_path / "run"))
    with pytest.raises(ValueError, match="different run"):
        rummy.simulate(rummy.Rules(), "greedy,greedy", 500, 3, workers=1, chunk_size=100, out=tmp_path / "run")


@pytest.mark.parametrize("module", [rummy, native_rummy], ids=["ginsim.rummy", "gincore._rummy"])
def test_module_examples(module) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
