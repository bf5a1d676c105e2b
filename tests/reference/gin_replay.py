"""An independent replayer and checker of a traced hand (``ginsim.HandResult``).

``replay(result)`` starts again from ``result.deck`` and ``result.dealer`` and walks through
``result.events`` with its own model of the table (two hands, the stock, the discard pile). After every
event it checks that the 52 cards are all accounted for, that the event was legal under the rules from
docs/rules.md#the-deal to docs/rules.md#the-end-of-the-stock (whose turn it is, where a draw comes from,
what may be discarded, when a knock or gin is allowed, when the stock forces a reshuffle or a drawn
hand), and at the end it recomputes every record field from the trace and the rules and compares it
with what the engine reported.

Deadwood, arrangements and the optimal lay-off come from gincore's verified solver for every hand; with
``oracle=True`` they are recomputed as well by the brute-force functions of ``oracle`` (slower).
Everything else — the deal, the turn order, the knock limit and multiplier of the hand, the meld shapes,
whether a set of lay-offs can really be attached, the scoring — is written here from the rules text,
without calling the engine's helpers.

With ``strategies=True`` (the default) the documented behaviour of the deterministic parts of the
built-in strategies is checked as well (``simple``: takes a face-up card iff it melds, discards a
least-deadwood card among the pairs it has not played, goes out as soon as it can; ``greedy``: takes a
face-up card only if that lowers its deadwood after the best discard, discards a least-deadwood card of
the highest value, goes out as soon as it can); any other strategy is only held to the rules.

A failure raises ``ReplayError`` whose message names everything needed to reproduce the hand.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NoReturn

import gincore
from ginsim import EventKind, HandResult, Outcome, Rules

from . import oracle as brute
from .cards import FULL_DECK, card_text, card_value, cards_of, is_meld, is_set, mask_value, popcount, text

EVENT_KINDS = frozenset(EventKind)
OUTCOMES = frozenset(Outcome)


class Phase(StrEnum):
    """What may come next in a hand being replayed."""

    OFFER = "offer"
    """The upcard is offered to ``player``."""
    FIRST_DRAW = "first_draw"
    """Both refused the upcard: the non-dealer draws from the stock."""
    DRAW = "draw"
    """``player`` draws."""
    ACT = "act"
    """``player`` discards or goes out."""
    FLOOR = "floor"
    """The stock is at the floor: a reshuffle is due."""
    DRAWN = "drawn"
    """Only the end of a drawn hand may follow."""
    ENDED = "ended"


class ReplayError(AssertionError):
    """The engine's trace or record breaks a rule or disagrees with the replay."""


# --- cards and melds (the shape of a meld comes from ``cards``, written from docs/rules.md#melds-and-deadwood) ---


def bit(card: int) -> int:
    return 1 << card


def in_some_meld(hand: int, card: int) -> bool:
    """Whether ``card`` (held in ``hand``) belongs to at least one set or run made of ``hand``'s cards."""
    rank, suit = card % 13, card // 13
    if sum(1 for s in range(4) if hand >> (13 * s + rank) & 1) >= 3:
        return True
    low = rank
    while low > 0 and hand >> (13 * suit + low - 1) & 1:
        low -= 1
    high = rank
    while high < 12 and hand >> (13 * suit + high + 1) & 1:
        high += 1
    return high - low + 1 >= 3


def knock_limit_of(rules: Rules, upcard: int) -> int:
    """The plain limit, or under Oklahoma the upcard's rank (ace: the ace option):
    docs/rules.md#knock-gin-and-big-gin and docs/rules.md#oklahoma."""
    if not rules.oklahoma:
        return rules.knock_limit
    rank = upcard % 13
    if rank == 0:
        return rules.oklahoma_ace_limit
    return min(rank + 1, 10)


def multiplier_of(rules: Rules, upcard: int) -> int:
    """docs/rules.md#oklahoma: a spade upcard doubles every score of an Oklahoma hand (when spade_doubles)."""
    return 2 if rules.oklahoma and rules.spade_doubles and upcard // 13 == 3 else 1


def layoff_feasible(laid: int, knocker_melds: Iterable[int]) -> bool:
    """Whether every card of ``laid`` can be attached to the knocker's melds using only ``laid``.

    A card attaches to a knocker 3-set as its fourth card, or extends a knocker run at either end,
    possibly through other laid-off cards (chains). A card laid onto a set extends nothing.
    """
    runs = 0
    fourths = 0
    for meld in knocker_melds:
        if is_set(meld):
            if popcount(meld) == 3:
                rank = cards_of(meld)[0] % 13
                fourths |= sum(bit(13 * s + rank) for s in range(4)) & ~meld
        else:
            runs |= meld
    attached = 0
    frontier = runs
    while True:
        neighbours = 0
        for card in cards_of(frontier):
            rank = card % 13
            if rank > 0:
                neighbours |= bit(card - 1)
            if rank < 12:
                neighbours |= bit(card + 1)
        grown = neighbours & laid & ~attached
        if not grown:
            break
        attached |= grown
        frontier = grown
    attached |= laid & fourths
    return attached == laid


# --- the replay ---------------------------------------------------------------------------------------


@dataclass
class Replayed:
    """What the replay found; every field is compared with the engine's record."""

    outcome: Outcome = Outcome.DRAW
    winner: int = -1
    knocker: int = -1
    points: int = 0
    knocker_deadwood: int = -1
    defender_deadwood: int = -1
    laid_off: int = 0
    turns: int = 0
    upcard_taken_by: int = -1
    knock_limit: int = 0
    multiplier: int = 1
    reshuffles: int = 0
    final_hands: tuple[int, int] = (0, 0)
    stock_left: int = 0
    face_down: int = -1
    pile: list[int] = field(default_factory=list)


def describe(result: HandResult, index: int | None = None) -> str:
    """Everything needed to play the hand again."""
    defaults = Rules().to_dict()
    changed = {k: v for k, v in result.rules.to_dict().items() if defaults[k] != v}
    deck_text = " ".join(card_text(c) for c in result.deck)
    where = (f"seed={result.seed}, index={result.hand}" if result.seed is not None
             else f"deck=[{deck_text}], dealer={result.dealer}")
    return (f"rules=Rules().replace(**{changed!r}), players={result.players!r}, {where}"
            + (f" (deck top first: {deck_text}; dealer {result.dealer})" if result.seed is not None else "")
            + (f"; event #{index}" if index is not None else ""))


class _Table:
    """The replayer's own model of the table, and the failure report."""

    def __init__(self, result: HandResult) -> None:
        self.result = result
        self.players = result.players
        self.hands = [0, 0]
        self.stock: list[int] = []      # top first; in no known order after a reshuffle
        self.stock_mask = 0
        self.stock_ordered = True
        self.pile: list[int] = []       # bottom first
        self.pile_mask = 0
        self.face_down = -1
        self.pairs: list[set[tuple[int, int]]] = [set(), set()]  # simple's (drawn, discarded) pairs
        self.event_index: int | None = None

    def fail(self, message: str) -> NoReturn:
        raise ReplayError(f"{message}\n  hand: {describe(self.result, self.event_index)}"
                          f"\n  trace:\n{_trace_text(self.result)}")

    def expect(self, condition: object, message: Callable[[], str]) -> None:
        """Fail with ``message()`` unless ``condition``; the message is only built on failure."""
        if not condition:
            self.fail(message())

    def conserve(self) -> None:
        """All 52 cards are in exactly one place: the two hands, the stock, the pile, face down.

        Five masks whose sizes add up to 52 and whose union is the whole deck cannot overlap; the
        stock and pile lists must hold as many cards as their masks (no card twice).
        """
        face_down = bit(self.face_down) if self.face_down >= 0 else 0
        hand0, hand1 = self.hands
        stock, pile = len(self.stock), len(self.pile)
        union = hand0 | hand1 | self.stock_mask | self.pile_mask | face_down
        if (union != FULL_DECK or hand0.bit_count() + hand1.bit_count() + stock + pile + (face_down > 0) != 52
                or stock != self.stock_mask.bit_count() or pile != self.pile_mask.bit_count()):
            self.fail(f"cards are lost or doubled: missing {text(FULL_DECK & ~union)}; the hands hold "
                      f"{hand0.bit_count()} and {hand1.bit_count()} cards, the stock {stock} "
                      f"({self.stock_mask.bit_count()} distinct), the pile {pile} "
                      f"({self.pile_mask.bit_count()} distinct), face down {face_down.bit_count()}")

    def draw_stock(self, card: int) -> None:
        if self.stock_ordered:
            if card != self.stock[0]:
                self.fail(f"drew {card_text(card)} from the stock, whose top card is "
                          f"{card_text(self.stock[0])}")
            self.stock.pop(0)
        else:
            if not self.stock_mask >> card & 1:
                self.fail(f"drew {card_text(card)}, which is not in the reshuffled stock")
            self.stock.remove(card)
        self.stock_mask &= ~bit(card)

    def draw_pile(self, card: int) -> None:
        if not self.pile or self.pile[-1] != card:
            top = card_text(self.pile[-1]) if self.pile else "nothing"
            self.fail(f"took {card_text(card)} from the discard pile, whose top card is {top}")
        self.pile.pop()
        self.pile_mask &= ~bit(card)

    def discard(self, card: int) -> None:
        self.pile.append(card)
        self.pile_mask |= bit(card)

    def reshuffle(self) -> None:
        """The pile but its top card joins the stock, in an order the trace does not show."""
        under = self.pile[:-1]
        self.stock = self.stock + under
        self.stock_mask |= self.pile_mask & ~bit(self.pile[-1])
        self.stock_ordered = False
        self.pile = self.pile[-1:]
        self.pile_mask = bit(self.pile[0])


def _trace_text(result: HandResult) -> str:
    try:
        return result.to_text()
    except Exception as error:  # the report must not hide the failure behind another one
        return f"(to_text failed: {error!r}); events: {list(result.events)}"


def _deadwood_after(hand: int) -> dict[int, int]:
    return gincore.deadwood_after_discard(hand)


def replay(result: HandResult, *, oracle: bool = False, strategies: bool = True,
           deck: Sequence[int] | None = None, dealer: int | None = None) -> Replayed:
    """Replay ``result`` from its deal, checking every step and every record field.

    ``deck``/``dealer``: the deal the hand was asked to play (checked against ``result``).
    ``oracle``: also recompute deadwood, arrangements and the lay-off with the brute-force ``oracle``.
    ``strategies``: also hold ``simple`` and ``greedy`` to their documented choices.
    Returns what the replay found; raises ``ReplayError`` at the first disagreement.
    """
    table = _Table(result)
    rules = result.rules
    expect = table.expect

    # --- the deal (docs/rules.md#the-deal) ---
    order = [int(c) for c in result.deck]
    expect(sorted(order) == list(range(52)), lambda: f"the deck is not the 52 cards once each: {order}")
    if deck is not None:
        expect(order == list(deck), lambda: f"the hand was not dealt from the given deck {list(deck)}")
    if dealer is not None:
        expect(result.dealer == dealer, lambda: f"dealer {result.dealer}, asked for {dealer}")
    expect(result.dealer in (0, 1), lambda: f"dealer {result.dealer}")
    dealer_seat = result.dealer
    non_dealer = 1 - dealer_seat
    for i in range(20):
        table.hands[non_dealer if i % 2 == 0 else dealer_seat] |= bit(order[i])
    expect(tuple(table.hands) == tuple(result.dealt),
           lambda: f"dealt {text(result.dealt[0])} / {text(result.dealt[1])}, the deck gives "
           f"{text(table.hands[0])} / {text(table.hands[1])}")
    upcard = order[20]
    table.discard(upcard)
    table.stock = order[21:]
    table.stock_mask = sum(bit(c) for c in table.stock)
    table.conserve()
    expect(result.upcard == upcard, lambda: f"upcard {result.upcard}, deck[20] is {upcard}")
    limit = knock_limit_of(rules, upcard)
    multiplier = multiplier_of(rules, upcard)
    floor = rules.stock_floor
    max_reshuffles = rules.max_reshuffles if rules.exhaustion == "reshuffle" else 0
    found = Replayed(knock_limit=limit, multiplier=multiplier)
    # Only simple and greedy have fully described choices; any other strategy is held to the rules.
    checks_choices = [strategies and name in ("simple", "greedy") for name in result.players]

    # --- the events ---
    phase = Phase.OFFER
    player = non_dealer
    just_taken = -1   # the card taken from the pile this turn: it may not be discarded
    drawn = -1        # the card drawn this turn, from wherever
    end_kind: EventKind | None = None
    events = list(result.events)
    for index, event in enumerate(events):
        table.event_index = index
        kind, who, card = event.kind, event.player, event.card
        if kind not in EVENT_KINDS:
            table.fail(f"unknown event kind {kind!r}")
        if phase is Phase.ENDED:
            table.fail(f"{event} after the end of the hand")

        if phase is Phase.OFFER:
            if not (kind in (EventKind.TAKE_UPCARD, EventKind.PASS_UPCARD) and who == player and card == upcard):
                table.fail(f"the upcard {card_text(upcard)} is offered to player {player} now "
                           f"(non-dealer first, docs/rules.md#the-upcard-offer), got {event}")
            if checks_choices[who]:
                _check_take_choice(table, who, card, kind == EventKind.TAKE_UPCARD)
            if kind == EventKind.PASS_UPCARD:
                if who == non_dealer:
                    player = dealer_seat
                else:
                    phase = Phase.FIRST_DRAW
                    player = non_dealer
                continue
            table.draw_pile(card)
            table.hands[who] |= bit(card)
            found.upcard_taken_by = who
            found.turns += 1
            just_taken = drawn = card
            phase = Phase.ACT
            table.conserve()
            continue

        if phase is Phase.FIRST_DRAW:
            if not (kind == EventKind.DRAW_STOCK and who == non_dealer):
                table.fail(f"both refused the upcard: the non-dealer (player {non_dealer}) draws from the "
                           f"stock (docs/rules.md#the-upcard-offer), got {event}")
            phase = Phase.DRAW

        if phase is Phase.DRAW:
            if not (who == player and kind in (EventKind.DRAW_STOCK, EventKind.DRAW_DISCARD)):
                table.fail(f"player {player} is to draw, got {event}")
            if kind == EventKind.DRAW_STOCK:
                if len(table.stock) <= floor:
                    table.fail(f"a draw from a stock of {len(table.stock)} cards (floor {floor})")
                # The player refused the pile top (the offer has been checked already).
                if checks_choices[who] and index > 0 and events[index - 1].kind != EventKind.PASS_UPCARD:
                    _check_take_choice(table, who, table.pile[-1], False)
                table.draw_stock(card)
                just_taken = -1
            else:
                if checks_choices[who]:
                    _check_take_choice(table, who, card, True)
                table.draw_pile(card)
                just_taken = card
            table.hands[who] |= bit(card)
            drawn = card
            found.turns += 1
            phase = Phase.ACT
            table.conserve()
            continue

        if phase is Phase.ACT:
            hand = table.hands[who] if who in (0, 1) else 0
            if not (who == player and kind in (EventKind.DISCARD, EventKind.KNOCK, EventKind.GIN, EventKind.BIG_GIN)):
                table.fail(f"player {player} is to discard or go out, got {event}")
            if popcount(hand) != 11:
                table.fail(f"player {who} holds {popcount(hand)} cards before discarding")
            # Big gin needs all eleven cards melded; under big gin rules simple and greedy always take it.
            big_gin_matters = rules.big_gin_bonus is not None or kind == EventKind.BIG_GIN
            eleven_deadwood = gincore.deadwood(hand) if big_gin_matters else -1
            if kind == EventKind.BIG_GIN:
                if rules.big_gin_bonus is None:
                    table.fail("big gin without big_gin_bonus in the rules")
                if card != -1:
                    table.fail(f"big gin has no discard, got {event}")
                if eleven_deadwood != 0:
                    table.fail(f"big gin with 11 cards of deadwood {eleven_deadwood}")
                end_kind = kind
                phase = Phase.ENDED
                table.conserve()
                continue
            if checks_choices[who] and rules.big_gin_bonus is not None and eleven_deadwood == 0:
                table.fail(f"{table.players[who]} holds 11 melded cards under big gin rules and does not "
                           f"go big gin: {event}")
            if not (card >= 0 and hand >> card & 1):
                table.fail(f"{event}: the card is not in the hand {text(hand)}")
            if card == just_taken:
                table.fail(f"{event}: the card just taken from the discard pile is discarded in the same "
                           f"turn (docs/rules.md#a-turn)")
            if checks_choices[who]:
                _check_discard_choice(table, who, hand, drawn, just_taken, card)
            table.hands[who] = hand & ~bit(card)
            after = gincore.deadwood(table.hands[who])
            if kind == EventKind.DISCARD:
                if checks_choices[who]:
                    if after <= limit:
                        table.fail(f"{table.players[who]} could go out (deadwood {after} <= "
                                   f"limit {limit}) but discards: {event}")
                table.discard(card)
                table.conserve()
                if len(table.stock) <= floor:
                    phase = Phase.FLOOR if found.reshuffles < max_reshuffles and len(table.pile) > 1 else Phase.DRAWN
                else:
                    phase = Phase.DRAW
                    player = 1 - who
                continue
            # knock or gin: the discard goes face down (docs/rules.md#knock-gin-and-big-gin)
            if kind == EventKind.GIN:
                if after != 0:
                    table.fail(f"gin with deadwood {after}")
            else:
                if after == 0:
                    table.fail("a knock with deadwood 0 must be declared gin (docs/rules.md#knock-gin-and-big-gin)")
                if after > limit:
                    table.fail(f"a knock with deadwood {after} above the hand's limit {limit}")
            table.face_down = card
            table.conserve()
            end_kind = kind
            phase = Phase.ENDED
            continue

        if phase is Phase.FLOOR:
            if not (kind == EventKind.RESHUFFLE and who == -1 and card == -1):
                table.fail(f"the stock is at {len(table.stock)} cards (floor {floor}) after "
                           f"{found.reshuffles} of {max_reshuffles} reshuffles: a reshuffle is due "
                           f"(docs/rules.md#the-end-of-the-stock), got {event}")
            table.reshuffle()
            found.reshuffles += 1
            table.conserve()
            if len(table.stock) > floor:
                phase = Phase.DRAW
                player = 1 - player
            else:
                phase = Phase.DRAWN
            continue

        if phase is Phase.DRAWN:
            if not (kind == EventKind.DRAWN and who == -1 and card == -1):
                table.fail(f"the stock is at {len(table.stock)} cards (floor {floor}) with no reshuffle "
                           f"left: the hand is drawn (docs/rules.md#the-end-of-the-stock), got {event}")
            end_kind = EventKind.DRAWN
            phase = Phase.ENDED
            continue

        table.fail(f"unexpected {event} in phase {phase}")

    table.event_index = None
    expect(phase is Phase.ENDED,
           lambda: f"the trace stops before the end of the hand (phase {phase}) after {len(events)} "
           f"events and {found.turns} draws; the record says {result.turns} draws and outcome "
           f"{result.outcome!r}")
    found.final_hands = (table.hands[0], table.hands[1])
    found.stock_left = len(table.stock)
    found.face_down = table.face_down
    found.pile = list(table.pile)

    _score(table, found, end_kind, player, oracle)
    _compare(table, found)
    return found


def _check_take_choice(table: _Table, who: int, card: int, took: bool) -> None:
    """The documented face-up choice of ``simple`` and ``greedy``."""
    name = table.players[who]
    hand = table.hands[who]
    if name == "simple":
        wanted = in_some_meld(hand | bit(card), card)
        table.expect(took == wanted,
                     lambda: f"simple {'takes' if took else 'refuses'} {card_text(card)} with "
                     f"{text(hand)}: it should take a face-up card iff it melds ({wanted})")
    elif name == "greedy" and took:
        # "Takes a face-up card only if it lowers the deadwood after the best discard": a necessary
        # condition only (the engine may refuse more, e.g. a card it discarded itself).
        after = _deadwood_after(hand | bit(card))
        best_other = min(v for c, v in after.items() if c != card)
        table.expect(best_other < gincore.deadwood(hand),
                     lambda: f"greedy takes {card_text(card)} with {text(hand)}, which does not "
                     f"lower its deadwood: best after a discard {best_other}, now {gincore.deadwood(hand)}")


def _check_discard_choice(table: _Table, who: int, hand: int, drawn: int, just_taken: int,
                          card: int) -> None:
    """The documented discard of ``simple`` and ``greedy`` (11 cards in ``hand``)."""
    name = table.players[who]
    after = _deadwood_after(hand)
    candidates = [c for c in after if c != just_taken]
    if name == "simple":
        fresh = [c for c in candidates if (drawn, c) not in table.pairs[who]]
        pool = fresh or candidates
        least = min(after[c] for c in pool)
        table.expect(card in pool and after[card] == least,
                     lambda: f"simple discards {card_text(card)} (deadwood then {after[card]}) from "
                     f"{text(hand)} after drawing {card_text(drawn)}; the least deadwood among its "
                     f"allowed discards {text(sum(bit(c) for c in pool))} is {least}")
        table.pairs[who].add((drawn, card))
    elif name == "greedy":
        least = min(after[c] for c in candidates)
        best = [c for c in candidates if after[c] == least]
        top_value = max(card_value(c) for c in best)
        table.expect(after[card] == least and card_value(card) == top_value,
                     lambda: f"greedy discards {card_text(card)} (deadwood then {after[card]}) from "
                     f"{text(hand)}; least deadwood {least} with {text(sum(bit(c) for c in best))}, "
                     f"highest value {top_value}")


def _check_melds(table: _Table, melds: tuple[int, ...], within: int, what: str) -> int:
    """Melds are real, disjoint and inside ``within``; returns the cards they cover."""
    covered = 0
    for meld in melds:
        # The messages are built only on failure, for this meld: bind it (and what it covers) now.
        table.expect(is_meld(meld), lambda meld=meld: f"{what}: {text(meld)} is not a set or a run")
        table.expect(not meld & covered,
                     lambda meld=meld, covered=covered: f"{what}: melds overlap at {text(meld & covered)}")
        table.expect(meld & ~within == 0,
                     lambda meld=meld: f"{what}: {text(meld)} uses cards not held ({text(within)})")
        covered |= meld
    return covered


def _score(table: _Table, found: Replayed, end_kind: EventKind | None, last_player: int, oracle: bool) -> None:
    """docs/rules.md#the-showdown and docs/rules.md#scoring-a-hand from the final hands."""
    result = table.result
    rules = result.rules
    expect = table.expect
    if end_kind == EventKind.DRAWN:
        found.outcome = Outcome.DRAW
        return
    knocker = last_player
    defender = 1 - knocker
    found.knocker = knocker
    knocker_hand = table.hands[knocker]
    defender_hand = table.hands[defender]
    expect(popcount(defender_hand) == 10, lambda: f"the defender holds {popcount(defender_hand)} cards")
    expect(popcount(knocker_hand) == (11 if end_kind == EventKind.BIG_GIN else 10),
           lambda: f"the knocker holds {popcount(knocker_hand)} cards after {end_kind}")
    knocker_deadwood = gincore.deadwood(knocker_hand)
    found.knocker_deadwood = knocker_deadwood

    # The shown melds: a minimum-deadwood arrangement of the knocker's cards.
    melds = tuple(result.knocker_melds)
    covered = _check_melds(table, melds, knocker_hand, "the knocker's melds")
    expect(mask_value(knocker_hand & ~covered) == knocker_deadwood,
           lambda: f"the knocker's melds {[text(m) for m in melds]} leave "
           f"{mask_value(knocker_hand & ~covered)}, the hand's deadwood is {knocker_deadwood}")
    expect(tuple(sorted(melds)) in [tuple(sorted(a)) for a in gincore.arrangements(knocker_hand)],
           lambda: f"the knocker's melds {[text(m) for m in melds]} are not one of gincore.arrangements")
    if oracle:
        expect(brute.oracle_deadwood(knocker_hand) == knocker_deadwood,
               lambda: f"oracle deadwood {brute.oracle_deadwood(knocker_hand)} of the knocker's hand")
        expect(brute.normalise(melds) in brute.oracle_arrangements(knocker_hand),
               lambda: "the knocker's melds are not among the oracle's arrangements")

    multiplier = found.multiplier
    if end_kind in (EventKind.GIN, EventKind.BIG_GIN):
        expect(knocker_deadwood == 0, lambda: f"{end_kind} with deadwood {knocker_deadwood}")
        defender_deadwood = gincore.deadwood(defender_hand)
        if oracle:
            expect(brute.oracle_deadwood(defender_hand) == defender_deadwood,
                   lambda: "oracle disagrees on the defender's deadwood")
        found.defender_deadwood = defender_deadwood
        found.laid_off = 0
        found.outcome = Outcome(end_kind)
        found.winner = knocker
        bonus = rules.gin_bonus if end_kind == EventKind.GIN else rules.big_gin_bonus
        found.points = (bonus + defender_deadwood) * multiplier
        expect(result.laid_off_cards == 0,
               lambda: f"lay-off after {end_kind}: {text(result.laid_off_cards)}")
        defender_left = defender_hand
    else:
        expect(0 < knocker_deadwood <= found.knock_limit,
               lambda: f"knock with deadwood {knocker_deadwood}, limit {found.knock_limit}")
        best, laid_mask = gincore.layoff(defender_hand, melds)
        laid = result.laid_off_cards
        expect(laid & ~defender_hand == 0,
               lambda: f"laid off cards not held by the defender: {text(laid)}")
        expect(layoff_feasible(laid, melds),
               lambda: f"{text(laid)} cannot all be laid off onto {[text(m) for m in melds]}")
        expect(gincore.deadwood(defender_hand & ~laid) == best,
               lambda: f"after laying off {text(laid)} the defender's deadwood is "
               f"{gincore.deadwood(defender_hand & ~laid)}, the best is {best}")
        expect(popcount(laid) == popcount(laid_mask),
               lambda: f"{popcount(laid)} cards laid off, the fewest reaching the best deadwood is "
               f"{popcount(laid_mask)}")
        if oracle:
            oracle_best, oracle_count = brute.oracle_layoff(defender_hand, melds)
            expect((oracle_best, oracle_count) == (best, popcount(laid)),
                   lambda: f"oracle lay-off (deadwood, cards) = {(oracle_best, oracle_count)}, "
                   f"engine {(best, popcount(laid))}")
        found.defender_deadwood = best
        found.laid_off = popcount(laid)
        if best <= knocker_deadwood:
            found.outcome = Outcome.UNDERCUT
            found.winner = defender
            found.points = (knocker_deadwood - best + rules.undercut_bonus) * multiplier
        else:
            found.outcome = Outcome.KNOCK
            found.winner = knocker
            found.points = (best - knocker_deadwood) * multiplier
        defender_left = defender_hand & ~laid
    defender_covered = _check_melds(table, tuple(result.defender_melds), defender_left,
                                    "the defender's melds")
    expect(mask_value(defender_left & ~defender_covered) == found.defender_deadwood,
           lambda: f"the defender's melds leave {mask_value(defender_left & ~defender_covered)}, "
           f"the defender's deadwood is {found.defender_deadwood}")


def _compare(table: _Table, found: Replayed) -> None:
    result = table.result
    draw = found.outcome == Outcome.DRAW
    expected = {
        "outcome": found.outcome,
        "winner": found.winner,
        "knocker": found.knocker,
        "points": found.points,
        "knocker_deadwood": -1 if draw else found.knocker_deadwood,
        "defender_deadwood": -1 if draw else found.defender_deadwood,
        "laid_off": found.laid_off,
        "turns": found.turns,
        "upcard_taken_by": found.upcard_taken_by,
        "knock_limit": found.knock_limit,
        "multiplier": found.multiplier,
        "final_hands": found.final_hands,
        "stock_left": found.stock_left,
    }
    if draw:
        expected.update(knocker_melds=(), defender_melds=(), laid_off_cards=0)
    wrong = {name: (getattr(result, name), want) for name, want in expected.items()
             if getattr(result, name) != want}
    table.expect(result.outcome in OUTCOMES, lambda: f"unknown outcome {result.outcome!r}")
    if wrong:
        table.fail("record fields differ from the replay (engine, replay): " + ", ".join(
            f"{name}={got!r} vs {want!r}" for name, (got, want) in wrong.items()))


# --- the knocker's choice of melds (docs/rules.md#the-showdown) ---------------------------------------


def exposure(melds: Iterable[int], unseen: int) -> int:
    """How many ``unseen`` cards could be laid off onto ``melds``: the fourth card of each 3-set, and
    the cards extending each run in chains through unseen cards."""
    exposed = 0
    for meld in melds:
        if is_set(meld):
            if popcount(meld) == 3:
                rank = cards_of(meld)[0] % 13
                exposed |= sum(bit(13 * s + rank) for s in range(4)) & ~meld & unseen
            continue
        reach = meld
        while True:
            neighbours = 0
            for card in cards_of(reach):
                if card % 13 > 0:
                    neighbours |= bit(card - 1)
                if card % 13 < 12:
                    neighbours |= bit(card + 1)
            grown = neighbours & unseen & ~reach
            if not grown:
                break
            reach |= grown
        exposed |= reach & ~meld
    return popcount(exposed)


def unseen_by_knocker(result: HandResult) -> int:
    """Cards the knocker has not seen: not in its hand, never face up, not its face-down discard."""
    seen = result.final_hands[result.knocker] | bit(result.upcard)
    for event in result.events:
        if event.kind in (EventKind.DISCARD, EventKind.KNOCK, EventKind.GIN):
            seen |= bit(event.card)
    return FULL_DECK & ~seen


def check_shown_exposure(result: HandResult) -> None:
    """After a knock the shown arrangement exposes the fewest unseen cards among the knocker's
    minimum-deadwood arrangements (the default of docs/rules.md#the-showdown)."""
    if result.outcome not in (Outcome.KNOCK, Outcome.UNDERCUT):
        return
    hand = result.final_hands[result.knocker]
    unseen = unseen_by_knocker(result)
    options = {tuple(sorted(melds)): exposure(melds, unseen) for melds in gincore.arrangements(hand)}
    shown = exposure(result.knocker_melds, unseen)
    fewest = min(options.values())
    if shown != fewest:
        listed = "; ".join(f"{[text(m) for m in melds]} exposes {n}" for melds, n in options.items())
        raise ReplayError(
            f"the knocker shows {[text(m) for m in result.knocker_melds]}, exposing {shown} unseen cards; "
            f"the fewest is {fewest} ({listed}); unseen by the knocker: {text(unseen)}"
            f"\n  hand: {describe(result)}\n  trace:\n{_trace_text(result)}")
