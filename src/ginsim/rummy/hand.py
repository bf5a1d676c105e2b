"""One classic Rummy hand with its full trace: ``play_hand`` and ``HandResult``.

>>> result = play_hand(Rules(), "greedy,greedy,random", seed=1, index=3)
>>> result.winner in (-1, 0, 1, 2), len(result.final_hands)
(True, 3)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

import gincore
from gincore.errors import InputError
from ginsim.core import text
from ginsim.core.checks import check_seed, integer
from ginsim.core.streams import LIMITS
from ginsim.rummy.native import HAND_SIZES, engine, run_key
from ginsim.rummy.rules import Rules, check_rules
from ginsim.rummy.strategies import resolve_players

__all__ = ["Event", "EventKind", "HandResult", "Outcome", "play_hand"]


class Outcome(StrEnum):
    """How a classic Rummy hand ends; the values are those of the records' ``outcome`` column and of JSON.

    >>> [outcome.value for outcome in Outcome]
    ['out', 'rummy', 'draw']
    """

    OUT = "out"
    """A player went out."""
    RUMMY = "rummy"
    """A player went out rummy (every card melded in one turn, nothing laid down before)."""
    DRAW = "draw"
    """The stock ran out once more than the turnovers allow; no score."""


class EventKind(StrEnum):
    """The kinds of step in a traced classic Rummy hand (:class:`Event`), named as the engine's trace
    names them.

    >>> EventKind("lay_off") is EventKind.LAY_OFF
    True
    """

    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    MELD = "meld"
    LAY_OFF = "lay_off"
    DISCARD = "discard"
    GO_OUT = "go_out"
    TURNOVER = "turnover"
    DRAWN = "drawn"


class Event(NamedTuple):
    """One step of a hand.

    ``kind`` is one of ``draw_stock``, ``draw_discard``, ``meld`` (``cards``: the meld, ``meld``: its
    index on the table), ``lay_off`` (``card`` onto table meld ``meld``), ``discard``, ``go_out``
    (``cards``: 1 for rummy), ``turnover`` (``cards``: the new stock) and ``drawn``; ``player``,
    ``card`` and ``meld`` are -1 where none applies.
    """

    kind: EventKind
    player: int
    card: int
    meld: int
    cards: int


@dataclass(frozen=True)
class HandResult:
    """A played hand: its record, the deal, every event and the final table. Cards are indices, hands masks."""

    rules: Rules
    players: tuple[str, ...]
    seed: int | None
    hand: int
    dealer: int
    winner: int
    points: int
    rummy: bool
    turns: int
    turnovers: int
    cards_left: tuple[int, ...]
    deck: tuple[int, ...]
    dealt: tuple[int, ...]
    events: tuple[Event, ...]
    final_hands: tuple[int, ...]
    melds: tuple[tuple[int, int], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]

    @property
    def outcome(self) -> Outcome:
        """How the hand ended, an :class:`Outcome` (``OUT``, ``RUMMY`` or ``DRAW``)."""
        return Outcome.DRAW if self.winner < 0 else Outcome.RUMMY if self.rummy else Outcome.OUT

    @property
    def upcard(self) -> int:
        """The card that started the discard pile."""
        return self.deck[len(self.players) * HAND_SIZES[len(self.players)]]

    def to_text(self, symbols: bool = False) -> str:
        """The hand as readable text, step by step (suits as symbols with ``symbols``)."""
        seats = [f"seat {seat} ({name})" for seat, name in enumerate(self.players)]

        def card(index: int) -> str:
            return text.card(index, symbols)

        def cards(mask: int) -> str:
            return text.cards(mask, symbols)

        origin = f"of seed {self.seed}" if self.seed is not None else "from a given deal"
        lines = [
            f"Rummy hand {self.hand} {origin}: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(self.players)),
            f"Dealer: seat {self.dealer}. {HAND_SIZES[len(self.players)]} cards each; upcard {card(self.upcard)}.",
        ]
        lines += [f"{seats[seat]} is dealt {cards(held)}" for seat, held in enumerate(self.dealt)]
        for step, event in enumerate(self.events, 1):
            who = seats[event.player] if event.player >= 0 else ""
            if event.kind is EventKind.DRAW_STOCK:
                line = f"{who} draws {card(event.card)} from the stock"
            elif event.kind is EventKind.DRAW_DISCARD:
                line = f"{who} takes {card(event.card)} from the discard pile"
            elif event.kind is EventKind.MELD:
                line = f"{who} melds {cards(event.cards)} (meld {event.meld})"
            elif event.kind is EventKind.LAY_OFF:
                line = f"{who} lays {card(event.card)} off onto meld {event.meld}"
            elif event.kind is EventKind.DISCARD:
                line = f"{who} discards {card(event.card)}"
            elif event.kind is EventKind.GO_OUT:
                line = f"{who} goes out" + (" rummy" if event.cards else "")
            elif event.kind is EventKind.TURNOVER:
                line = (f"the stock is empty: the discard pile is turned over as the new stock "
                        f"({bin(event.cards).count('1')} cards)")
            else:
                line = "the stock is empty once more: the hand is drawn"
            lines.append(f"{step:3}. {line}")
        if self.winner < 0:
            lines.append("No score.")
            return "\n".join(lines)
        left = [f"{seats[seat]} {cards(held)}" for seat, held in enumerate(self.final_hands)
                if seat != self.winner]
        doubled = " (doubled for rummy)" if self.rummy and self.rules.rummy_doubles else ""
        lines.append(f"{seats[self.winner]} wins {self.points} points{doubled}; cards left: " + "; ".join(left))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The hand as JSON-ready values: cards and masks as card text, the rules as a dict.

        >>> hand = play_hand(Rules(), "greedy,random", seed=1, index=3).to_json()
        >>> hand["game"], hand["players"], len(hand["dealt"])
        ('rummy', ['greedy', 'random'], 2)
        """
        card, cards = gincore.card_text, gincore.format_cards

        def optional(index: int) -> str | None:
            return card(index) if index >= 0 else None

        return {
            "game": "rummy", "rules": self.rules.to_dict(), "players": list(self.players), "seed": self.seed,
            "hand": self.hand, "dealer": self.dealer, "upcard": card(self.upcard), "outcome": self.outcome.value,
            "winner": self.winner, "points": self.points, "rummy": self.rummy, "turns": self.turns,
            "turnovers": self.turnovers, "cards_left": list(self.cards_left),
            "deck": [card(index) for index in self.deck], "dealt": [cards(mask) for mask in self.dealt],
            "events": [{"kind": event.kind.value, "player": event.player, "card": optional(event.card),
                        "meld": event.meld,
                        "cards": cards(event.cards) if event.kind is EventKind.MELD else event.cards}
                       for event in self.events],
            "final_hands": [cards(mask) for mask in self.final_hands],
            "melds": [{"cards": cards(mask), "owner": owner} for mask, owner in self.melds],
            "stock": [card(index) for index in self.stock], "pile": [card(index) for index in self.pile],
        }

    def __str__(self) -> str:
        return self.to_text()


def play_hand(
    rules: Rules,
    players: Sequence[str] | str,
    seed: int | None = 0,
    index: int = 0,
    *,
    deck: Sequence[int] | str | None = None,
    dealer: int | None = None,
) -> HandResult:
    """Play one hand with its full trace: hand ``index`` of every Rummy run with that ``seed``.

    With ``deck`` (the 52 cards top first, as indices or card text) and ``dealer`` (a seat), that deal
    is played instead: cards go one at a time round the table from the dealer's left, the next card
    is the upcard, the rest is the stock; the strategies' choices still come from (seed, index).

    >>> result = play_hand(Rules(), "greedy,greedy,random", seed=1, index=3)
    >>> result.winner in (-1, 0, 1, 2), len(result.final_hands)
    (True, 3)
    >>> print(result.to_text().splitlines()[0])
    Rummy hand 3 of seed 1: seat 0 greedy, seat 1 greedy, seat 2 random
    """
    names = resolve_players(players)
    check_rules(rules)
    index = integer("hand index", index, low=0, high=LIMITS["rummy_hands"] - 1)
    if (deck is None) != (dealer is None):
        raise InputError("give both deck and dealer for an explicit deal, or neither")
    if dealer is not None and (isinstance(dealer, bool) or dealer not in range(len(names))):
        raise InputError(f"dealer must be a seat 0..{len(names) - 1}, got {dealer!r}")
    order = None if deck is None else text.parse_deck(deck)
    key0, key1 = run_key(0 if seed is None else check_seed(seed))
    raw = engine(rules, names).play_traced(key0, key1, index, order, dealer)
    record = raw["record"]
    if raw["audit_failures"]:
        raise RuntimeError(f"the engine broke a table invariant in hand {index} (please report it)")

    def unset(value: int, none: int) -> int:
        return -1 if value == none else value

    return HandResult(
        rules=rules,
        players=names,
        seed=None if deck is not None else seed,
        hand=index,
        dealer=record["dealer"],
        winner=record["winner"],
        points=record["points"],
        rummy=bool(record["rummy"]),
        turns=record["turns"],
        turnovers=record["turnovers"],
        cards_left=tuple(record[f"cards_left_{seat}"] for seat in range(len(names))),
        deck=tuple(raw["deck"]),
        dealt=tuple(raw["dealt"]),
        events=tuple(Event(EventKind(kind), unset(player, 255), unset(card, 255), unset(meld, 255), cards)
                     for kind, player, card, meld, cards in raw["events"]),
        final_hands=tuple(raw["final"]),
        melds=tuple(raw["melds"]),
        stock=tuple(raw["stock"]),
        pile=tuple(raw["pile"]),
    )
