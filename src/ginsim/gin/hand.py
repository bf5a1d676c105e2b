"""One hand with its full trace: ``play_hand`` and ``HandResult``.

``play_hand(rules, players, seed, index)`` is hand ``index`` of every run with that seed, played again
alone with every draw, discard and the showdown recorded.

>>> from ginsim import Rules, play_hand
>>> result = play_hand(Rules(), ("simple", "simple"), seed=1, index=5)
>>> result.outcome, result.winner, result.points
('knock', 1, 10)
>>> print(result.to_text().splitlines()[0])
Hand 5 of seed 1 under standard rules: player 0 simple, player 1 simple
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple

import gincore
from gincore.errors import InputError
from ginsim import text
from ginsim.checks import check_seed, integer
from ginsim.gin.engine import check_rules, engine, interrupts, run_key
from ginsim.gin.rules import Rules
from ginsim.gin.strategies import PlayerSpec, player_name, resolve_players
from ginsim.streams import LIMITS

__all__ = ["EVENT_PHRASES", "Event", "HandResult", "play_hand", "shown_melds"]

EVENT_PHRASES: Final = MappingProxyType({
    "take_upcard": "takes the upcard {card}",
    "pass_upcard": "refuses the upcard {card}",
    "draw_stock": "draws {card} from the stock",
    "draw_discard": "takes {card} from the discard pile",
    "discard": "discards {card}",
    "knock": "knocks, discarding {card} face down",
    "gin": "goes gin, discarding {card} face down",
    "big_gin": "goes big gin with all eleven cards melded",
    "reshuffle": "the discard pile but its top card is shuffled into a new stock",
})
"""What a player does in each kind of event, with ``{card}`` for its card (the engine's trace words)."""


class Event(NamedTuple):
    """One step of a hand: ``kind`` is one of ``take_upcard``, ``pass_upcard``, ``draw_stock``,
    ``draw_discard``, ``discard``, ``knock``, ``gin`` (the card is the face-down discard),
    ``big_gin``, ``reshuffle``, ``drawn``; ``player`` and ``card`` are -1 where none applies."""

    kind: str
    player: int
    card: int


@dataclass(frozen=True)
class HandResult:
    """A played hand: the per-hand record fields, the deal, every event and the showdown.

    Masks are card masks (``int``); melds are tuples of meld masks.
    """

    rules: Rules
    players: tuple[str, str]
    seed: int | None
    hand: int
    dealer: int
    upcard: int
    knock_limit: int
    multiplier: int
    outcome: str
    winner: int
    knocker: int
    points: int
    knocker_deadwood: int
    defender_deadwood: int
    laid_off: int
    turns: int
    upcard_taken_by: int
    deck: tuple[int, ...]
    dealt: tuple[int, int]
    events: tuple[Event, ...]
    final_hands: tuple[int, int]
    knocker_melds: tuple[int, ...]
    defender_melds: tuple[int, ...]
    laid_off_cards: int
    stock_left: int

    def to_text(self, symbols: bool = False) -> str:
        """The hand as readable text, turn by turn (suits as symbols with ``symbols``)."""
        seat = [f"player {p} ({self.players[p]})" for p in (0, 1)]

        def card(index: int) -> str:
            return text.card(index, symbols)

        origin = f"of seed {self.seed}" if self.seed is not None else "from a given deal"
        lines = [
            f"Hand {self.hand} {origin} under {self.rules.label()}: "
            f"player 0 {self.players[0]}, player 1 {self.players[1]}",
            f"Dealer: player {self.dealer}. Upcard: {card(self.upcard)}; knock limit {self.knock_limit}"
            + (f"; scores x{self.multiplier}" if self.multiplier != 1 else ""),
        ]
        lines += [f"{seat[p]} is dealt {text.cards(self.dealt[p], symbols)}" for p in (0, 1)]
        for step, event in enumerate(self.events, 1):
            if event.kind == "reshuffle":
                line = EVENT_PHRASES["reshuffle"]
            elif event.kind == "drawn":
                line = f"the stock is down to {self.stock_left} cards: the hand is drawn"
            else:
                line = f"{seat[event.player]} " + EVENT_PHRASES[event.kind].format(
                    card=card(event.card) if event.card >= 0 else "")
            lines.append(f"{step:3}. {line}")
        if self.outcome == "draw":
            lines.append("No score.")
            return "\n".join(lines)
        knocker, defender = self.knocker, 1 - self.knocker
        lines.append(f"{seat[knocker]} shows "
                     f"{text.melds_text(self.knocker_melds, self.final_hands[knocker], symbols)}"
                     f" = deadwood {self.knocker_deadwood}")
        laid = f", lays off {text.cards(self.laid_off_cards, symbols)}" if self.laid_off_cards else ""
        defender_cards = self.final_hands[defender] & ~self.laid_off_cards
        lines.append(f"{seat[defender]} shows {text.melds_text(self.defender_melds, defender_cards, symbols)}"
                     f"{laid} = deadwood {self.defender_deadwood}")
        lines.append(f"{self.outcome.replace('_', ' ')}: {seat[self.winner]} scores {self.points}"
                     + (" (doubled)" if self.multiplier != 1 else ""))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The hand as JSON-ready values: cards and masks as card text, the rules as a dict.

        >>> hand = play_hand(Rules(), "simple,simple", seed=1, index=5).to_json()
        >>> hand["outcome"], hand["upcard"], hand["events"][0]
        ('knock', '9H', {'kind': 'take_upcard', 'player': 1, 'card': '9H'})
        """
        card, cards = gincore.card_text, gincore.format_cards
        return {
            "game": "gin", "rules": self.rules.to_dict(), "players": list(self.players), "seed": self.seed,
            "hand": self.hand, "dealer": self.dealer, "upcard": card(self.upcard), "knock_limit": self.knock_limit,
            "multiplier": self.multiplier, "outcome": self.outcome, "winner": self.winner, "knocker": self.knocker,
            "points": self.points, "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood, "laid_off": self.laid_off, "turns": self.turns,
            "upcard_taken_by": self.upcard_taken_by, "deck": [card(index) for index in self.deck],
            "dealt": [cards(mask) for mask in self.dealt],
            "events": [{"kind": event.kind, "player": event.player,
                        "card": card(event.card) if event.card >= 0 else None} for event in self.events],
            "final_hands": [cards(mask) for mask in self.final_hands],
            "knocker_melds": [cards(meld) for meld in self.knocker_melds],
            "defender_melds": [cards(meld) for meld in self.defender_melds],
            "laid_off_cards": cards(self.laid_off_cards), "stock_left": self.stock_left,
        }

    def __str__(self) -> str:
        return self.to_text()


def shown_melds(hand: int, set_cards: int) -> tuple[int, ...]:
    """The knocker's arrangement as the engine laid it down: the least-deadwood arrangement of ``hand``
    whose sets hold exactly ``set_cards``."""
    for melds in gincore.arrangements(hand):
        if sum(meld for meld in melds if len({card % 13 for card in gincore.cards_of(meld)}) == 1) == set_cards:
            return melds
    raise AssertionError("the engine showed an arrangement the solver does not know")


def play_hand(
    rules: Rules,
    players: Sequence[PlayerSpec] | str,
    seed: int = 0,
    index: int = 0,
    *,
    deck: Sequence[int] | str | None = None,
    dealer: int | None = None,
) -> HandResult:
    """Play one hand with its full trace.

    With a ``seed``, the hand is hand ``index`` of every run with that seed. With ``deck`` (the 52
    cards top first, as indices or card text) and ``dealer`` (0 or 1), that deal is played instead:
    cards 1-20 go alternately to the non-dealer and the dealer, card 21 is the upcard, the rest is the
    stock; the strategies' coin flips still come from (seed, index).

    >>> deck = gincore.format_cards(gincore.FULL_DECK)  # AC 2C ... KS: index order, top first
    >>> result = play_hand(Rules(), "simple,simple", deck=deck, dealer=1)
    >>> gincore.format_cards(result.dealt[0]), gincore.card_text(result.upcard)
    ('AC 3C 5C 7C 9C JC KC 2D 4D 6D', '8D')
    """
    names = resolve_players(players)
    check_rules(rules)
    index = integer("hand index", index, low=0, high=LIMITS["gin_hands"] - 1)
    if (deck is None) != (dealer is None):
        raise InputError("give both deck and dealer for an explicit deal, or neither")
    if dealer is not None and dealer not in (0, 1):
        raise InputError(f"dealer must be 0 or 1, got {dealer!r}")
    order = None if deck is None else text.parse_deck(deck)
    key0, key1 = run_key(check_seed(seed))
    with interrupts():
        raw = engine(rules, names).play_traced(key0, key1, index, order, dealer)
    record = raw["record"]
    final = raw["final"]
    knocker = record["knocker"]
    knocker_melds: tuple[int, ...] = ()
    defender_melds: tuple[int, ...] = ()
    if knocker >= 0:
        knocker_melds = shown_melds(final[knocker], raw["knocker_sets"])
        remaining = final[1 - knocker] & ~raw["laid_off_cards"]
        defender_melds = gincore.arrangements(remaining)[0] if remaining else ()
    return HandResult(
        rules=rules,
        players=(player_name(names[0]), player_name(names[1])),
        seed=None if deck is not None else seed,
        deck=tuple(raw["deck"]),
        dealt=raw["dealt"],
        events=tuple(Event(kind, -1 if player == 255 else player, -1 if card == 255 else card)
                     for kind, player, card in raw["events"]),
        final_hands=final,
        knocker_melds=knocker_melds,
        defender_melds=defender_melds,
        laid_off_cards=raw["laid_off_cards"],
        stock_left=raw["stock_left"],
        **record,
    )
