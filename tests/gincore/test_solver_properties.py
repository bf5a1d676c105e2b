"""Properties of the solver that hold for every hand (hypothesis).

Only true statements: deadwood is NOT monotone in the hand (adding a card can complete a meld),
so nothing here assumes it; what does hold is that one more card raises deadwood by at most
its own value.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.reference import oracle
from tests.reference.cards import FULL_DECK, RANK_NAMES, cards_of, is_meld, mask_value, popcount, text

# The number of examples comes from the suite's Hypothesis profile (tests/conftest.py): 100, or 1,000
# with --full.
SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def mask_of(indices) -> int:
    return sum(1 << int(index) for index in indices)


@st.composite
def dense_cards(draw, max_size: int = 14) -> int:
    """Cards of a window of ranks in a few suits: hands where sets and runs cross."""
    width = draw(st.integers(3, 8))
    start = draw(st.integers(0, 13 - width))
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    pool = [suit * 13 + rank for suit in sorted(suits) for rank in range(start, start + width)]
    chosen = draw(st.sets(st.sampled_from(pool), max_size=max_size))
    strays = draw(st.sets(st.integers(0, 51), max_size=2))
    return mask_of(chosen | strays)


def sparse_cards(max_size: int) -> st.SearchStrategy[int]:
    return st.sets(st.integers(0, 51), max_size=max_size).map(mask_of)


def hands(max_size: int = 12) -> st.SearchStrategy[int]:
    return st.one_of(dense_cards(max_size), sparse_cards(max_size))


any_mask = st.integers(0, FULL_DECK)
suit_orders = st.permutations(range(4))


def permute_suits(mask: int, order) -> int:
    """Move every card of suit s to suit order[s]."""
    out = 0
    for suit in range(4):
        out |= ((mask >> (13 * suit)) & 0x1FFF) << (13 * order[suit])
    return out


# ---------------------------------------------------------------------------------------------
# Cards and text


@SETTINGS
@given(any_mask)
def test_format_parse_round_trip(gincore, mask: int) -> None:
    shown = gincore.format_cards(mask)
    assert isinstance(shown, str)
    assert gincore.parse_cards(shown) == mask
    assert gincore.parse_cards(shown.lower()) == mask
    tokens = shown.split()
    assert len(tokens) == popcount(mask)
    # canonical text: index order, single spaces
    assert " ".join(tokens) == shown
    indices = [gincore.parse_cards(token).bit_length() - 1 for token in tokens]
    assert indices == sorted(indices) == cards_of(mask)


@SETTINGS
@given(st.lists(st.integers(0, 51), unique=True, max_size=20), st.booleans(), st.booleans())
def test_parse_accepts_every_spelling(gincore, indices, ten_as_t: bool, lower: bool) -> None:
    tokens = []
    for index in indices:  # any order, any case, 10 or T
        rank = RANK_NAMES[index % 13]
        if rank == "10" and ten_as_t:
            rank = "T"
        token = rank + "CDHS"[index // 13]
        tokens.append(token.lower() if lower else token)
    assert gincore.parse_cards(" ".join(tokens)) == mask_of(indices)


def test_card_values(gincore) -> None:
    for index in range(52):
        assert gincore.card_value(index) == min(index % 13 + 1, 10)


# ---------------------------------------------------------------------------------------------
# Deadwood


@SETTINGS
@given(hands(14))
def test_deadwood_matches_oracle(gincore, mask: int) -> None:
    assert gincore.deadwood(mask) == oracle.oracle_deadwood(mask)


@SETTINGS
@given(st.one_of(hands(16), any_mask), suit_orders)
def test_deadwood_invariant_under_suit_permutation(gincore, melds_module, mask, order) -> None:
    moved = permute_suits(mask, order)
    assert popcount(moved) == popcount(mask)
    assert gincore.deadwood(moved) == gincore.deadwood(mask)
    assert melds_module.deadwood_dp(moved) == melds_module.deadwood_dp(mask)


@SETTINGS
@given(hands(12), suit_orders)
def test_arrangements_follow_suit_permutation(gincore, mask: int, order) -> None:
    moved = [
        tuple(sorted(permute_suits(meld, order) for meld in melds))
        for melds in gincore.arrangements(mask)
    ]
    assert sorted(moved) == gincore.arrangements(permute_suits(mask, order))


@SETTINGS
@given(any_mask)
def test_dp_equals_deadwood_on_any_hand(gincore, melds_module, mask: int) -> None:
    assert melds_module.deadwood_dp(mask) == gincore.deadwood(mask)


@SETTINGS
@given(st.one_of(hands(14), any_mask))
def test_deadwood_bounds(gincore, mask: int) -> None:
    deadwood = gincore.deadwood(mask)
    assert 0 <= deadwood <= mask_value(mask)


@SETTINGS
@given(st.one_of(hands(13), any_mask), st.integers(0, 51))
def test_one_more_card_adds_at_most_its_value(gincore, mask: int, index: int) -> None:
    bit = 1 << index
    assume(not mask & bit)
    assert gincore.deadwood(mask | bit) <= gincore.deadwood(mask) + gincore.card_value(index)


@SETTINGS
@given(st.lists(st.one_of(hands(14), any_mask), max_size=40))
def test_deadwood_many_equals_deadwood(gincore, masks) -> None:
    array = np.array(masks, dtype=np.uint64)
    got = gincore.deadwood_many(array)
    assert got.dtype == np.int16 and got.shape == array.shape
    assert [int(v) for v in got] == [gincore.deadwood(mask) for mask in masks]


# ---------------------------------------------------------------------------------------------
# Arrangements


@SETTINGS
@given(hands(13))
def test_arrangements_are_valid_partitions(gincore, mask: int) -> None:
    arrangements = gincore.arrangements(mask)
    deadwood = gincore.deadwood(mask)
    assert isinstance(arrangements, list) and arrangements
    assert arrangements == sorted(arrangements)
    assert len(set(arrangements)) == len(arrangements)
    for melds in arrangements:
        assert isinstance(melds, tuple)
        assert list(melds) == sorted(melds)
        covered = 0
        for meld in melds:
            assert is_meld(meld), text(meld)
            assert meld & mask == meld
            assert not meld & covered
            covered |= meld
        assert mask_value(mask & ~covered) == deadwood
        # runs are maximal: no two runs of one suit touch
        assert oracle.normalise(melds) == melds


@SETTINGS
@given(hands(12))
def test_arrangements_match_oracle(gincore, mask: int) -> None:
    assert gincore.arrangements(mask) == oracle.oracle_arrangements(mask)


# ---------------------------------------------------------------------------------------------
# Discards


@SETTINGS
@given(st.one_of(hands(12), sparse_cards(20)))
def test_deadwood_after_discard_is_deadwood_of_smaller_hand(gincore, mask: int) -> None:
    after = gincore.deadwood_after_discard(mask)
    assert sorted(after) == cards_of(mask)
    for index, deadwood in after.items():
        assert deadwood == gincore.deadwood(mask & ~(1 << index))
        # dropping a card lowers deadwood by at most its value
        assert deadwood >= gincore.deadwood(mask) - gincore.card_value(index)


@SETTINGS
@given(st.lists(hands(12).filter(bool), min_size=1, max_size=20))
def test_best_discards_many_agrees_with_deadwood_after_discard(gincore, masks) -> None:
    values, chosen = gincore.best_discards_many(np.array(masks, dtype=np.uint64))
    for mask, best, best_mask in zip(masks, values, chosen, strict=True):
        after = gincore.deadwood_after_discard(mask)
        assert int(best) == min(after.values())
        assert int(best_mask) == mask_of(i for i, d in after.items() if d == int(best))


@SETTINGS
@given(hands(10).filter(bool), st.integers(0, 51))
def test_a_card_improves_a_hand_iff_it_is_not_among_the_best_discards_after_taking_it(
        gincore, mask: int, index: int) -> None:
    """What greedy's and marjj's draws ask (taking the card and the best other discard leaves less deadwood
    than now) in one solve: the card is not one of the best discards of the hand with it."""
    assume(not mask >> index & 1)
    taken = mask | 1 << index
    after = gincore.deadwood_after_discard(taken)
    improves = min(deadwood for card, deadwood in after.items() if card != index) < gincore.deadwood(mask)
    _, best = gincore.best_discards_many(np.array([taken], dtype=np.uint64))
    assert improves == (not int(best[0]) >> index & 1)


# ---------------------------------------------------------------------------------------------
# Lay-off


@st.composite
def deals(draw):
    """A defender's hand and knocker melds from the knocker's cards, out of one dense pool."""
    cards = draw(dense_cards(16))
    pool = cards_of(cards)
    knocker_cards = draw(st.sets(st.sampled_from(pool) if pool else st.nothing()))
    knocker = mask_of(knocker_cards)
    defender = cards & ~knocker
    # any disjoint melds the knocker holds, not only a minimum arrangement
    melds = []
    used = 0
    for meld in draw(st.permutations(oracle.melds_in(knocker))):
        if not meld & used and draw(st.booleans()):
            melds.append(meld)
            used |= meld
    return defender, melds


@SETTINGS
@given(deals())
def test_layoff_is_feasible_and_never_hurts(gincore, deal) -> None:
    defender, melds = deal
    deadwood, laid = gincore.layoff(defender, melds)
    assert laid & ~defender == 0
    assert deadwood <= gincore.deadwood(defender)
    assert oracle.KnockerMelds(melds).is_feasible(laid)
    assert gincore.deadwood(defender & ~laid) == deadwood


@SETTINGS
@given(deals())
def test_layoff_matches_oracle(gincore, deal) -> None:
    defender, melds = deal
    deadwood, laid = gincore.layoff(defender, melds)
    assert (deadwood, popcount(laid)) == oracle.oracle_layoff(defender, melds)


@SETTINGS
@given(deals(), suit_orders)
def test_layoff_invariant_under_suit_permutation(gincore, deal, order) -> None:
    defender, melds = deal
    deadwood, laid = gincore.layoff(defender, melds)
    moved = gincore.layoff(permute_suits(defender, order), [permute_suits(m, order) for m in melds])
    assert moved[0] == deadwood
    assert popcount(moved[1]) == popcount(laid)


@SETTINGS
@given(st.one_of(hands(14), sparse_cards(30)))
def test_layoff_onto_nothing_is_plain_deadwood(gincore, mask: int) -> None:
    assert gincore.layoff(mask, []) == (gincore.deadwood(mask), 0)
    assert gincore.layoff(mask, ()) == (gincore.deadwood(mask), 0)


@SETTINGS
@given(deals())
def test_layoff_accepts_any_iterable_in_any_order(gincore, deal) -> None:
    defender, melds = deal
    deadwood, laid = gincore.layoff(defender, melds)
    assert gincore.layoff(defender, tuple(melds)) == (deadwood, laid)
    assert gincore.layoff(defender, iter(melds)) == (deadwood, laid)
    reordered = gincore.layoff(defender, (m for m in reversed(melds)))
    assert reordered[0] == deadwood
    assert popcount(reordered[1]) == popcount(laid)


def test_batch_functions_on_empty_arrays(gincore) -> None:
    empty = np.zeros(0, dtype=np.uint64)
    assert gincore.deadwood_many(empty).shape == (0,)
    values, masks = gincore.best_discards_many(empty)
    assert values.shape == (0,) and masks.shape == (0,)
