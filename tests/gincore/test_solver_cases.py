"""Hand-picked cases written from docs/rules.md#cards-and-values, docs/rules.md#melds-and-deadwood,
docs/rules.md#lay-offs and docs/rules.md#scoring-a-hand, and the solver's error contract.

Hands are written with the reference parser (``tests.reference.cards``) so that a fault in
``gincore.parse_cards`` cannot hide a fault in the solver; the parser has cases of its own.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.reference import oracle
from tests.reference.cards import FULL_DECK, card, popcount
from tests.reference.cards import mask_of as hand

RUN_678H = [hand("6H 7H 8H")]


# ---------------------------------------------------------------------------------------------
# Cards and text


def test_parse_examples(gincore) -> None:
    assert gincore.parse_cards("AC") == 1
    assert gincore.parse_cards("KS") == 1 << 51
    assert gincore.parse_cards("10H") == gincore.parse_cards("TH") == gincore.parse_cards("th")
    assert gincore.parse_cards("10H") == 1 << (2 * 13 + 9)
    assert gincore.parse_cards("AS 10H TD QC 7d") == hand("AS 10H TD QC 7D")
    assert gincore.parse_cards("") == 0


def test_format_examples(gincore) -> None:
    # index order: clubs, diamonds, hearts, spades; ace to king within a suit
    tokens = gincore.format_cards(hand("AS 10H TD QC 7d")).split(" ")
    assert tokens[0:2] == ["QC", "7D"] and tokens[4] == "AS"
    assert tokens[2] in ("TD", "10D") and tokens[3] in ("TH", "10H")
    assert gincore.format_cards(0) == ""
    assert gincore.format_cards(1) == "AC"
    assert gincore.format_cards(1 << 51) == "KS"


@pytest.mark.parametrize("bad", ["1X", "1S", "11S", "ZZ", "A", "AX", "10", "KSS"])
def test_parse_names_the_bad_token(gincore, bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(bad)):
        gincore.parse_cards(f"AS {bad} 2D")


def test_parse_names_the_duplicate_card(gincore) -> None:
    with pytest.raises(ValueError, match=r"(?i)\bAS\b"):
        gincore.parse_cards("AS KD as")
    with pytest.raises(ValueError, match=r"(?i)\b(10|T)H\b"):
        gincore.parse_cards("10H 2C TH")


# ---------------------------------------------------------------------------------------------
# Deadwood


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("", 0),
        ("QS KS AS", 21),  # Q-K-A is no run (docs/rules.md#cards-and-values)
        ("KC AC 2C", 13),  # nor is K-A-2
        ("AS 2S 3S", 0),  # the ace is low
        ("QS KS AS 2S", 23),
        ("JH QH KH", 0),
        ("9D 9S 9C", 0),
        ("9D 9S 9C 9H", 0),
        ("9D 9S", 18),
        ("5H 6H 8H", 19),  # a gap breaks the run
        ("5H 6S 7H", 18),  # runs are of one suit
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", 0),
        # §8 knocker before the discard: 6-7-8H, 9C 9S 9D, 2-3-4S, 5D and KD
        ("6H 7H 8H 9C 9S 9D 2S 3S 4S 5D KD", 15),
        ("6H 7H 8H 9C 9S 9D 2S 3S 4S 5D", 5),
        # §8 defender: own melds 2-3-4H and the four queens
        ("2H 3H 4H QC QD QH QS 9H 7S AC", 17),
        ("4C 4D 4H 4S 5C 5D 5H 5S 6C 6D", 6),
        ("5H 6H 7H 7C 7D 7S", 0),  # a 3-set plus the run beats the 4-set
    ],
)
def test_deadwood_cases(gincore, melds_module, cards: str, expected: int) -> None:
    mask = hand(cards)
    assert oracle.oracle_deadwood(mask) == expected
    assert gincore.deadwood(mask) == expected
    assert melds_module.deadwood_dp(mask) == expected
    assert int(gincore.deadwood_many(np.array([mask], dtype=np.uint64))[0]) == expected


def test_empty_hand(gincore, melds_module) -> None:
    assert gincore.deadwood(0) == 0
    assert melds_module.deadwood_dp(0) == 0
    assert gincore.arrangements(0) == [()]
    assert gincore.deadwood_after_discard(0) == {}
    assert gincore.layoff(0, RUN_678H) == (0, 0)
    assert gincore.layoff(0, []) == (0, 0)


def test_full_deck(gincore, melds_module) -> None:
    assert gincore.deadwood(FULL_DECK) == 0
    assert melds_module.deadwood_dp(FULL_DECK) == 0
    assert list(gincore.deadwood_many(np.array([FULL_DECK], dtype=np.uint64))) == [0]


# ---------------------------------------------------------------------------------------------
# Arrangements


def test_arrangements_no_wrap(gincore) -> None:
    assert gincore.arrangements(hand("QS KS AS")) == [()]


def test_arrangements_adjacent_runs_are_one_meld(gincore) -> None:
    assert gincore.arrangements(hand("AS 2S 3S 4S 5S 6S")) == [(hand("AS 2S 3S 4S 5S 6S"),)]


def test_arrangements_choose_each_three_set(gincore) -> None:
    # Run 5-7 of spades with the other three sevens, or of clubs: both leave 5 + 6.
    mask = hand("7C 7D 7H 7S 5S 6S 5C 6C")
    expected = sorted(
        [
            tuple(sorted([hand("5S 6S 7S"), hand("7C 7D 7H")])),
            tuple(sorted([hand("5C 6C 7C"), hand("7D 7H 7S")])),
        ]
    )
    assert oracle.oracle_arrangements(mask) == expected
    assert gincore.arrangements(mask) == expected


def test_arrangements_set_or_run_tie(gincore) -> None:
    # 5-6-7H or the three sixes: both leave 12.
    mask = hand("5H 6H 7H 6C 6D")
    expected = sorted([(hand("5H 6H 7H"),), (hand("6C 6D 6H"),)])
    assert gincore.deadwood(mask) == 12
    assert gincore.arrangements(mask) == expected


def test_arrangements_four_set_or_three_set_with_run(gincore) -> None:
    # The 4-set leaves 8S 9S; a 3-set with 7-8-9S leaves nothing.
    mask = hand("7C 7D 7H 7S 8S 9S")
    assert gincore.arrangements(mask) == [tuple(sorted([hand("7C 7D 7H"), hand("7S 8S 9S")]))]
    # Alone, the four sevens are one 4-set.
    assert gincore.arrangements(hand("7C 7D 7H 7S")) == [(hand("7C 7D 7H 7S"),)]


def test_arrangements_worked_example_knocker(gincore) -> None:
    mask = hand("6H 7H 8H 9C 9S 9D 2S 3S 4S 5D")
    expected = [tuple(sorted([hand("6H 7H 8H"), hand("9C 9S 9D"), hand("2S 3S 4S")]))]
    assert gincore.arrangements(mask) == expected


# ---------------------------------------------------------------------------------------------
# Discards


def test_best_discard_breaks_a_set_run_tie() -> None:
    """With 5-6-7H and 6C 6D the set and the run tie at 12; the best discard chooses the set.

    2-3-4C and J-Q-KS are melded. Discarding 7H keeps the three sixes and leaves 5H: 5.
    Discarding 5H keeps the sixes and leaves 7H: 7. Discarding a loose six keeps the run and
    leaves the other six: 6. Anything else is worse.
    """
    mask = hand("2C 3C 4C JS QS KS 5H 6H 7H 6C 6D")
    assert oracle.oracle_deadwood(mask) == 12
    after = oracle.oracle_deadwood_after_discard(mask)
    assert after[card("7H")] == 5
    assert after[card("5H")] == 7
    assert after[card("6C")] == after[card("6D")] == 6
    assert oracle.oracle_best_discard(mask) == (5, hand("7H"))


def test_best_discard_case_in_solver(gincore) -> None:
    mask = hand("2C 3C 4C JS QS KS 5H 6H 7H 6C 6D")
    after = gincore.deadwood_after_discard(mask)
    assert after == oracle.oracle_deadwood_after_discard(mask)
    values, masks = gincore.best_discards_many(np.array([mask], dtype=np.uint64))
    assert (int(values[0]), int(masks[0])) == (5, hand("7H"))


def test_best_discard_several_cards_tie(gincore) -> None:
    # Melds everywhere but two kings: dropping either king leaves 10.
    mask = hand("AC 2C 3C 4D 5D 6D 7H 8H 9H KS KD")
    values, masks = gincore.best_discards_many(np.array([mask], dtype=np.uint64))
    assert (int(values[0]), int(masks[0])) == (10, hand("KS KD"))
    assert gincore.deadwood_after_discard(mask)[card("AC")] == 2 + 3 + 20


def test_knock_from_the_worked_example(gincore) -> None:
    # §8: the knocker draws 5D and discards KD, keeping deadwood 5.
    mask = hand("6H 7H 8H 9C 9S 9D 2S 3S 4S 5D KD")
    values, masks = gincore.best_discards_many(np.array([mask], dtype=np.uint64))
    assert (int(values[0]), int(masks[0])) == (5, hand("KD"))


# ---------------------------------------------------------------------------------------------
# Lay-off (docs/rules.md#lay-offs)


def test_layoff_worked_example(gincore) -> None:
    knocker = [hand("6H 7H 8H"), hand("9C 9S 9D"), hand("2S 3S 4S")]
    defender = hand("2H 3H 4H QC QD QH QS 9H 7S AC")
    assert gincore.layoff(defender, knocker) == (8, hand("9H"))
    assert oracle.oracle_layoff(defender, knocker) == (8, 1)


@pytest.mark.parametrize(
    ("defender", "knocker", "deadwood", "laid_off"),
    [
        # chains at the top: 9 then 10 onto 6-7-8
        ("9H 10H KC", RUN_678H, 10, "9H 10H"),
        # 10 alone cannot attach to 6-7-8
        ("10H KC", RUN_678H, 20, ""),
        # both ends: 5 and 9 onto 6-7-8
        ("5H 9H KC", RUN_678H, 10, "5H 9H"),
        # chains at both ends
        ("4H 5H 9H 10H", RUN_678H, 0, "4H 5H 9H 10H"),
        # 9-10-J of hearts is the defender's own run: no need to lay any of it off
        ("9H 10H JH KC", RUN_678H, 10, ""),
        # ... but with the jack needed in a set, 9 and 10 go onto the run
        ("9H 10H JH JC JD KC", RUN_678H, 10, "9H 10H"),
        # other suits do not attach
        ("5C 9S", RUN_678H, 14, ""),
        # the fourth card of a 3-set
        ("7S KD", [hand("7C 7D 7H")], 10, "7S"),
        # nothing goes onto a 4-set
        ("8S KD", [hand("7C 7D 7H 7S")], 18, ""),
        # a card laid onto a set does not start a run
        ("7S 8S", [hand("7C 7D 7H")], 8, "7S"),
        # a card laid onto a run does (and it may be the fourth of a set as well)
        ("5S 4S KD", [hand("5C 5D 5H"), hand("6S 7S 8S")], 10, "4S 5S"),
        # no wrap-around: nothing goes below an ace or above a king
        ("KS", [hand("AS 2S 3S")], 10, ""),
        ("AS", [hand("JS QS KS")], 1, ""),
        ("QS KS", [hand("9S 10S JS")], 0, "QS KS"),
        # two knocker runs of one suit with a gap the defender fills from both sides
        ("4S 6S", [hand("AS 2S 3S"), hand("7S 8S 9S")], 0, "4S 6S"),
        # the defender keeps its own melds when they are worth as much
        ("4S 5S 6S", [hand("AS 2S 3S"), hand("7S 8S 9S")], 0, ""),
    ],
)
def test_layoff_cases(gincore, defender: str, knocker, deadwood: int, laid_off: str) -> None:
    defender_mask = hand(defender)
    expected = (deadwood, hand(laid_off))
    assert oracle.oracle_layoff(defender_mask, knocker) == (deadwood, popcount(expected[1]))
    assert gincore.layoff(defender_mask, knocker) == expected


def test_layoff_defender_breaks_own_run(gincore) -> None:
    # Keeping 9-10-J of hearts leaves 10C 10D (20). Breaking it, the tens make a set and 9H goes
    # onto 6-7-8H; JH cannot follow, since 10H is in the defender's own set: deadwood 10.
    defender = hand("9H 10H JH 10C 10D")
    assert oracle.oracle_layoff(defender, RUN_678H) == (10, 1)
    assert gincore.layoff(defender, RUN_678H) == (10, hand("9H"))


def test_layoff_keeps_own_set_rather_than_lay_off(gincore) -> None:
    # The nines as a set leave 10H (10); laying 9H and 10H off leaves 9C 9D (18).
    defender = hand("9H 9C 9D 10H")
    assert oracle.oracle_layoff(defender, RUN_678H) == (10, 0)
    assert gincore.layoff(defender, RUN_678H) == (10, 0)


# ---------------------------------------------------------------------------------------------
# Errors


MASK_FUNCTIONS = ["deadwood", "arrangements", "deadwood_after_discard", "format_cards"]


def _mask_callables(gincore, melds_module):
    out = {name: getattr(gincore, name) for name in MASK_FUNCTIONS}
    out["deadwood_dp"] = melds_module.deadwood_dp
    out["layoff"] = lambda mask: gincore.layoff(mask, [])
    return out


@pytest.mark.parametrize("name", MASK_FUNCTIONS + ["deadwood_dp", "layoff"])
def test_negative_mask_is_rejected(gincore, melds_module, name: str) -> None:
    function = _mask_callables(gincore, melds_module)[name]
    with pytest.raises(ValueError, match="negative"):
        function(-1)
    with pytest.raises(ValueError, match="negative"):
        function(-(1 << 40))


@pytest.mark.parametrize("name", MASK_FUNCTIONS + ["deadwood_dp", "layoff"])
def test_bits_above_51_are_rejected(gincore, melds_module, name: str) -> None:
    function = _mask_callables(gincore, melds_module)[name]
    for mask in (1 << 52, (1 << 52) | 1, 1 << 63, 1 << 64, 1 << 200):
        with pytest.raises(ValueError, match="51"):
            function(mask)


@pytest.mark.parametrize("name", MASK_FUNCTIONS + ["deadwood_dp", "layoff"])
def test_non_int_mask_is_rejected(gincore, melds_module, name: str) -> None:
    function = _mask_callables(gincore, melds_module)[name]
    for bad in ("AS", 1.0, 1.5, None, [1]):
        with pytest.raises(TypeError):
            function(bad)


@pytest.mark.parametrize("dtype", [np.int64, np.uint32, np.int16, np.float64, np.object_])
def test_deadwood_many_requires_uint64(gincore, dtype) -> None:
    with pytest.raises(TypeError, match="uint64"):
        gincore.deadwood_many(np.array([7, 56], dtype=dtype))


@pytest.mark.parametrize(
    "bad_meld",
    [
        "7C 7D",  # too short
        "5H 6H 8H",  # a gap
        "5H 6S 7H",  # mixed suits
        "QS KS AS",  # no wrap
        "7C 8D 9H 10S",  # neither
        "2C 2D 3C",  # neither
        "AS",  # a single card
    ],
)
def test_layoff_rejects_invalid_knocker_meld(gincore, bad_meld: str) -> None:
    mask = hand(bad_meld)
    with pytest.raises(ValueError, match=re.escape(gincore.format_cards(mask))):
        gincore.layoff(hand("KD"), [hand("2H 3H 4H"), mask])


def test_layoff_rejects_empty_knocker_meld(gincore) -> None:
    with pytest.raises(ValueError):
        gincore.layoff(hand("KD"), [0])


def test_layoff_rejects_meld_overlapping_defender(gincore) -> None:
    with pytest.raises(ValueError, match=r"(?i)defender") as raised:
        gincore.layoff(hand("7H KD"), RUN_678H)
    assert gincore.format_cards(hand("7H")) in str(raised.value)


def test_layoff_rejects_overlapping_knocker_melds(gincore) -> None:
    with pytest.raises(ValueError, match=r"(?i)overlap") as raised:
        gincore.layoff(hand("KD"), [hand("6H 7H 8H"), hand("8C 8D 8H")])
    assert gincore.format_cards(hand("8H")) in str(raised.value)


def test_layoff_rejects_bad_knocker_meld_masks(gincore) -> None:
    with pytest.raises(ValueError):
        gincore.layoff(hand("KD"), [-7])
    with pytest.raises(ValueError):
        gincore.layoff(hand("KD"), [7 << 50])
