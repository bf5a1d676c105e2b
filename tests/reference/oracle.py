"""Brute-force reference implementation of the Gin Rummy hand rules (docs/rules.md#cards-and-values,
docs/rules.md#melds-and-deadwood, docs/rules.md#lay-offs).

Deliberately independent of ``gincore``: it knows nothing about rank tables, set choices or
run blocks. It enumerates every meld contained in a hand — every 3-card and 4-card set and every
run of every length >= 3 as a separate meld — and searches disjoint collections of them. The
search is a memoised depth-first search on the mask of cards not yet placed: the lowest card of
that mask is either deadwood or belongs to one of the melds whose lowest card it is. Every
partition of a hand into melds and deadwood is reached along exactly one path of that search.

Cards, card text and meld shapes come from ``cards`` (card index = suit * 13 + rank; a hand is an
``int`` bit mask).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from .cards import FULL_DECK, VALUES, cards_of, is_meld, is_set, mask_value, popcount, text

# Bit masks of the aces and of the kings of all four suits: a shift by one rank must never
# carry a card from one suit into the next.
_ACES = sum(1 << (13 * suit) for suit in range(4))
_KINGS = sum(1 << (13 * suit + 12) for suit in range(4))


def _build_meld_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each card, the runs (shortest first) and the sets whose lowest card it is."""
    runs_from: list[tuple[int, ...]] = []
    sets_from: list[tuple[int, ...]] = []
    for index in range(52):
        suit, rank = divmod(index, 13)
        runs = tuple(((1 << length) - 1) << index for length in range(3, 14 - rank))
        higher_suits = [rank + 13 * other for other in range(suit + 1, 4)]
        sets = []
        for size in (2, 3):
            for others in combinations(higher_suits, size):
                sets.append((1 << index) | sum(1 << card for card in others))
        runs_from.append(runs)
        sets_from.append(tuple(sets))
    return tuple(runs_from), tuple(sets_from)


RUNS_FROM, SETS_FROM = _build_meld_tables()


# ---------------------------------------------------------------------------------------------
# Melds


def melds_in(mask: int) -> list[int]:
    """Every meld (set of 3 or 4, run of any length >= 3) whose cards are all in ``mask``."""
    found = []
    rest = mask
    while rest:
        low = rest & -rest
        index = low.bit_length() - 1
        rest ^= low
        for run in RUNS_FROM[index]:
            if run & mask != run:
                break  # a longer run from the same card contains this one
            found.append(run)
        for meld in SETS_FROM[index]:
            if meld & mask == meld:
                found.append(meld)
    return found


def _meldable(mask: int) -> int:
    union = 0
    for meld in melds_in(mask):
        union |= meld
    return union


# ---------------------------------------------------------------------------------------------
# Deadwood


def _min_deadwood(rem: int, memo: dict[int, int]) -> int:
    if not rem:
        return 0
    known = memo.get(rem)
    if known is not None:
        return known
    low = rem & -rem
    index = low.bit_length() - 1
    best = VALUES[index] + _min_deadwood(rem ^ low, memo)
    if best:
        for run in RUNS_FROM[index]:
            if run & rem != run:
                break
            candidate = _min_deadwood(rem ^ run, memo)
            if candidate < best:
                best = candidate
        for meld in SETS_FROM[index]:
            if meld & rem == meld:
                candidate = _min_deadwood(rem ^ meld, memo)
                if candidate < best:
                    best = candidate
    memo[rem] = best
    return best


def _check_mask(mask: int) -> None:
    if not 0 <= mask <= FULL_DECK:
        raise ValueError(f"not a hand mask: {mask:#x}")


def oracle_deadwood(mask: int, memo: dict[int, int] | None = None) -> int:
    """Minimum deadwood of ``mask``. ``memo`` may be shared between calls (it is keyed by mask)."""
    mask = int(mask)
    _check_mask(mask)
    meldable = _meldable(mask)
    if memo is None:
        memo = {}
    return mask_value(mask & ~meldable) + _min_deadwood(meldable, memo)


def oracle_deadwood_after_discard(mask: int) -> dict[int, int]:
    mask = int(mask)
    memo: dict[int, int] = {}
    return {index: oracle_deadwood(mask & ~(1 << index), memo) for index in cards_of(mask)}


def oracle_best_discard(mask: int) -> tuple[int, int]:
    """(minimum deadwood after one discard, mask of every card whose discard reaches it)."""
    after = oracle_deadwood_after_discard(mask)
    best = min(after.values())
    chosen = 0
    for index, deadwood in after.items():
        if deadwood == best:
            chosen |= 1 << index
    return best, chosen


# ---------------------------------------------------------------------------------------------
# Arrangements


def _optimal_partitions(
    rem: int, memo: dict[int, int], cache: dict[int, list[tuple[int, ...]]]
) -> list[tuple[int, ...]]:
    """Every collection of disjoint melds of ``rem`` whose leftover has the minimum value."""
    if not rem:
        return [()]
    known = cache.get(rem)
    if known is not None:
        return known
    target = _min_deadwood(rem, memo)
    low = rem & -rem
    index = low.bit_length() - 1
    out: list[tuple[int, ...]] = []
    if VALUES[index] + _min_deadwood(rem ^ low, memo) == target:
        out.extend(_optimal_partitions(rem ^ low, memo, cache))
    choices = [run for run in RUNS_FROM[index] if run & rem == run]
    choices += [meld for meld in SETS_FROM[index] if meld & rem == meld]
    for meld in choices:
        if _min_deadwood(rem ^ meld, memo) == target:
            out.extend((meld,) + tail for tail in _optimal_partitions(rem ^ meld, memo, cache))
    cache[rem] = out
    return out


def normalise(melds: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Merge the runs of each suit into maximal blocks of consecutive ranks; sort the melds."""
    sets = [meld for meld in melds if is_set(meld)]
    in_runs = 0
    for meld in melds:
        if not is_set(meld):
            in_runs |= meld
    blocks = []
    for suit in range(4):
        bits = (in_runs >> (13 * suit)) & 0x1FFF
        while bits:
            start = (bits & -bits).bit_length() - 1
            length = 0
            while bits >> (start + length) & 1:
                length += 1
            block = ((1 << length) - 1) << start
            bits &= ~block
            blocks.append(block << (13 * suit))
    return tuple(sorted(sets + blocks))


def oracle_arrangements(mask: int) -> list[tuple[int, ...]]:
    """Every minimum-deadwood arrangement, normalised as the gincore contract describes."""
    mask = int(mask)
    _check_mask(mask)
    meldable = _meldable(mask)
    memo: dict[int, int] = {}
    partitions = _optimal_partitions(meldable, memo, {})
    return sorted({normalise(partition) for partition in partitions})


# ---------------------------------------------------------------------------------------------
# Lay-off (docs/rules.md#lay-offs)


def _shift_both_ways(mask: int) -> int:
    """Cards one rank above or below a card of ``mask`` in the same suit."""
    return ((mask << 1) & ~_ACES & FULL_DECK) | ((mask >> 1) & ~_KINGS)


class KnockerMelds:
    """The knocker's melds as the two things a defender can lay off onto."""

    def __init__(self, melds) -> None:
        self.run_cards = 0  # cards of the knocker's runs: lay-off chains grow from them
        self.set_fourths = 0  # the missing card of each knocker 3-set
        self.cards = 0
        for meld in melds:
            meld = int(meld)
            if not is_meld(meld):
                raise ValueError(f"not a meld: {text(meld)}")
            if meld & self.cards:
                raise ValueError("knocker melds overlap")
            self.cards |= meld
            if is_set(meld):
                if popcount(meld) == 3:
                    rank = cards_of(meld)[0] % 13
                    all_four = sum(1 << (rank + 13 * suit) for suit in range(4))
                    self.set_fourths |= all_four & ~meld
            else:
                self.run_cards |= meld

    def closure(self, loose: int) -> int:
        """The largest subset of ``loose`` that can be laid off (by some order of chains)."""
        laid = 0
        attached_to_runs = self.run_cards
        while True:
            grown = loose & ~laid & _shift_both_ways(attached_to_runs)
            if not grown:
                break
            laid |= grown
            attached_to_runs |= grown
        # A card laid off onto a set does not start a run, so it joins last.
        return laid | (loose & self.set_fourths)

    def is_feasible(self, laid_off: int) -> bool:
        """Whether every card of ``laid_off`` can be attached using only cards of ``laid_off``."""
        return self.closure(laid_off) == laid_off


def _meld_unions(rem: int, cache: dict[int, set[int]]) -> set[int]:
    """The union masks of every collection of disjoint melds inside ``rem``."""
    if not rem:
        return {0}
    known = cache.get(rem)
    if known is not None:
        return known
    low = rem & -rem
    index = low.bit_length() - 1
    out = set(_meld_unions(rem ^ low, cache))
    for run in RUNS_FROM[index]:
        if run & rem != run:
            break
        out.update(run | union for union in _meld_unions(rem ^ run, cache))
    for meld in SETS_FROM[index]:
        if meld & rem == meld:
            out.update(meld | union for union in _meld_unions(rem ^ meld, cache))
    cache[rem] = out
    return out


def oracle_layoff(defender: int, knocker_melds) -> tuple[int, int]:
    """(defender's minimum deadwood after own melds and lay-offs, fewest cards laid off at it).

    For a fixed choice of own melds, laying off a card always lowers the deadwood, so the best
    lay-off is the whole attachable closure of the loose cards, and any optimal solution with
    those own melds lays off exactly that closure. Both numbers therefore come from minimising
    (deadwood, cards laid off) over every collection of the defender's own disjoint melds.
    """
    defender = int(defender)
    _check_mask(defender)
    knocker = KnockerMelds(knocker_melds)
    if knocker.cards & defender:
        raise ValueError("knocker melds overlap the defender's hand")
    meldable = _meldable(defender)
    best = None
    for melded in _meld_unions(meldable, {}):
        loose = defender & ~melded
        laid = knocker.closure(loose)
        outcome = (mask_value(loose & ~laid), popcount(laid))
        if best is None or outcome < best:
            best = outcome
    return best


# ---------------------------------------------------------------------------------------------
# Random hands


def masks_from_indices(indices: np.ndarray) -> np.ndarray:
    """uint64 masks from an (n, k) array of distinct card indices per row."""
    bits = np.left_shift(np.uint64(1), indices.astype(np.uint64))
    return np.bitwise_or.reduce(bits, axis=1).astype(np.uint64)


def random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """``count`` uniformly random ``size``-card hands as a uint64 array."""
    if size == 0:
        return np.zeros(count, dtype=np.uint64)
    keys = rng.random((count, 52))
    indices = np.argpartition(keys, size - 1, axis=1)[:, :size]
    return masks_from_indices(indices)


def _dense_pool(rng: np.random.Generator) -> list[int]:
    """Cards of a few ranks and a few suits, where sets and runs cross each other."""
    style = rng.integers(4)
    if style == 0:  # 3-5 neighbouring ranks in all suits: 4444 5555 66..
        width = int(rng.integers(3, 6))
        suits = range(4)
    elif style == 1:  # long runs in one or two suits
        width = int(rng.integers(6, 11))
        suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
    elif style == 2:  # a window of ranks in 2-4 suits
        width = int(rng.integers(3, 8))
        suits = rng.choice(4, size=int(rng.integers(2, 5)), replace=False)
    else:  # ranks at the ends of the suit, where Q-K-A must not wrap
        width = int(rng.integers(3, 6))
        suits = rng.choice(4, size=int(rng.integers(2, 5)), replace=False)
        ranks = list(range(width)) + list(range(13 - width, 13))
        return sorted({int(s) * 13 + r for s in suits for r in ranks})
    start = int(rng.integers(0, 14 - width))
    return [int(s) * 13 + r for s in suits for r in range(start, start + width)]


def dense_hand(rng: np.random.Generator, size: int) -> int:
    """A meld-dense ``size``-card hand, sometimes with a few unrelated cards mixed in."""
    pool = _dense_pool(rng)
    strays = min(int(rng.integers(0, 3)), size) if rng.random() < 0.4 else 0
    from_pool = min(size - strays, len(pool))
    chosen = {int(c) for c in rng.choice(pool, size=from_pool, replace=False)}
    while len(chosen) < size:
        chosen.add(int(rng.integers(52)))
    mask = 0
    for index in chosen:
        mask |= 1 << index
    return mask


def dense_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    return np.array([dense_hand(rng, size) for _ in range(count)], dtype=np.uint64)


def random_subset(rng: np.random.Generator, mask: int, size: int) -> int:
    """``size`` random cards out of ``mask``."""
    chosen = rng.choice(cards_of(mask), size=size, replace=False)
    return sum(1 << int(index) for index in chosen)


def _meld_through(rng: np.random.Generator, index: int) -> int:
    """A random set (3 or 4 cards) of the card's rank or run (3 to 5 cards) of its suit holding it."""
    suit, rank = divmod(index, 13)
    if rng.random() < 0.5:
        others = rng.choice([13 * other + rank for other in range(4) if other != suit],
                            size=int(rng.integers(2, 4)), replace=False)
        return (1 << index) | sum(1 << int(card) for card in others)
    length = int(rng.integers(3, 6))
    start = int(rng.integers(max(0, rank - length + 1), min(rank, 13 - length) + 1))
    return ((1 << length) - 1) << (13 * suit + start)


def _neighbours(mask: int) -> int:
    """Cards next to a card of ``mask`` in rank (same suit) or of the same rank: near misses."""
    same_rank = 0
    for suit in range(4):
        same_rank |= (mask >> (13 * suit)) & 0x1FFF
    ranks = sum(same_rank << (13 * suit) for suit in range(4))
    return (ranks | _shift_both_ways(mask)) & ~mask & FULL_DECK


def crossing_hand(rng: np.random.Generator, size: int) -> int:
    """A hand of melds that share cards (a run through a set's rank, sets beside runs) topped up with near
    misses and low cards: the choice of melds decides the deadwood, and most of these hands are within
    knock range, where a wrong choice changes whether a player may knock."""
    mask = 0
    for _ in range(12):
        if popcount(mask) + 3 > size:
            break
        held = cards_of(mask)
        anchor = int(rng.choice(held)) if held and rng.random() < 0.75 else int(rng.integers(52))
        meld = _meld_through(rng, anchor)
        if popcount(mask | meld) <= size:
            mask |= meld
    while popcount(mask) < size:
        near = cards_of(_neighbours(mask))
        if near and rng.random() < 0.6:
            mask |= 1 << int(rng.choice(near))
        else:  # a low card: little deadwood, so the hand stays near the knock limit
            mask |= 1 << (13 * int(rng.integers(4)) + int(rng.integers(4)))
    return mask


def crossing_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    return np.array([crossing_hand(rng, size) for _ in range(count)], dtype=np.uint64)


def random_arrangement(rng: np.random.Generator, mask: int) -> list[int]:
    """One of the minimum-deadwood arrangements of ``mask``, at random (a knocker's shown melds)."""
    arrangements = oracle_arrangements(mask)
    return list(arrangements[int(rng.integers(len(arrangements)))])


def chain_deal(rng: np.random.Generator) -> tuple[int, list[int]]:
    """A defender's ten cards against a knocker's melds: cards that chain onto the knocker's runs or
    complete its sets, own melds through those same cards, near misses. Whether to lay a card off or
    keep it in an own meld, and in which order the chains grow, decides the result."""
    knocker = crossing_hand(rng, 10)
    melds = random_arrangement(rng, knocker)
    table = KnockerMelds(melds)
    reach, frontier = table.set_fourths & ~knocker, table.run_cards
    for _ in range(3):  # chains of up to three cards at either end of a run
        frontier = _shift_both_ways(frontier) & ~knocker
        reach |= frontier
    defender = random_subset(rng, reach, min(popcount(reach), int(rng.integers(3, 8))))
    for anchor in cards_of(defender)[: int(rng.integers(0, 3))]:  # own melds crossing the lay-offs
        meld = _meld_through(rng, anchor) & ~knocker
        if popcount(defender | meld) <= 10:
            defender |= meld
    while popcount(defender) < 10:
        near = cards_of(_neighbours(defender) & ~knocker)
        pool = near if near and rng.random() < 0.5 else cards_of(FULL_DECK & ~knocker & ~defender)
        defender |= 1 << int(rng.choice(pool))
    return defender, melds
