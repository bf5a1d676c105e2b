"""gincore's solver against the brute-force oracle of ``tests/reference/oracle.py``.

The first tests check the oracle itself, against hand-worked hands and against a second, slower
formulation (every subset of the hand's melds; every subset of the defender's cards as a lay-off).
The sweeps then compare every solver function with the oracle on uniform random hands and on the
generators' hard hands: meld-dense hands, hands of crossing melds within knock range, lay-off chains.
Each sweep is split into chunks so pytest-xdist can spread them over the cores.

Uniform random hands are nearly all easy (about 1 in 100 holds two ranks of three or more cards, and
hardly any is within knock range), so the default run plays fewer of them and leans on the hard
generators; ``--full`` plays 10^6 uniform hands (half of 10 cards, half of 11) and more of the rest.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from tests.reference import oracle
from tests.reference.cards import FULL_DECK, RANK_NAMES, cards_of, is_meld, is_set, mask_value, popcount, text
from tests.reference.cards import mask_of as hand

CHUNKS = 8
# Hands (or deals) per chunk, as (default, --full); the comments give the totals over the chunks.
RANDOM_PER_CHUNK = (1_500, 62_500)  # 12,000 or 500,000 hands of 10 cards, and as many of 11
DENSE_PER_CHUNK = (1_000, 25_000)  # 8,000 or 200,000 meld-dense hands, half of 10 cards, half of 11
CROSSING_PER_CHUNK = (1_000, 12_500)  # 8,000 or 100,000 hands of crossing melds, half 10, half 11
LAYOFF_PER_CHUNK = (1_000, 12_500)  # 8,000 or 100,000 deals of each kind: random, meld-dense, chains
MAX_REPORTED = 10


# ---------------------------------------------------------------------------------------------
# Helpers


class Mismatches:
    """Collects disagreements and fails once, listing the first few hands in full."""

    def __init__(self, what: str, format_cards) -> None:
        self.what = what
        self.format_cards = format_cards
        self.items: list[str] = []
        self.count = 0

    def add(self, mask: int, got, expected, extra: str = "") -> None:
        self.count += 1
        if len(self.items) < MAX_REPORTED:
            shown = self.format_cards(int(mask))
            line = f"{shown!r} (mask {int(mask):#x}): got {got!r}, oracle {expected!r}"
            self.items.append(line + (f" [{extra}]" if extra else ""))

    def check(self, total: int) -> None:
        if self.count:
            listing = "\n  ".join(self.items)
            pytest.fail(f"{self.what}: {self.count} of {total} hands disagree, e.g.\n  {listing}")


def meld_text(melds, format_cards) -> list[str]:
    return [format_cards(int(meld)) for meld in melds]


def subsets_naive_deadwood(mask: int) -> int:
    """Deadwood by trying every subset of the hand's melds (small hands only)."""
    melds = oracle.melds_in(mask)
    best = mask_value(mask)

    def search(start: int, used: int) -> None:
        nonlocal best
        best = min(best, mask_value(mask & ~used))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i])

    search(0, 0)
    return best


def attach_in_some_order(knocker_melds: list[int], laid_off: int) -> bool:
    """Lay the cards of ``laid_off`` on the table one at a time, simulating the table's melds.

    Written independently of ``oracle.KnockerMelds``: the table is a list of melds that grow.
    """
    table = []  # (kind, cards): kind "run" grows at both ends, "set" takes its fourth card once
    for meld in knocker_melds:
        table.append(["set" if is_set(meld) else "run", meld])
    # A card that fits both a set (as its fourth card) and a run goes on the run: only there can
    # it carry a chain further, and no other card could have used the set.
    table.sort(key=lambda entry: entry[0] == "set")
    pending = set(cards_of(laid_off))
    progress = True
    while pending and progress:
        progress = False
        for index in sorted(pending):
            suit, rank = divmod(index, 13)
            for entry in table:
                kind, cards = entry
                members = cards_of(cards)
                if kind == "set":
                    fits = len(members) == 3 and members[0] % 13 == rank
                else:
                    fits = members[0] // 13 == suit and (
                        rank == members[0] % 13 - 1 or rank == members[-1] % 13 + 1
                    )
                if fits:
                    entry[1] = cards | (1 << index)
                    pending.discard(index)
                    progress = True
                    break
    return not pending


def naive_layoff(defender: int, knocker_melds: list[int]) -> tuple[int, int]:
    """Lay-off optimum by trying every subset of the defender's cards as the laid-off cards."""
    cards = cards_of(defender)
    best = None
    for size in range(len(cards) + 1):
        for chosen in combinations(cards, size):
            laid = sum(1 << index for index in chosen)
            if not attach_in_some_order(knocker_melds, laid):
                continue
            outcome = (subsets_naive_deadwood(defender & ~laid), size)
            if best is None or outcome < best:
                best = outcome
    return best


# ---------------------------------------------------------------------------------------------
# The oracle checked by hand and by slower formulations


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("", 0),
        ("AS", 1),
        ("KS QH", 20),
        ("QS KS AS", 21),  # no wrap-around
        ("AS 2S 3S", 0),
        ("JS QS KS", 0),
        ("7C 7D 7H", 0),
        ("7C 7D 7H 7S", 0),
        ("7C 7D", 14),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C", 0),
        ("4C 4D 4H 4S 5C 5D 5H 5S 6C 6D", 6),  # 4C5C6C, 4D4H4S, 5D5H5S leave 6D
        ("5H 6H 7H 7C 7D", 11),  # run or set, not both; set leaves 5+6
        ("5H 6H 7H 7C 7D 8H", 14),  # run 5-8 leaves 7+7; set leaves 5+6+8=19
        ("5H 6H 7H 7C 7D 7S", 0),  # a 3-set and the run beat the 4-set (which leaves 5+6)
        ("AC AD AH 2C 3C", 2),  # run A-3C leaves AD AH = 2; set leaves 2+3 = 5
        ("AC AD AH AS 2C 3C 2D 3D", 2),  # runs A-3C, A-3D leave AH AS
    ],
)
def test_oracle_deadwood_hand_checked(cards: str, expected: int) -> None:
    assert oracle.oracle_deadwood(hand(cards)) == expected


def test_oracle_full_suit_and_four_sets() -> None:
    assert oracle.oracle_deadwood(hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")) == 0
    four_ranks = " ".join(f"{r}{s}" for r in ("4", "5", "6", "7") for s in "CDHS")
    assert oracle.oracle_deadwood(hand(four_ranks)) == 0


def test_oracle_arrangements_hand_checked() -> None:
    # Two ways: the club run 4-6 with the 4 and 5 sets of the other suits, or the diamond run.
    got = oracle.oracle_arrangements(hand("4C 4D 4H 4S 5C 5D 5H 5S 6C 6D"))
    expected = sorted(
        [
            tuple(sorted([hand("4C 5C 6C"), hand("4D 4H 4S"), hand("5D 5H 5S")])),
            tuple(sorted([hand("4D 5D 6D"), hand("4C 4H 4S"), hand("5C 5H 5S")])),
        ]
    )
    assert got == expected
    # A-3 and 4-6 of one suit are one maximal run.
    assert oracle.oracle_arrangements(hand("AS 2S 3S 4S 5S 6S")) == [(hand("AS 2S 3S 4S 5S 6S"),)]
    # A 4-set beside a run through its rank: the 4-set, or each 3-set with the run.
    got = oracle.oracle_arrangements(hand("7C 7D 7H 7S 8S 9S"))
    assert got == [tuple(sorted([hand("7C 7D 7H"), hand("7S 8S 9S")]))]
    got = oracle.oracle_arrangements(hand("7C 7D 7H 7S 5S 6S"))
    assert got == [tuple(sorted([hand("5S 6S 7S"), hand("7C 7D 7H")]))]
    got = oracle.oracle_arrangements(hand("7C 7D 7H 7S 5S 6S 8S 9S"))
    assert sorted(got) == got and len(got) == 1
    assert got[0] == tuple(sorted([hand("5S 6S 7S 8S 9S"), hand("7C 7D 7H")]))
    # No melds: one arrangement, the empty one.
    assert oracle.oracle_arrangements(hand("AS 5D 9H KC")) == [()]
    assert oracle.oracle_arrangements(0) == [()]
    # Ties between a set and a run of equal value.
    assert oracle.oracle_arrangements(hand("5H 6H 7H 7C 7D")) == [(hand("7C 7D 7H"),)]
    got = oracle.oracle_arrangements(hand("5H 6H 7H 6C 6D"))  # both leave 12
    assert got == sorted([(hand("5H 6H 7H"),), (hand("6C 6D 6H"),)])


def test_oracle_normalise_never_merges_across_suits() -> None:
    # Q-K of clubs and A of diamonds are neighbours in index order, not in rank.
    melds = (hand("JC QC KC"), hand("AD 2D 3D"))
    assert oracle.normalise(melds) == tuple(sorted(melds))
    assert oracle.normalise((hand("AD 2D 3D"), hand("4D 5D 6D"))) == (hand("AD 2D 3D 4D 5D 6D"),)


def test_oracle_layoff_worked_example() -> None:
    knocker = [hand("6H 7H 8H"), hand("9C 9S 9D"), hand("2S 3S 4S")]
    defender = hand("2H 3H 4H QC QD QH QS 9H 7S AC")
    assert oracle.oracle_layoff(defender, knocker) == (8, 1)


def test_oracle_layoff_hand_checked() -> None:
    run = [hand("6H 7H 8H")]
    assert oracle.oracle_layoff(hand("9H 10H JH"), run) == (0, 0)  # own run beats laying off
    assert oracle.oracle_layoff(hand("9H 10H KD"), run) == (10, 2)
    assert oracle.oracle_layoff(hand("5H 9H"), run) == (0, 2)
    assert oracle.oracle_layoff(hand("4H 9H"), run) == (4, 1)  # 4H does not touch 6-7-8
    assert oracle.oracle_layoff(hand("7S"), [hand("7C 7D 7H")]) == (0, 1)
    assert oracle.oracle_layoff(hand("7S"), [hand("8C 8D 8H")]) == (7, 0)
    # The fourth card laid onto a set does not start a run.
    assert oracle.oracle_layoff(hand("7S 8S"), [hand("7C 7D 7H")]) == (8, 1)
    # A card laid onto a run may also be the fourth of a set; on the run it starts a chain.
    assert oracle.oracle_layoff(hand("5S 4S"), [hand("5C 5D 5H"), hand("6S 7S 8S")]) == (0, 2)


def test_oracle_matches_meld_subset_search(rng: np.random.Generator) -> None:
    for _ in range(300):
        size = int(rng.integers(0, 11))
        mask = oracle.dense_hand(rng, size) if rng.random() < 0.7 else int(
            oracle.random_hands(rng, 1, size)[0]
        )
        assert oracle.oracle_deadwood(mask) == subsets_naive_deadwood(mask), text(mask)


def test_oracle_arrangements_are_optimal_partitions(rng: np.random.Generator) -> None:
    for _ in range(300):
        mask = oracle.dense_hand(rng, int(rng.integers(3, 13)))
        arrangements = oracle.oracle_arrangements(mask)
        target = oracle.oracle_deadwood(mask)
        assert arrangements == sorted(set(arrangements))
        for melds in arrangements:
            covered = 0
            for meld in melds:
                assert is_meld(meld) and meld & mask == meld and not meld & covered
                covered |= meld
            assert mask_value(mask & ~covered) == target


def test_oracle_layoff_matches_subset_search(rng: np.random.Generator) -> None:
    deals = []
    for case in range(250):
        if case % 2:  # a full deal: 10 cards each out of a meld-dense pool
            cards = oracle.dense_hand(rng, 20)
            knocker = oracle.random_subset(rng, cards, 10)
            defender = cards & ~knocker
        else:
            cards = oracle.dense_hand(rng, 16)
            knocker = oracle.random_subset(rng, cards, 8)
            defender = oracle.random_subset(rng, cards & ~knocker, int(rng.integers(1, 9)))
        deals.append((defender, oracle.random_arrangement(rng, knocker)))
    deals += [oracle.chain_deal(rng) for _ in range(10)]  # the sweeps' hardest deals, for the oracle too
    for defender, melds in deals:
        assert oracle.oracle_layoff(defender, melds) == naive_layoff(defender, melds), (
            text(defender),
            [text(m) for m in melds],
        )


def test_oracle_feasibility_matches_table_simulation(rng: np.random.Generator) -> None:
    for _ in range(300):
        cards = oracle.dense_hand(rng, 18)
        knocker = oracle.random_subset(rng, cards, 9)
        melds = oracle.random_arrangement(rng, knocker)
        laid = oracle.random_subset(rng, cards & ~knocker, int(rng.integers(0, 6)))
        expected = attach_in_some_order(melds, laid)
        assert oracle.KnockerMelds(melds).is_feasible(laid) == expected


# ---------------------------------------------------------------------------------------------
# Sweeps: the solver against the oracle


def check_hands(gincore, hands: np.ndarray, with_discards: bool) -> None:
    """Compare deadwood, deadwood_many, arrangements (and the discard functions) on ``hands``."""
    fmt = gincore.format_cards
    total = len(hands)
    dw_bad = Mismatches("deadwood", fmt)
    many_bad = Mismatches("deadwood_many", fmt)
    arr_bad = Mismatches("arrangements", fmt)
    after_bad = Mismatches("deadwood_after_discard", fmt)
    best_bad = Mismatches("best_discards_many", fmt)

    batch = gincore.deadwood_many(hands)
    assert isinstance(batch, np.ndarray) and batch.dtype == np.int16 and batch.shape == hands.shape
    if with_discards:
        best_values, best_masks = gincore.best_discards_many(hands)
        assert best_values.dtype == np.int16 and best_values.shape == hands.shape
        assert best_masks.dtype == np.uint64 and best_masks.shape == hands.shape

    for position, raw in enumerate(hands):
        mask = int(raw)
        memo: dict[int, int] = {}
        expected = oracle.oracle_deadwood(mask, memo)
        got = gincore.deadwood(mask)
        if got != expected:
            dw_bad.add(mask, got, expected)
        if int(batch[position]) != expected:
            many_bad.add(mask, int(batch[position]), expected)

        expected_arrangements = oracle.oracle_arrangements(mask)
        got_arrangements = gincore.arrangements(mask)
        if [tuple(map(int, melds)) for melds in got_arrangements] != expected_arrangements:
            arr_bad.add(
                mask,
                [meld_text(melds, fmt) for melds in got_arrangements],
                [meld_text(melds, fmt) for melds in expected_arrangements],
            )

        if with_discards:
            expected_after = {
                index: oracle.oracle_deadwood(mask & ~(1 << index), memo)
                for index in cards_of(mask)
            }
            got_after = gincore.deadwood_after_discard(mask)
            if {int(k): int(v) for k, v in got_after.items()} != expected_after:
                after_bad.add(mask, got_after, expected_after)
            best = min(expected_after.values())
            best_mask = sum(1 << i for i, dw in expected_after.items() if dw == best)
            got_best = (int(best_values[position]), int(best_masks[position]))
            if got_best != (best, best_mask):
                best_bad.add(
                    mask,
                    (got_best[0], fmt(got_best[1])),
                    (best, fmt(best_mask)),
                )

    for mismatches in (dw_bad, many_bad, arr_bad, after_bad, best_bad):
        mismatches.check(total)


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_10_card_hands(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    hands = oracle.random_hands(rng, RANDOM_PER_CHUNK[full], 10)
    check_hands(gincore, hands, with_discards=False)


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_11_card_hands(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    hands = oracle.random_hands(rng, RANDOM_PER_CHUNK[full], 11)
    check_hands(gincore, hands, with_discards=True)


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_meld_dense_hands(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    size = 10 if chunk % 2 == 0 else 11
    hands = oracle.dense_hands(rng, DENSE_PER_CHUNK[full], size)
    check_hands(gincore, hands, with_discards=(size == 11))


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_crossing_melds_in_knock_range(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    size = 10 if chunk % 2 == 0 else 11
    hands = oracle.crossing_hands(rng, CROSSING_PER_CHUNK[full], size)
    check_hands(gincore, hands, with_discards=(size == 11))


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
def test_small_hands(gincore, rng: np.random.Generator, size: int) -> None:
    hands = np.concatenate([oracle.random_hands(rng, 300, size), oracle.dense_hands(rng, 300, size),
                            oracle.crossing_hands(rng, 200, size)])
    check_hands(gincore, hands, with_discards=size > 0)


def check_layoffs(gincore, deals: list[tuple[int, list[int]]]) -> None:
    fmt = gincore.format_cards
    bad = Mismatches("layoff", fmt)
    for defender, melds in deals:
        expected_deadwood, expected_count = oracle.oracle_layoff(defender, melds)
        got_deadwood, laid = gincore.layoff(defender, melds)
        got_deadwood, laid = int(got_deadwood), int(laid)
        knocker = oracle.KnockerMelds(melds)
        problems = []
        if got_deadwood != expected_deadwood:
            problems.append(f"deadwood {got_deadwood} != {expected_deadwood}")
        if laid & ~defender:
            problems.append("laid off cards outside the defender's hand")
        elif not knocker.is_feasible(laid):
            problems.append("laid-off cards cannot all be attached")
        elif oracle.oracle_deadwood(defender & ~laid) != got_deadwood:
            problems.append(
                f"the rest of the hand has deadwood {oracle.oracle_deadwood(defender & ~laid)}"
            )
        elif popcount(laid) != expected_count and got_deadwood == expected_deadwood:
            problems.append(f"{popcount(laid)} cards laid off, fewest is {expected_count}")
        if problems:
            bad.add(
                defender,
                (got_deadwood, fmt(laid)),
                (expected_deadwood, expected_count),
                "; ".join(problems) + f"; knocker melds {meld_text(melds, fmt)}",
            )
    bad.check(len(deals))


def knocker_and_defender(rng: np.random.Generator, both: int) -> tuple[int, list[int]]:
    """Ten of the 20 cards ``both`` to the knocker, showing one of its arrangements; the rest defend."""
    knocker = oracle.random_subset(rng, both, 10)
    return both & ~knocker, oracle.random_arrangement(rng, knocker)


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_layoff_random_deals(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    deals = [knocker_and_defender(rng, int(oracle.random_hands(rng, 1, 20)[0]))
             for _ in range(LAYOFF_PER_CHUNK[full])]
    check_layoffs(gincore, deals)


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_layoff_meld_dense_deals(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    deals = [knocker_and_defender(rng, oracle.dense_hand(rng, 20)) for _ in range(LAYOFF_PER_CHUNK[full])]
    check_layoffs(gincore, deals)


@pytest.mark.oracle
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_layoff_chains(gincore, rng: np.random.Generator, full: bool, chunk: int) -> None:
    """Defenders holding chains onto the knocker's runs, fourth cards of its sets, own melds through both."""
    check_layoffs(gincore, [oracle.chain_deal(rng) for _ in range(LAYOFF_PER_CHUNK[full])])


@pytest.mark.parametrize("size", range(12, 21))
def test_big_hands_against_oracle(gincore, melds_module, rng: np.random.Generator, size: int):
    hands = np.concatenate([oracle.random_hands(rng, 300, size), oracle.dense_hands(rng, 150, size),
                            oracle.crossing_hands(rng, 100, size)])
    fmt = gincore.format_cards
    dw_bad = Mismatches(f"deadwood ({size} cards)", fmt)
    dp_bad = Mismatches(f"_melds.deadwood_dp ({size} cards)", fmt)
    many_bad = Mismatches(f"deadwood_many ({size} cards)", fmt)
    batch = gincore.deadwood_many(hands)
    for position, raw in enumerate(hands):
        mask = int(raw)
        expected = oracle.oracle_deadwood(mask)
        if gincore.deadwood(mask) != expected:
            dw_bad.add(mask, gincore.deadwood(mask), expected)
        if melds_module.deadwood_dp(mask) != expected:
            dp_bad.add(mask, melds_module.deadwood_dp(mask), expected)
        if int(batch[position]) != expected:
            many_bad.add(mask, int(batch[position]), expected)
    for mismatches in (dw_bad, dp_bad, many_bad):
        mismatches.check(len(hands))


@pytest.mark.parametrize("size", [12, 13, 14])
def test_big_hand_arrangements_against_oracle(gincore, rng: np.random.Generator, size: int):
    hands = np.concatenate(
        [oracle.random_hands(rng, 200, size), oracle.dense_hands(rng, 200, size)]
    )
    check_hands(gincore, hands, with_discards=False)


def test_dp_on_small_hands_against_oracle(gincore, melds_module, rng: np.random.Generator):
    """The dynamic programme is the general path: it must also be exact on small hands."""
    fmt = gincore.format_cards
    bad = Mismatches("_melds.deadwood_dp (0..11 cards)", fmt)
    total = 0
    for size in range(12):
        for raw in np.concatenate(
            [oracle.random_hands(rng, 400, size), oracle.dense_hands(rng, 400, size)]
        ):
            mask = int(raw)
            total += 1
            expected = oracle.oracle_deadwood(mask)
            got = melds_module.deadwood_dp(mask)
            if got != expected:
                bad.add(mask, got, expected)
    bad.check(total)


@pytest.mark.parametrize("low", [21, 29, 37, 45])
def test_dp_against_deadwood_on_huge_hands(gincore, melds_module, rng, low: int) -> None:
    fmt = gincore.format_cards
    bad = Mismatches(f"deadwood_dp vs deadwood ({low}..{low + 7} cards)", fmt)
    many_bad = Mismatches(f"deadwood_many vs deadwood ({low}..{low + 7} cards)", fmt)
    hands = np.concatenate(
        [oracle.random_hands(rng, 100, size) for size in range(low, min(low + 8, 53))]
    )
    batch = gincore.deadwood_many(hands)
    for position, raw in enumerate(hands):
        mask = int(raw)
        expected = gincore.deadwood(mask)
        got = melds_module.deadwood_dp(mask)
        if got != expected:
            bad.add(mask, got, expected)
        if int(batch[position]) != expected:
            many_bad.add(mask, int(batch[position]), expected)
    bad.check(len(hands))
    many_bad.check(len(hands))


def test_huge_hands_known_values(gincore, melds_module) -> None:
    for function in (gincore.deadwood, melds_module.deadwood_dp):
        assert function(FULL_DECK) == 0
        # Three suits complete, or two, or one: every card is in a run of its suit.
        assert function(FULL_DECK & ~hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")) == 0
        # The full deck less one card still melds completely (three-card sets everywhere).
        for index in (0, 1, 6, 12, 25, 32, 51):
            assert function(FULL_DECK & ~(1 << index)) == 0
        # Every rank of two suits: two full runs.
        assert function(hand(" ".join(f"{r}{s}" for r in RANK_NAMES for s in "CH"))) == 0
        # One card of each rank in a staircase of suits: nothing melds.
        stair = sum(1 << ((rank % 4) * 13 + rank) for rank in range(13))
        assert function(stair) == mask_value(stair)
        # Only kings and queens of all four suits, plus lone aces of clubs and spades.
        assert function(hand("QC QD QH QS KC KD KH KS AC AS")) == 2
    assert list(gincore.deadwood_many(np.array([FULL_DECK, 0], dtype=np.uint64))) == [0, 0]
