"""An independent replayer and checker of a traced classic Rummy hand (``ginsim.rummy.HandResult``).

``replay(result)`` deals ``result.deck`` again from ``result.dealer`` and walks through ``result.events``
with its own model of the table (the hands, the table melds, the stock, the discard pile), written from
docs/rules.md#classic-rummy, which documents the readings of the rule books. After every event it checks that the 52
cards are each in exactly one place, and that the event was legal: whose turn it is, where a draw comes
from, that melds are sets of 3-4 of a rank or runs of 3+ of a suit (ace low), that a lay-off turns a
table meld into a valid meld (a run extended at one end, a 3-set completed to 4), that the card just
taken from the pile is not discarded, that melding leaves the hand empty or holding a card it may
discard, that the pile is turned over exactly when the stock is empty (and the hand drawn when the
turnovers are used up). At the end it recomputes the record: winner, points (the value of the cards
left in the other hands, doubled for rummy), rummy, turns, turnovers, cards left.

With ``strategies=True`` the documented, deterministic parts of ``greedy`` are checked too: it takes the
pile's top card iff that lowers its deadwood after the best discard (deadwood counting lay-offs onto the
table), discards a least-deadwood card of the highest value, and lays down everything it can (what it
keeps besides the discard is exactly that least deadwood). Deadwood comes from gincore's verified solver.
"""
from __future__ import annotations

import gincore
from gincore._rummy import MAX_TURNS_IN_HAND
from ginsim.rummy import EventKind, HandResult

from .cards import FULL_DECK, card_value, is_meld, is_run, is_set, mask_value

HAND_SIZES = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}


class ReplayError(AssertionError):
    """The trace or the record breaks a rule or disagrees with the replay."""


def table_deadwood(hand: int, melds: list[int]) -> int:
    """Least value left in ``hand`` after its best melds and lay-offs onto the table ``melds``."""
    if not melds:
        return gincore.deadwood(hand)
    return gincore.layoff(hand, melds)[0]


class _Replay:
    def __init__(self, result: HandResult, strategies: bool) -> None:
        self.result = result
        self.strategies = strategies
        self.players = len(result.players)
        self.step = 0

    def fail(self, message: str) -> None:
        r = self.result
        raise ReplayError(f"{message}\n  at event {self.step} of hand {r.hand} (seed {r.seed}, players "
                          f"{','.join(r.players)}, rules {r.rules}); events so far: "
                          f"{list(r.events[: self.step + 1])[-8:]}")

    def conserve(self) -> None:
        places = self.hands + self.melds + [sum(1 << c for c in self.stock), sum(1 << c for c in self.pile)]
        seen = 0
        for place in places:
            if seen & place:
                self.fail(f"card(s) {gincore.format_cards(seen & place)} in two places")
            seen |= place
        if seen != FULL_DECK:
            self.fail(f"card(s) {gincore.format_cards(FULL_DECK & ~seen)} are nowhere")
        if len(set(self.stock)) != len(self.stock) or len(set(self.pile)) != len(self.pile):
            self.fail("a card is twice in the stock or the pile")

    def keeps_a_discard(self, seat: int) -> bool:
        rest = self.hands[seat]
        return rest == 0 or rest & ~self.taken != 0

    def run(self) -> None:
        r = self.result
        n = self.players
        size = HAND_SIZES[n]
        if sorted(r.deck) != list(range(52)):
            self.fail("the deck is not the 52 cards")
        if not 0 <= r.dealer < n:
            self.fail(f"dealer {r.dealer} is not a seat")
        self.hands = [0] * n
        for i in range(n * size):
            self.hands[(r.dealer + 1 + i) % n] |= 1 << r.deck[i]
        if tuple(self.hands) != tuple(r.dealt):
            self.fail("the dealt hands differ from a deal round the table from the dealer's left")
        self.pile = [r.deck[n * size]]
        self.stock = list(r.deck[n * size + 1:])
        self.melds: list[int] = []
        self.owners: list[int] = []
        self.conserve()
        laid_before = [False] * n
        turnovers = 0
        turns = 0
        player = (r.dealer + 1) % n
        events = list(r.events)
        index = 0
        end = None
        while index < len(events):
            # --- one turn of ``player`` ---
            self.step = index
            event = events[index]
            self.taken = 0
            fresh = not laid_before[player]
            if event.player != player:
                self.fail(f"seat {player} is to play, the event is by seat {event.player}")
            hand_before = self.hands[player]
            top = self.pile[-1] if self.pile else None
            if event.kind == EventKind.DRAW_STOCK:
                if not self.stock or event.card != self.stock[0]:
                    self.fail(f"draw_stock of {event.card}, the stock's top is {self.stock[:1]}")
                self.stock.pop(0)
            elif event.kind == EventKind.DRAW_DISCARD:
                if top is None or event.card != top:
                    self.fail(f"draw_discard of {event.card}, the pile's top is {top}")
                self.pile.pop()
                self.taken = 1 << event.card
            else:
                self.fail(f"a turn starts with {event.kind}, not a draw")
            self.hands[player] |= 1 << event.card
            turns += 1
            self.conserve()
            # The table as the player saw it after the draw, for the strategy checks.
            self.current = player
            self.melds_at_draw = list(self.melds)
            self.taken_at_draw = self.taken
            if self.strategies and r.players[player] == "greedy":
                self.check_greedy_draw(hand_before, top, event.kind == EventKind.DRAW_DISCARD)
            after_draw = self.hands[player]
            index += 1
            discard = None
            while True:
                if index >= len(events):
                    self.fail("the trace ends in the middle of a turn")
                self.step = index
                event = events[index]
                index += 1
                in_turn = (EventKind.MELD, EventKind.LAY_OFF, EventKind.DISCARD, EventKind.GO_OUT)
                if event.kind in in_turn and event.player != player:
                    self.fail(f"{event.kind} by seat {event.player} in the turn of seat {player}")
                if event.kind == EventKind.MELD:
                    if event.cards & ~self.hands[player] or not is_meld(event.cards):
                        self.fail(f"meld {gincore.format_cards(event.cards)} is not a meld held by the player")
                    if event.meld != len(self.melds):
                        self.fail(f"meld index {event.meld}, expected {len(self.melds)}")
                    self.hands[player] &= ~event.cards
                    self.melds.append(event.cards)
                    self.owners.append(player)
                    laid_before[player] = True
                elif event.kind == EventKind.LAY_OFF:
                    bit = 1 << event.card
                    if not bit & self.hands[player] or not 0 <= event.meld < len(self.melds):
                        self.fail("lay-off of a card not held, or onto no meld")
                    old = self.melds[event.meld]
                    new = old | bit
                    if not ((is_set(old) and is_set(new)) or (is_run(old) and is_run(new))):
                        self.fail(f"{gincore.card_text(event.card)} cannot be laid off onto "
                                  f"{gincore.format_cards(old)}")
                    self.hands[player] &= ~bit
                    self.melds[event.meld] = new
                    laid_before[player] = True
                elif event.kind == EventKind.DISCARD:
                    bit = 1 << event.card
                    if not bit & self.hands[player]:
                        self.fail("discard of a card not held")
                    if bit & self.taken:
                        self.fail("discard of the card just taken from the pile")
                    self.hands[player] &= ~bit
                    self.pile.append(event.card)
                    discard = event.card
                elif event.kind == EventKind.GO_OUT:
                    if self.hands[player]:
                        self.fail("go_out with cards in hand")
                    if bool(event.cards) != fresh:
                        self.fail(f"go_out says rummy={bool(event.cards)}, the replay says {fresh}")
                else:
                    self.fail(f"{event.kind} in the middle of a turn")
                self.conserve()
                if event.kind in (EventKind.MELD, EventKind.LAY_OFF):
                    if not self.keeps_a_discard(player):
                        self.fail("melding left only the card taken from the pile")
                    if self.hands[player] == 0:
                        if index >= len(events) or events[index].kind != EventKind.GO_OUT:
                            self.fail("the hand is empty but the player does not go out")
                if event.kind == EventKind.DISCARD:
                    if self.hands[player] == 0 and (index >= len(events) or events[index].kind != EventKind.GO_OUT):
                        self.fail("the hand is empty after the discard but the player does not go out")
                    if self.hands[player]:
                        break
                if event.kind == EventKind.GO_OUT:
                    end = (EventKind.GO_OUT, player, fresh)
                    break
            if self.strategies and r.players[player] == "greedy":
                self.check_greedy_play(after_draw, discard)
            if end is not None:
                break
            # --- the stock ---
            if not self.stock:
                self.step = index
                if index >= len(events):
                    self.fail("the stock is empty and the trace ends")
                event = events[index]
                index += 1
                if turnovers < r.rules.max_turnovers:
                    if event.kind != EventKind.TURNOVER:
                        self.fail(f"the stock is empty: expected a turnover, got {event.kind}")
                    if event.cards != sum(1 << c for c in self.pile):
                        self.fail("the turned-over stock is not the discard pile")
                    self.stock = list(self.pile)  # turned face down: the oldest discard on top
                    self.pile = []
                    turnovers += 1
                    self.conserve()
                else:
                    if event.kind != EventKind.DRAWN:
                        self.fail(f"the stock is empty after {turnovers} turnovers: expected drawn, got {event.kind}")
                    end = (EventKind.DRAWN, -1, False)
                    break
            if turns >= MAX_TURNS_IN_HAND:
                self.fail(f"the hand reached the safety bound of {MAX_TURNS_IN_HAND} turns")
            if index < len(events) and events[index].kind == EventKind.DRAWN:
                self.fail("a drawn hand with stock left")
            player = (player + 1) % n
        if end is None:
            self.fail("the trace ends without going out or a drawn hand")
        if index != len(events):
            self.step = index
            self.fail("events after the end of the hand")
        self.check_record(end, turns, turnovers)

    def check_greedy_draw(self, hand: int, top: int | None, took: bool) -> None:
        if top is None:
            return
        now = table_deadwood(hand, self.melds)
        with_top = hand | 1 << top
        lowers = now > 0 and (table_deadwood(with_top, self.melds) == 0 or any(
            table_deadwood(with_top & ~(1 << c), self.melds) < now for c in range(52) if hand >> c & 1))
        if lowers != took:
            self.fail(f"greedy {'took' if took else 'refused'} {gincore.card_text(top)} from the pile; "
                      f"deadwood now {now}")

    def check_greedy_play(self, hand: int, discard: int | None) -> None:
        melds_before = self.melds_at_draw
        if table_deadwood(hand, melds_before) == 0:
            if discard is not None:
                self.fail("greedy could lay down every card but discarded")
            return
        if discard is None:
            self.fail("greedy went out without a discard though it could not meld every card")
        legal = [c for c in range(52) if hand >> c & 1 and not (1 << c) & self.taken_at_draw]
        after = {c: table_deadwood(hand & ~(1 << c), melds_before) for c in legal}
        least = min(after.values())
        best = [c for c in legal if after[c] == least]
        top_value = max(card_value(c) for c in best)
        if after[discard] != least or card_value(discard) != top_value:
            self.fail(f"greedy discarded {gincore.card_text(discard)} (deadwood {after[discard]}), "
                      f"best is {least} with value {top_value}")
        kept = self.hands[self.current]
        if mask_value(kept) != least:
            self.fail(f"greedy kept {gincore.format_cards(kept)} (value {mask_value(kept)}) instead of "
                      f"laying down all it could (least deadwood {least})")

    def check_record(self, end: tuple[EventKind, int, bool], turns: int, turnovers: int) -> None:
        r = self.result
        kind, winner, rummy = end
        points = 0
        if kind == EventKind.GO_OUT:
            points = sum(mask_value(self.hands[s]) for s in range(self.players) if s != winner)
            if rummy and r.rules.rummy_doubles:
                points *= 2
        expected = {
            "winner": winner, "points": points, "rummy": rummy, "turns": turns, "turnovers": turnovers,
            "cards_left": tuple(bin(h).count("1") for h in self.hands), "final_hands": tuple(self.hands),
            "melds": tuple(zip(self.melds, self.owners, strict=True)), "stock": tuple(self.stock),
            "pile": tuple(self.pile),
        }
        for name, wanted in expected.items():
            if getattr(r, name) != wanted:
                self.step = len(r.events) - 1
                self.fail(f"record {name} is {getattr(r, name)!r}, the replay gives {wanted!r}")


def replay(result: HandResult, *, strategies: bool = True) -> None:
    """Replay and check one traced hand; raise ``ReplayError`` naming the hand on any disagreement."""
    _Replay(result, strategies).run()
