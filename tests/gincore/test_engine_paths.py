"""Hand-built deals that force each path of the hand loop, with exact outcomes (docs/rules.md#the-deal to
docs/rules.md#the-end-of-the-stock).

Every deck here leaves the deterministic strategies (``simple``, ``greedy``) no real choice: each
decision has a single best answer, so the outcome is the same for every seed and every pairing of the
two, and is asserted exactly. Every forced hand is also replayed by ``tests/reference/gin_replay.py``
(with the brute-force oracle) so that the trace, not only the record, is checked.

Deals are written as the non-dealer's ten cards, the dealer's ten cards, the upcard and the top (and
sometimes the bottom) of the stock; ``deal`` interleaves them into the 52-card deck ``play_hand`` takes.
"""
from __future__ import annotations

import itertools

import pytest

import gincore
from ginsim import Rules, play_hand
from tests.reference.cards import mask_of, parse
from tests.reference.gin_replay import ReplayError, replay

DETERMINISTIC = ["simple", "greedy"]
PAIRINGS = list(itertools.product(DETERMINISTIC, repeat=2))
NON_DEALER, DEALER = 0, 1  # every deal below is played with player 1 dealing

# A worthless hand for the player not under test: no meld, deadwood 79.
JUNK = "2S 4S 6S 8S TS QS KC KD 9C JD"

# The "treadmill": two static low hands. No card of rank 6 or more melds with either hand, and every
# such card is worth more than any card they hold, so each player discards at once the card it draws
# and refuses the one its opponent discarded. Deadwood 30 each: nobody can ever knock. Every card of the
# stock and the upcard is of rank 6 or more.
TREADMILL_NON_DEALER = "AC 2C 4C 3D 5D AH 2H 4H 3S 5S"
TREADMILL_DEALER = "3C 5C AD 2D 4D 3H 5H AS 2S 4S"

# The "last card" deal: the same idea, but the non-dealer (deadwood 15) knocks as soon as it draws the
# 6H (4H 5H 6H, then it discards the 5S and keeps deadwood 1: the AS). The dealer keeps deadwood 12 and
# lays off all of it onto the knocker's runs 2C-4C, 2D-4D and 4H-6H: 0, an undercut.
LAST_CARD_NON_DEALER = "2C 3C 4C 2D 3D 4D 4H 5H 5S AS"
LAST_CARD_DEALER = "AC 5C AD 5D AH 2H 3H 2S 3S 4S"


def deal(non_dealer: str, dealer: str, upcard: str, stock_top: str = "", stock_bottom: str = "",
         stock_rest: list[int] | None = None) -> list[int]:
    """The deck (top first) that deals these hands with player 1 dealing.

    The stock is ``stock_top``, then ``stock_rest`` (default: every other card in index order), then
    ``stock_bottom``.
    """
    first, second = parse(non_dealer), parse(dealer)
    assert len(first) == len(second) == 10
    top, bottom = parse(stock_top), parse(stock_bottom)
    named = first + second + parse(upcard) + top + bottom
    assert len(set(named)) == len(named), "a card is dealt twice"
    rest = [c for c in range(52) if c not in named] if stock_rest is None else list(stock_rest)
    deck = [card for pair in zip(first, second, strict=True) for card in pair] + parse(upcard) + top + rest + bottom
    assert sorted(deck) == list(range(52)), "the deal does not use the 52 cards once each"
    return deck


def high_cards(excluding: str) -> list[int]:
    """The cards of rank 6 or more, in index order, without those named."""
    left_out = set(parse(excluding))
    return [c for c in range(52) if c % 13 >= 5 and c not in left_out]


@pytest.fixture(params=["fixed", "run-low", "run-high"])
def seed(request: pytest.FixtureRequest, test_seed: int) -> int:
    """Forced deals must not depend on the strategies' coin flips: a fixed seed and two of this run."""
    return {"fixed": 0, "run-low": test_seed % 10**6, "run-high": test_seed // 10**6 + 1}[request.param]


def play(rules: Rules, players: tuple[str, str], deck: list[int], seed: int = 0, index: int = 0):
    result = play_hand(rules, players, seed, index, deck=deck, dealer=DEALER)
    replay(result, oracle=True, deck=deck, dealer=DEALER)
    return result


def kinds(result) -> list[str]:
    return [event.kind for event in result.events]


def record(result) -> dict[str, int | str]:
    names = ("outcome", "winner", "knocker", "points", "knocker_deadwood", "defender_deadwood", "laid_off",
             "turns", "upcard_taken_by", "knock_limit", "multiplier", "stock_left")
    return {name: getattr(result, name) for name in names}


@pytest.mark.parametrize("players", PAIRINGS)
def test_gin_off_the_upcard_scores_bonus_plus_plain_deadwood(players, seed):
    # The non-dealer takes TH (7H-TH), throws JS: gin. The defender's JH would extend the knocker's run
    # but nothing is laid off after gin: its deadwood stays 79.
    deck = deal("AC 2C 3C 4D 5D 6D 7H 8H 9H JS", "2S 4S 6S 8S TS QS KC KD 9C JH", "TH")
    result = play(Rules(), players, deck, seed)
    assert record(result) == dict(outcome="gin", winner=0, knocker=0, points=25 + 79, knocker_deadwood=0,
                                  defender_deadwood=79, laid_off=0, turns=1, upcard_taken_by=0,
                                  knock_limit=10, multiplier=1, stock_left=31)
    assert result.events[-1] == ("gin", 0, parse("JS")[0])
    assert result.laid_off_cards == 0
    assert sorted(result.knocker_melds) == sorted(mask_of(m) for m in ("AC 2C 3C", "4D 5D 6D", "7H 8H 9H TH"))


@pytest.mark.parametrize("players", PAIRINGS)
def test_dealer_takes_the_upcard_the_non_dealer_refused(players):
    deck = deal(JUNK, "AC 2C 3C 4D 5D 6D 7H 8H 9H JS", "TH")
    result = play(Rules(), players, deck)
    assert kinds(result) == ["pass_upcard", "take_upcard", "gin"]
    assert [event.player for event in result.events] == [NON_DEALER, DEALER, DEALER]
    assert record(result) == dict(outcome="gin", winner=1, knocker=1, points=25 + 79, knocker_deadwood=0,
                                  defender_deadwood=79, laid_off=0, turns=1, upcard_taken_by=1,
                                  knock_limit=10, multiplier=1, stock_left=31)


@pytest.mark.parametrize("players", PAIRINGS)
def test_undercut_on_a_tie_goes_to_the_defender(players, seed):
    # The non-dealer takes 9H, discards 3S and knocks with the 2S: deadwood 2. The defender has three
    # sets and the 2H, which lays off nowhere: deadwood 2 too. A tie is an undercut: 0 + 25.
    deck = deal("AC 2C 3C 4D 5D 6D 7H 8H 2S 3S", "JC JD JH QC QD QH KC KD KH 2H", "9H")
    result = play(Rules(), players, deck, seed)
    assert record(result) == dict(outcome="undercut", winner=1, knocker=0, points=25, knocker_deadwood=2,
                                  defender_deadwood=2, laid_off=0, turns=1, upcard_taken_by=0,
                                  knock_limit=10, multiplier=1, stock_left=31)
    assert result.events[-1] == ("knock", 0, parse("3S")[0])


@pytest.mark.parametrize("players", PAIRINGS)
def test_undercut_bonus_comes_from_the_rules(players):
    deck = deal("AC 2C 3C 4D 5D 6D 7H 8H 2S 3S", "JC JD JH QC QD QH KC KD KH AH", "9H")
    result = play(Rules(undercut_bonus=10), players, deck)
    assert (result.outcome, result.winner, result.points) == ("undercut", 1, 2 - 1 + 10)


@pytest.mark.parametrize("players", PAIRINGS)
def test_two_cards_laid_off_in_a_chain_onto_a_run(players, seed):
    # The knocker shows 5H 6H 7H; the defender lays off 8H and then 9H onto the 8H: 37 -> 20.
    deck = deal("AC 2C 3C 4D 5D 6D 5H 6H 2S 3S", "8H 9H KC KD KH QC QD QH JS TS", "7H")
    result = play(Rules(), players, deck, seed)
    assert record(result) == dict(outcome="knock", winner=0, knocker=0, points=20 - 2, knocker_deadwood=2,
                                  defender_deadwood=20, laid_off=2, turns=1, upcard_taken_by=0,
                                  knock_limit=10, multiplier=1, stock_left=31)
    assert result.laid_off_cards == mask_of("8H 9H")
    assert mask_of("5H 6H 7H") in result.knocker_melds
    assert gincore.layoff(result.final_hands[1], result.knocker_melds) == (20, mask_of("8H 9H"))


@pytest.mark.parametrize("players", PAIRINGS)
def test_fourth_card_of_a_set_and_both_ends_of_a_run_are_laid_off(players):
    # The knocker shows 9C 9D 9S, 6H 7H 8H and 2S 3S 4S with 5D (deadwood 5). The defender lays off
    # 9H (onto the set or the run), 5H below the run and 5S above the spades: 27 -> 8; 8 - 5 = 3.
    deck = deal("6H 7H 8H 9C 9S 9D 2S 3S 4S KD", "5H 9H 5S QC QD QH JC JD JH 8C", "KS", "5D")
    result = play(Rules(), players, deck)
    assert record(result) == dict(outcome="knock", winner=0, knocker=0, points=3, knocker_deadwood=5,
                                  defender_deadwood=8, laid_off=3, turns=1, upcard_taken_by=-1,
                                  knock_limit=10, multiplier=1, stock_left=30)
    assert result.laid_off_cards == mask_of("5H 9H 5S")


@pytest.mark.parametrize("players", PAIRINGS)
def test_shown_melds_count_the_face_down_discard_as_seen(players):
    # docs/rules.md#the-showdown: of its minimum-deadwood arrangements the knocker shows the one exposing the fewest
    # cards it has not seen. The non-dealer takes 5S and knocks throwing 5C face down, holding
    # AC AD AS 2C 2D 2S 3C 3S 4S 5S (deadwood 3 either way):
    #   sets A and 2 + 3S 4S 5S (3C loose) expose AH, 2H and 6S..KS: 10 unseen cards;
    #   AC 2C 3C + AS..5S (AD 2D loose) expose 4C (the 5C is the knocker's own discard: seen, and out of
    #   play, so the chain stops) and 6S..KS: 9 unseen cards.
    # So the runs are shown, and the defender lays its 4C off onto AC 2C 3C: 84 - 4 = 80, 80 - 3 = 77.
    deck = deal("AC AD AS 2C 2D 2S 3C 3S 4S 5C", "6H 8H TH QH KC KD 9C JD 7D 4C", "5S")
    result = play(Rules(), players, deck)
    assert result.events[-1] == ("knock", NON_DEALER, parse("5C")[0])
    assert sorted(result.knocker_melds) == sorted(mask_of(m) for m in ("AC 2C 3C", "AS 2S 3S 4S 5S")), \
        [gincore.format_cards(m) for m in result.knocker_melds]
    assert (result.outcome, result.laid_off_cards, result.points) == ("knock", mask_of("4C"), 77)


@pytest.mark.parametrize("players", PAIRINGS)
def test_worked_example_of_rules_section_8(players, seed):
    # docs/rules.md#scoring-a-hand: the knocker holds 6-7-8H, 9C 9S 9D, 2-3-4S and KD, draws 5D, knocks discarding KD
    # (deadwood 5). The defender holds 2-3-4H, QC QD QH QS, 9H, 7S, AC and lays 9H off onto 6-7-8H:
    # 7 + 1 = 8. The knocker scores 8 - 5 = 3. Both refuse the upcard KS first.
    deck = deal("6H 7H 8H 9C 9S 9D 2S 3S 4S KD", "2H 3H 4H QC QD QH QS 9H 7S AC", "KS", "5D")
    result = play(Rules(), players, deck, seed)
    assert kinds(result) == ["pass_upcard", "pass_upcard", "draw_stock", "knock"]
    assert result.events[2] == ("draw_stock", NON_DEALER, parse("5D")[0])
    assert result.events[3] == ("knock", NON_DEALER, parse("KD")[0])
    assert record(result) == dict(outcome="knock", winner=0, knocker=0, points=3, knocker_deadwood=5,
                                  defender_deadwood=8, laid_off=1, turns=1, upcard_taken_by=-1,
                                  knock_limit=10, multiplier=1, stock_left=30)
    assert result.laid_off_cards == mask_of("9H")
    assert sorted(result.knocker_melds) == sorted(mask_of(m) for m in ("6H 7H 8H", "9C 9D 9S", "2S 3S 4S"))
    assert sorted(result.defender_melds) == sorted(mask_of(m) for m in ("2H 3H 4H", "QC QD QH QS"))


@pytest.mark.parametrize("players", PAIRINGS)
def test_big_gin_with_all_eleven_cards(players, seed):
    # TH joins 7H 8H 9H JH: all eleven cards meld, so the taker goes big gin without discarding.
    deck = deal("AC 2C 3C 4D 5D 6D 7H 8H 9H JH", JUNK, "TH")
    result = play(Rules(big_gin_bonus=31), players, deck, seed)
    assert kinds(result) == ["take_upcard", "big_gin"]
    assert result.events[-1] == ("big_gin", 0, -1)
    assert record(result) == dict(outcome="big_gin", winner=0, knocker=0, points=31 + 79, knocker_deadwood=0,
                                  defender_deadwood=79, laid_off=0, turns=1, upcard_taken_by=0,
                                  knock_limit=10, multiplier=1, stock_left=31)
    assert bin(result.final_hands[0]).count("1") == 11
    # Without big gin the same deal is a plain gin: one of the run's ends is discarded.
    plain = play(Rules(), players, deck, seed)
    assert (plain.outcome, plain.points) == ("gin", 25 + 79)


@pytest.mark.parametrize("players", [("simple", "simple")])
@pytest.mark.parametrize("rules", [Rules.preset("oklahoma"), Rules.preset("straight")],
                         ids=["oklahoma-ace-upcard", "straight"])
def test_no_knock_with_limit_zero_the_hand_goes_on_to_gin(players, rules, seed):
    # The non-dealer draws AD and could knock with deadwood 1, but the limit is 0 (Oklahoma: the AH
    # upcard; or straight gin): it discards QH. The dealer draws 7C and throws JD; the non-dealer
    # draws 3D (3D-6D) and goes gin throwing AD. (``greedy`` would take the AH upcard, so only simple.)
    deck = deal("2C 3C 4C 4D 5D 6D 7H 8H 9H QH", "2S 4S 6S 8S 3H 5H 9C JD 2D AS", "AH", "AD 7C 3D")
    result = play(rules, players, deck, seed)
    assert kinds(result) == ["pass_upcard", "pass_upcard", "draw_stock", "discard", "draw_stock", "discard",
                             "draw_stock", "gin"]
    assert result.events[3] == ("discard", NON_DEALER, parse("QH")[0])
    assert record(result) == dict(outcome="gin", winner=0, knocker=0, points=25 + 47, knocker_deadwood=0,
                                  defender_deadwood=47, laid_off=0, turns=3, upcard_taken_by=-1,
                                  knock_limit=0, multiplier=1, stock_left=28)


@pytest.mark.parametrize("rules, limit", [(Rules(), 10), (Rules(oklahoma=True, oklahoma_ace_limit=1), 1)],
                         ids=["standard", "oklahoma-ace-limit-1"])
def test_same_deal_knocks_at_once_when_the_limit_allows_deadwood_1(rules, limit):
    deck = deal("2C 3C 4C 4D 5D 6D 7H 8H 9H QH", "2S 4S 6S 8S 3H 5H 9C JD 2D AS", "AH", "AD 7C 3D")
    result = play(rules, ("simple", "simple"), deck)
    assert result.events[-1] == ("knock", NON_DEALER, parse("QH")[0])
    assert record(result) == dict(outcome="knock", winner=0, knocker=0, points=50 - 1, knocker_deadwood=1,
                                  defender_deadwood=50, laid_off=0, turns=1, upcard_taken_by=-1,
                                  knock_limit=limit, multiplier=1, stock_left=30)


@pytest.mark.parametrize("players", PAIRINGS)
def test_oklahoma_spade_upcard_doubles_a_knock(players, seed):
    # Upcard 7S: knock limit 7 and every score doubled. The knocker takes it (5S 6S 7S), knocks with the
    # 2H; the defender lays off 8S and 9S: 37 -> 20. (20 - 2) x 2 = 36.
    deck = deal("AC 2C 3C 4D 5D 6D 5S 6S 2H 3H", "8S 9S KC KD KH QC QD QH JH TH", "7S")
    result = play(Rules.preset("oklahoma"), players, deck, seed)
    assert record(result) == dict(outcome="knock", winner=0, knocker=0, points=(20 - 2) * 2,
                                  knocker_deadwood=2, defender_deadwood=20, laid_off=2, turns=1,
                                  upcard_taken_by=0, knock_limit=7, multiplier=2, stock_left=31)
    # The same deal without the doubling option scores single.
    single = play(Rules(oklahoma=True, spade_doubles=False), players, deck, seed)
    assert (single.multiplier, single.points) == (1, 20 - 2)


@pytest.mark.parametrize("players", PAIRINGS)
def test_oklahoma_spade_upcard_doubles_the_undercut_bonus(players):
    deck = deal("AC 2C 3C 4D 5D 6D 7S 8S 2H 3H", "JC JD JH QC QD QH KC KD KH 2D", "9S")
    result = play(Rules.preset("oklahoma"), players, deck)
    assert record(result) == dict(outcome="undercut", winner=1, knocker=0, points=(0 + 25) * 2,
                                  knocker_deadwood=2, defender_deadwood=2, laid_off=0, turns=1,
                                  upcard_taken_by=0, knock_limit=9, multiplier=2, stock_left=31)


@pytest.mark.parametrize("players", PAIRINGS)
def test_oklahoma_spade_upcard_doubles_gin(players):
    deck = deal("AC 2C 3C 4D 5D 6D 7S 8S 9S JH", "2H 4H 6H 8H TH QH KC KD 9C JD", "TS")
    result = play(Rules.preset("oklahoma"), players, deck)
    assert (result.outcome, result.knock_limit, result.multiplier) == ("gin", 10, 2)
    assert result.points == (25 + 79) * 2


@pytest.mark.parametrize("drawn, action, deadwood", [("3S", "discard", 3), ("2D", "knock", 2)])
def test_oklahoma_upcard_sets_the_limit(drawn, action, deadwood):
    # Upcard 2H: knock limit 2. The non-dealer draws a low card and throws its KH: with the 3S its
    # deadwood would be 3, over the limit, so it only discards; with the 2D it knocks at the limit.
    # (``greedy`` would take the 2H upcard itself, so only simple plays here.)
    deck = deal("AC 2C 3C 4D 5D 6D 7H 8H 9H KH", JUNK, "2H", drawn)
    result = play(Rules.preset("oklahoma"), ("simple", "simple"), deck)
    assert result.knock_limit == 2
    assert result.events[3] == (action, NON_DEALER, parse("KH")[0])
    assert gincore.deadwood(mask_of("AC 2C 3C 4D 5D 6D 7H 8H 9H " + drawn)) == deadwood
    if action == "knock":
        assert (result.outcome, result.knocker_deadwood, result.points) == ("knock", 2, 79 - 2)


@pytest.mark.parametrize("players", PAIRINGS)
@pytest.mark.parametrize("floor, turns", [(2, 29), (0, 31)])
def test_drawn_hand_when_the_stock_reaches_the_floor(players, floor, turns, seed):
    deck = deal(TREADMILL_NON_DEALER, TREADMILL_DEALER, "KC")
    result = play(Rules(stock_floor=floor), players, deck, seed)
    assert record(result) == dict(outcome="draw", winner=-1, knocker=-1, points=0, knocker_deadwood=-1,
                                  defender_deadwood=-1, laid_off=0, turns=turns, upcard_taken_by=-1,
                                  knock_limit=10, multiplier=1, stock_left=floor)
    # Both refuse the upcard, the non-dealer draws from the stock, then each draws and throws its card.
    assert kinds(result)[:3] == ["pass_upcard", "pass_upcard", "draw_stock"]
    assert [event.player for event in result.events[:3]] == [NON_DEALER, DEALER, NON_DEALER]
    assert kinds(result)[2:-1] == ["draw_stock", "discard"] * turns
    assert result.events[-1] == ("drawn", -1, -1)
    stock = deck[21:]
    assert [e.card for e in result.events if e.kind == "draw_stock"] == stock[:turns]
    assert result.final_hands == result.dealt
    assert result.knocker_melds == result.defender_melds == ()


@pytest.mark.parametrize("players", PAIRINGS)
def test_straight_gin_draws_the_treadmill_too(players):
    deck = deal(TREADMILL_NON_DEALER, TREADMILL_DEALER, "KC")
    result = play(Rules.preset("straight"), players, deck)
    assert (result.outcome, result.turns, result.knock_limit, result.stock_left) == ("draw", 29, 0, 2)


@pytest.mark.parametrize("players", PAIRINGS)
@pytest.mark.parametrize("floor, position", [(2, 28), (0, 30)])
def test_knock_with_the_card_that_leaves_the_stock_at_the_floor(players, floor, position, seed):
    # The 6H is the last card the stock gives (index 28 leaves 2 cards, index 30 leaves none): the
    # non-dealer, who draws every even index, may still knock with it. It knocks with deadwood 1; the
    # dealer lays off four cards (5C and 5D, and either AC AD or, keeping the aces as a set, 3H 2H
    # below the 4H) and undercuts with 0.
    rest = high_cards("6H KC")
    deck = deal(LAST_CARD_NON_DEALER, LAST_CARD_DEALER, "KC", stock_rest=rest[:position] + parse("6H")
                + rest[position:])
    assert deck[21 + position] == parse("6H")[0]
    result = play(Rules(stock_floor=floor), players, deck, seed)
    assert result.events[-1] == ("knock", NON_DEALER, parse("5S")[0])
    assert record(result) == dict(outcome="undercut", winner=1, knocker=0, points=1 - 0 + 25,
                                  knocker_deadwood=1, defender_deadwood=0, laid_off=4, turns=position + 1,
                                  upcard_taken_by=-1, knock_limit=10, multiplier=1, stock_left=floor)
    assert result.laid_off_cards in (mask_of("AC 5C AD 5D"), mask_of("5C 5D 2H 3H"))


@pytest.mark.parametrize("players", PAIRINGS)
@pytest.mark.parametrize("position", [29, 30])
def test_card_below_the_floor_is_never_drawn(players, position):
    rest = high_cards("6H KC")
    deck = deal(LAST_CARD_NON_DEALER, LAST_CARD_DEALER, "KC", stock_rest=rest[:position] + parse("6H")
                + rest[position:])
    result = play(Rules(), players, deck)
    assert (result.outcome, result.turns, result.stock_left) == ("draw", 29, 2)
    assert parse("6H")[0] not in [e.card for e in result.events]


@pytest.mark.parametrize("max_reshuffles", [1, 2, 50])
@pytest.mark.parametrize("floor", [2, 0])
def test_reshuffles_then_drawn(max_reshuffles, floor, seed):
    # ``greedy`` only: ``simple`` avoids repeating a (drawn, discarded) pair, which a reshuffled stock
    # can offer again, so its treadmill is not forced after a reshuffle. With the most reshuffles the
    # rules allow (50) the hand lasts 51 stocks: 1479 draws (1581 with floor 0), all of them legal.
    deck = deal(TREADMILL_NON_DEALER, TREADMILL_DEALER, "KC")
    rules = Rules(exhaustion="reshuffle", max_reshuffles=max_reshuffles, stock_floor=floor)
    result = play(rules, ("greedy", "greedy"), deck, seed)
    per_stock = 31 - floor
    assert kinds(result).count("reshuffle") == max_reshuffles
    assert record(result) == dict(outcome="draw", winner=-1, knocker=-1, points=0, knocker_deadwood=-1,
                                  defender_deadwood=-1, laid_off=0, turns=per_stock * (max_reshuffles + 1),
                                  upcard_taken_by=-1, knock_limit=10, multiplier=1, stock_left=floor)
    # The first reshuffle comes right after the discard that left the stock at the floor; the pile's
    # top card (that discard) stays face up, everything else under it becomes the new stock.
    first = kinds(result).index("reshuffle")
    assert kinds(result)[first - 2:first] == ["draw_stock", "discard"]
    assert sum(1 for kind in kinds(result)[:first] if kind == "draw_stock") == per_stock
    # After a reshuffle the next player draws from the new stock, and every card drawn is one that had
    # been face up before it (or left in the stock).
    assert result.events[first + 1].kind == "draw_stock"
    assert result.events[first + 1].player == 1 - result.events[first - 1].player


def test_reshuffle_preset_reshuffles_once():
    deck = deal(TREADMILL_NON_DEALER, TREADMILL_DEALER, "KC")
    result = play(Rules.preset("reshuffle"), ("greedy", "greedy"), deck)
    assert kinds(result).count("reshuffle") == 1
    assert (result.outcome, result.turns) == ("draw", 58)


def test_deck_given_as_text_plays_the_same_hand():
    deck = deal("6H 7H 8H 9C 9S 9D 2S 3S 4S KD", "2H 3H 4H QC QD QH QS 9H 7S AC", "KS", "5D")
    as_text = " ".join("23456789TJQKA"[(c % 13 + 12) % 13] + "CDHS"[c // 13] for c in deck)
    from_indices = play_hand(Rules(), "simple,greedy", deck=deck, dealer=DEALER)
    from_text = play_hand(Rules(), "simple,greedy", deck=as_text, dealer=DEALER)
    assert from_text == from_indices
    assert from_indices.seed is None


def test_a_deck_that_is_not_52_distinct_cards_is_refused():
    deck = deal("6H 7H 8H 9C 9S 9D 2S 3S 4S KD", "2H 3H 4H QC QD QH QS 9H 7S AC", "KS", "5D")
    with pytest.raises(ValueError):
        play_hand(Rules(), "simple,simple", deck=deck[:51], dealer=1)
    with pytest.raises(ValueError):
        play_hand(Rules(), "simple,simple", deck=deck[:51] + deck[:1], dealer=1)
    with pytest.raises(ValueError):
        play_hand(Rules(), "simple,simple", deck=deck)  # a deck without a dealer


def test_replay_rejects_a_forced_hand_with_a_wrong_record():
    """The checker is not vacuous on forced deals: one wrong field is caught."""
    import dataclasses

    deck = deal("6H 7H 8H 9C 9S 9D 2S 3S 4S KD", "2H 3H 4H QC QD QH QS 9H 7S AC", "KS", "5D")
    result = play(Rules(), ("simple", "simple"), deck)
    for change in (dict(points=4), dict(defender_deadwood=7), dict(laid_off=0), dict(winner=1)):
        with pytest.raises(ReplayError):
            replay(dataclasses.replace(result, **change))
