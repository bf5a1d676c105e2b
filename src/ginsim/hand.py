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
from typing import NamedTuple

import gincore
from gincore.errors import InputError
from ginsim._native import engine, run_key
from ginsim.checks import check_seed, integer
from ginsim.rules import PRESETS, Rules
from ginsim.strategies import PlayerSpec, player_name, resolve_players

__all__ = ["Event", "HandResult", "play_hand"]


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

    def to_text(self) -> str:
        """The hand as readable text, turn by turn."""
        rules_name = next((name for name, preset in PRESETS.items() if preset == self.rules), "custom")
        seat = [f"player {p} ({self.players[p]})" for p in (0, 1)]
        card = gincore.card_text
        origin = f"of seed {self.seed}" if self.seed is not None else "from a given deal"
        lines = [
            f"Hand {self.hand} {origin} under {rules_name} rules: "
            f"player 0 {self.players[0]}, player 1 {self.players[1]}",
            f"Dealer: player {self.dealer}. Upcard: {card(self.upcard)}; knock limit {self.knock_limit}"
            + (f"; scores x{self.multiplier}" if self.multiplier != 1 else ""),
        ]
        lines += [f"{seat[p]} is dealt {gincore.format_cards(self.dealt[p])}" for p in (0, 1)]
        describe = {
            "take_upcard": "takes the upcard {card}",
            "pass_upcard": "refuses the upcard {card}",
            "draw_stock": "draws {card} from the stock",
            "draw_discard": "takes {card} from the discard pile",
            "discard": "discards {card}",
            "knock": "knocks, discarding {card} face down",
            "gin": "goes gin, discarding {card} face down",
            "big_gin": "goes big gin with all eleven cards melded",
        }
        for step, event in enumerate(self.events, 1):
            if event.kind == "reshuffle":
                text = "the discard pile but its top card is shuffled into a new stock"
            elif event.kind == "drawn":
                text = f"the stock is down to {self.stock_left} cards: the hand is drawn"
            else:
                text = f"{seat[event.player]} " + describe[event.kind].format(
                    card=card(event.card) if event.card >= 0 else "")
            lines.append(f"{step:3}. {text}")
        if self.outcome == "draw":
            lines.append("No score.")
            return "\n".join(lines)
        knocker, defender = self.knocker, 1 - self.knocker
        lines.append(f"{seat[knocker]} shows {_melds_text(self.knocker_melds, self.final_hands[knocker])}"
                     f" = deadwood {self.knocker_deadwood}")
        laid = f", lays off {gincore.format_cards(self.laid_off_cards)}" if self.laid_off_cards else ""
        defender_cards = self.final_hands[defender] & ~self.laid_off_cards
        lines.append(f"{seat[defender]} shows {_melds_text(self.defender_melds, defender_cards)}{laid}"
                     f" = deadwood {self.defender_deadwood}")
        lines.append(f"{self.outcome.replace('_', ' ')}: {seat[self.winner]} scores {self.points}"
                     + (" (doubled)" if self.multiplier != 1 else ""))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _melds_text(melds: tuple[int, ...], hand: int) -> str:
    melded = 0
    parts = []
    for meld in melds:
        melded |= meld
        parts.append(f"[{gincore.format_cards(meld)}]")
    rest = hand & ~melded
    if rest:
        parts.append(gincore.format_cards(rest))
    return " ".join(parts) or "nothing"


def _melds_of(hand: int, in_sets: int) -> tuple[int, ...]:
    """The melds of the arrangement of ``hand`` whose set cards are ``in_sets``."""
    for melds in gincore.arrangements(hand):
        if sum(meld for meld in melds if _is_set(meld)) == in_sets:
            return melds
    raise AssertionError("the engine showed an arrangement the solver does not know")


def _is_set(meld: int) -> bool:
    return len({card % 13 for card in gincore.cards_of(meld)}) == 1


def _deck_order(deck: Sequence[int] | str) -> list[int]:
    cards = ([gincore.parse_cards(token).bit_length() - 1 for token in deck.replace(",", " ").split()]
             if isinstance(deck, str) else [int(card) for card in deck])
    if sorted(cards) != list(range(52)):
        missing = sorted(set(range(52)) - set(cards))
        detail = f"missing {gincore.format_cards(sum(1 << c for c in missing))}" if missing else \
            f"{len(cards)} cards with repeats"
        raise InputError(f"deck must hold each of the 52 cards once, top first ({detail})")
    return cards


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
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a ginsim.Rules, got {type(rules).__name__}")
    integer("hand index", index, low=0)
    if (deck is None) != (dealer is None):
        raise InputError("give both deck and dealer for an explicit deal, or neither")
    if dealer is not None and dealer not in (0, 1):
        raise InputError(f"dealer must be 0 or 1, got {dealer!r}")
    order = None if deck is None else _deck_order(deck)
    key0, key1 = run_key(check_seed(seed))
    raw = engine(rules, names).play_traced(key0, key1, index, order, dealer)
    record = raw["record"]
    final = raw["final"]
    knocker = record["knocker"]
    knocker_melds: tuple[int, ...] = ()
    defender_melds: tuple[int, ...] = ()
    if knocker >= 0:
        knocker_melds = _melds_of(final[knocker], raw["knocker_sets"])
        remaining = final[1 - knocker] & ~raw["laid_off_cards"]
        defender_melds = gincore.arrangements(remaining)[0] if remaining else ()
    return HandResult(
        rules=rules,
        players=(player_name(names[0]), player_name(names[1])),
        seed=None if deck is not None else seed,
        deck=tuple(raw["deck"]),
        dealt=tuple(raw["dealt"]),
        events=tuple(Event(kind, -1 if player == 255 else player, -1 if card == 255 else card)
                     for kind, player, card in raw["events"]),
        final_hands=tuple(final),
        knocker_melds=knocker_melds,
        defender_melds=defender_melds,
        laid_off_cards=raw["laid_off_cards"],
        stock_left=raw["stock_left"],
        **record,
    )
