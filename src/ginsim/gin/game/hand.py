"""One hand with its full trace (``play_hand`` and ``HandResult``), and the analysis of a hand held
(``analyse_hand``) and of its knock against a given defender (``knock_showdown``) under any rules.

``play_hand(rules, players, seed, index)`` is hand ``index`` of every run with that seed, played again
alone with every draw, discard and the showdown recorded.

>>> from ginsim import Rules, play_hand
>>> result = play_hand(Rules(), ("simple", "simple"), seed=1, index=5)
>>> result.outcome, result.winner, result.points
(<Outcome.KNOCK: 'knock'>, 1, 10)
>>> print(result.to_text().splitlines()[0])
Hand 5 of seed 1 under standard rules: player 0 simple, player 1 simple
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final, NamedTuple

import gincore
from gincore.errors import InputError
from ginsim.core import text
from ginsim.core.checks import check_seed, integer
from ginsim.core.streams import LIMITS
from ginsim.gin.game.actions import actions_of
from ginsim.gin.game.native import check_rules, interrupts, run_key
from ginsim.gin.game.players import PlayerSpec, engine, player_name, resolve_players, shown_name
from ginsim.gin.game.rules import Rules

__all__ = ["EVENT_PHRASES", "MOST_ANALYSED_CARDS", "Event", "EventKind", "HandResult", "MatchContext", "Outcome",
           "analyse_hand", "hand_result", "knock_showdown", "play_hand", "shown_melds"]

MOST_ANALYSED_CARDS: Final = 36
"""The most cards :func:`analyse_hand` takes: every least-deadwood arrangement is listed, and they grow
fast with meld-dense hands (4,484 for 36 cards, in a fifth of a second; 313,457 for the whole deck, in
about two minutes)."""


class Outcome(StrEnum):
    """How a Gin hand ends; the values are those of the records' ``outcome`` column and of JSON.

    >>> Outcome("big_gin") is Outcome.BIG_GIN, Outcome.UNDERCUT == "undercut"
    (True, True)
    """

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DRAW = "draw"


class EventKind(StrEnum):
    """The kinds of step in a traced Gin hand (:class:`Event`), named as the engine's trace names them.

    >>> [kind.value for kind in EventKind][:3]
    ['take_upcard', 'pass_upcard', 'draw_stock']
    """

    TAKE_UPCARD = "take_upcard"
    PASS_UPCARD = "pass_upcard"
    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    RESHUFFLE = "reshuffle"
    DRAWN = "drawn"
    RESTOCK = "restock"
    """A card of the new stock after a reshuffle, in the engine's own trace only; a
    :class:`HandResult` gives the new stocks as its ``reshuffles`` instead."""


GOING_OUT: Final = frozenset({EventKind.KNOCK, EventKind.GIN, EventKind.BIG_GIN})
"""The event kinds that end a hand with a showdown."""

EVENT_PHRASES: Final = MappingProxyType({
    EventKind.TAKE_UPCARD: "takes the upcard {card}",
    EventKind.PASS_UPCARD: "refuses the upcard {card}",
    EventKind.DRAW_STOCK: "draws {card} from the stock",
    EventKind.DRAW_DISCARD: "takes {card} from the discard pile",
    EventKind.DISCARD: "discards {card}",
    EventKind.KNOCK: "knocks, discarding {card} face down",
    EventKind.GIN: "goes gin, discarding {card} face down",
    EventKind.BIG_GIN: "goes big gin with all eleven cards melded",
    EventKind.RESHUFFLE: "the discard pile but its top card is shuffled into a new stock",
})
"""What a player does in each kind of event, with ``{card}`` for its card (the engine's trace words)."""


@dataclass(frozen=True)
class MatchContext:
    """What the strategies of a match's hand may know of the match, each a pair by seat: the ``scores``
    they see, the showdowns so far at which a seat was seen to pass up a knock (``passed``) and the hands
    in which it knocked late (``late``; see :func:`ginsim.gin.studies.matches.passed_knock` and
    ``late_knock``). The engine's ``play_record`` and ``play_traced`` take it as ``match``.

    >>> MatchContext(scores=(40, 75)).passed
    (0, 0)
    """

    scores: tuple[int, int] = (0, 0)
    passed: tuple[int, int] = (0, 0)
    late: tuple[int, int] = (0, 0)


class Event(NamedTuple):
    """One step of a hand: its :class:`EventKind` (for ``knock`` and ``gin`` the card is the face-down
    discard); ``player`` and ``card`` are -1 where none applies."""

    kind: EventKind
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
    outcome: Outcome
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
    actions: tuple[int, ...] = ()
    """The moves of the hand, numbered as in ``ginsim.gin.game.actions``: replayed on the same deal
    (``GameState.deal``) they end in this result."""
    reshuffles: tuple[tuple[int, ...], ...] = ()
    """The stock after each reshuffle, top first."""

    def to_text(self, symbols: bool = False) -> str:
        """The hand as readable text, turn by turn (suits as symbols with ``symbols``)."""
        names = [shown_name(name) for name in self.players]  # marjj, not marjj:5: as every table names it
        seat = [f"player {p} ({names[p]})" for p in (0, 1)]

        def card(index: int) -> str:
            return text.card(index, symbols)

        origin = f"of seed {self.seed}" if self.seed is not None else "from a given deal"
        lines = [
            f"Hand {self.hand} {origin} under {self.rules.label()}: "
            f"player 0 {names[0]}, player 1 {names[1]}",
            f"Dealer: player {self.dealer}. Upcard: {card(self.upcard)}; knock limit {self.knock_limit}"
            + (f"; scores x{self.multiplier}" if self.multiplier != 1 else ""),
        ]
        lines += [f"{seat[p]} is dealt {text.cards(self.dealt[p], symbols)}" for p in (0, 1)]
        for step, event in enumerate(self.events, 1):
            if event.kind is EventKind.RESHUFFLE:
                line = EVENT_PHRASES[EventKind.RESHUFFLE]
            elif event.kind is EventKind.DRAWN:
                line = f"the stock is down to {self.stock_left} cards: the hand is drawn"
            else:
                line = f"{seat[event.player]} " + EVENT_PHRASES[event.kind].format(
                    card=card(event.card) if event.card >= 0 else "")
            lines.append(f"{step:3}. {line}")
        if self.outcome is Outcome.DRAW:
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
            "multiplier": self.multiplier, "outcome": self.outcome.value, "winner": self.winner,
            "knocker": self.knocker, "points": self.points, "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood, "laid_off": self.laid_off, "turns": self.turns,
            "upcard_taken_by": self.upcard_taken_by, "deck": [card(index) for index in self.deck],
            "dealt": [cards(mask) for mask in self.dealt],
            "events": [{"kind": event.kind.value, "player": event.player,
                        "card": card(event.card) if event.card >= 0 else None} for event in self.events],
            "final_hands": [cards(mask) for mask in self.final_hands],
            "knocker_melds": [cards(meld) for meld in self.knocker_melds],
            "defender_melds": [cards(meld) for meld in self.defender_melds],
            "laid_off_cards": cards(self.laid_off_cards), "stock_left": self.stock_left,
            "actions": list(self.actions),
            "reshuffles": [[card(index) for index in stock] for stock in self.reshuffles],
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
    return hand_result(rules, (player_name(names[0]), player_name(names[1])),
                       None if deck is not None else seed, raw["record"], raw["deck"], raw["dealt"], raw["events"],
                       raw["reshuffles"], raw["final"], raw["knocker_sets"], raw["laid_off_cards"], raw["stock_left"])


def hand_result(rules: Rules, players: tuple[str, str], seed: int | None, record: dict[str, Any],
                deck: Sequence[int], dealt: tuple[int, int], events: Sequence[tuple[str, int, int]],
                reshuffles: Sequence[Sequence[int]], final: tuple[int, int], knocker_sets: int,
                laid_off_cards: int, stock_left: int) -> HandResult:
    """A ``HandResult`` of a finished hand as the native engine reports it (``record`` holds the
    record's columns and ``outcome`` by name)."""
    knocker = record["knocker"]
    knocker_melds: tuple[int, ...] = ()
    defender_melds: tuple[int, ...] = ()
    if knocker >= 0:
        knocker_melds = shown_melds(final[knocker], knocker_sets)
        remaining = final[1 - knocker] & ~laid_off_cards
        defender_melds = gincore.arrangements(remaining)[0] if remaining else ()
    moves = [(kind, -1 if player == gincore.NO_PLAYER else player, -1 if card == gincore.NO_CARD else card)
             for kind, player, card in events]
    return HandResult(
        rules=rules,
        players=players,
        seed=seed,
        deck=tuple(deck),
        dealt=dealt,
        events=tuple(Event(EventKind(kind), player, card) for kind, player, card in moves),
        final_hands=final,
        knocker_melds=knocker_melds,
        defender_melds=defender_melds,
        laid_off_cards=laid_off_cards,
        stock_left=stock_left,
        actions=tuple(actions_of(moves)),
        reshuffles=tuple(tuple(stock) for stock in reshuffles),
        **{**record, "outcome": Outcome(record["outcome"])},
    )


def _hand_terms(rules: Rules, upcard: int | None) -> tuple[int, int]:
    """The knock limit and the score multiplier of a hand under ``rules`` with that upcard (if known)."""
    if upcard is not None:
        return rules.knock_limit_for(upcard), rules.multiplier_for(upcard)
    if rules.oklahoma:
        raise InputError("under Oklahoma rules the upcard sets the knock limit and the multiplier: give the upcard")
    return rules.knock_limit, 1


def _going_out(deadwood: int, knock_limit: int) -> str | None:
    """How a discard leaving ``deadwood`` may end the hand: ``gin``, ``knock`` or None."""
    if deadwood == 0:
        return EventKind.GIN.value
    return EventKind.KNOCK.value if deadwood <= knock_limit else None


def _size(mask: int) -> int:
    return bin(mask).count("1")


def analyse_hand(hand: int, rules: Rules | None = None, *, drawn: int | None = None, from_pile: bool = False,
                 upcard: int | None = None) -> dict[str, Any]:
    """A hand held (a card mask of any size) as JSON-ready values: its deadwood and every
    minimum-deadwood arrangement; for 11 cards, what each discard leaves and whether it ends the hand
    under ``rules`` (the standard rules by default) and the hand's ``upcard`` (needed under Oklahoma).

    ``drawn`` is the card just drawn; ``from_pile`` says it came from the discard pile, so it is not
    a discard this turn. Under rules with big gin, an 11-card hand that melds whole says so
    (``big_gin``): it goes out without a discard.

    >>> hand = gincore.parse_cards("7H 8H 9H 9C 9S 9D 2S 3S 4S KD 5D")
    >>> report = analyse_hand(hand, Rules(knock_limit=5))
    >>> report["deadwood"], report["arrangements"][0]["deadwood_cards"]
    (15, '5D KD')
    >>> report["discards"][:2]
    [{'card': 'KD', 'deadwood': 5, 'ends_hand': 'knock'}, {'card': '5D', 'deadwood': 10, 'ends_hand': None}]
    >>> analyse_hand(hand, Rules.preset("oklahoma"), upcard=gincore.parse_cards("4C").bit_length() - 1)["knock_limit"]
    4
    """
    rules = Rules() if rules is None else check_rules(rules)
    if _size(hand) > MOST_ANALYSED_CARDS:
        raise InputError(f"a hand of {_size(hand)} cards is too large to analyse: at most {MOST_ANALYSED_CARDS} (the "
                         "least-deadwood arrangements of larger hands can number in the hundreds of thousands)")
    arrangements = gincore.arrangements(hand)
    report: dict[str, Any] = {
        "cards": gincore.format_cards(hand),
        "deadwood": gincore.deadwood(hand),
        "arrangements": [
            {
                "melds": [gincore.format_cards(meld) for meld in melds],
                "deadwood_cards": gincore.format_cards(hand & ~sum(melds)),
            }
            for melds in arrangements
        ],
    }
    if drawn is not None:
        report["drawn"] = gincore.card_text(drawn)
        report["from_pile"] = from_pile
    if _size(hand) == 11:
        knock_limit, multiplier = _hand_terms(rules, upcard)
        after = gincore.deadwood_after_discard(hand)
        if from_pile and drawn is not None:
            del after[drawn]  # a card taken from the pile is not discarded in the same turn (docs/rules.md#a-turn)
        report["knock_limit"] = knock_limit
        if multiplier != 1:
            report["multiplier"] = multiplier
        if rules.big_gin_bonus is not None and report["deadwood"] == 0:
            report["big_gin"] = True
        report["discards"] = [
            {"card": gincore.card_text(card), "deadwood": left, "ends_hand": _going_out(left, knock_limit)}
            for card, left in sorted(after.items(), key=lambda item: (item[1], -item[0]))
        ]
    return report


def knock_showdown(knocker: int, defender: int, rules: Rules | None = None, *,
                   upcard: int | None = None) -> dict[str, Any]:
    """The knock of ``knocker`` (10 cards, or 11: it first discards its best card, or goes big gin
    where the rules allow it) against ``defender`` (10 cards), as JSON-ready values: for each
    minimum-deadwood arrangement the knocker may show, the defender's best lay-off, the outcome and the
    points under ``rules`` (the standard rules by default; the hand's ``upcard`` is needed under
    Oklahoma, where it sets the knock limit and may double the score).

    >>> knocker = gincore.parse_cards("6H 7H 8H 9C 9D 9S 2S 3S 4S 5D KD")
    >>> defender = gincore.parse_cards("2H 3H 4H QC QD QH QS 9H 7S AC")
    >>> showdown = knock_showdown(knocker, defender)
    >>> showdown["knock_discard"], showdown["knocker_deadwood"]
    ('KD', 5)
    >>> [(shown["laid_off"], shown["outcome"], shown["points"]) for shown in showdown["showdowns"]]
    [('9H', 'knock', 3)]
    >>> gin = gincore.parse_cards("AC 2C 3C 4D 5D 6D 7H 8H 9H TH")
    >>> defender = gincore.parse_cards("2S 3S 4S QC QD QH QS 7S 9S KC")  # deadwood 7 + 9 + 10
    >>> knock_showdown(gin, defender, Rules(gin_bonus=31))["showdowns"][0]["points"]
    57
    """
    rules = Rules() if rules is None else check_rules(rules)
    size = _size(knocker)
    if _size(defender) != 10 or size not in (10, 11):
        raise InputError(f"a showdown needs a defender of 10 cards against a knocker of 10 or 11, got "
                         f"{_size(defender)} against {size}")
    if knocker & defender:
        raise InputError(f"the hands share {gincore.format_cards(knocker & defender)}")
    knock_limit, multiplier = _hand_terms(rules, upcard)
    report: dict[str, Any] = {"defender": gincore.format_cards(defender)}
    if multiplier != 1:
        report["multiplier"] = multiplier
    big_gin = size == 11 and rules.big_gin_bonus is not None and gincore.deadwood(knocker) == 0
    if size == 11 and not big_gin:
        after = gincore.deadwood_after_discard(knocker)
        discard = min(after, key=lambda card: (after[card], -card))  # least deadwood, highest card
        report["knock_discard"] = gincore.card_text(discard)
        knocker &= ~(1 << discard)
    left = gincore.deadwood(knocker)
    report["knocker_deadwood"] = left
    if left > knock_limit:
        report["verdict"] = f"cannot knock: deadwood {left} is over the limit {knock_limit}"
        return report
    options = []
    for melds in gincore.arrangements(knocker):
        if left == 0:  # gin or big gin: the defender lays nothing off
            against, laid = gincore.deadwood(defender), 0
            outcome, bonus = (Outcome.BIG_GIN, rules.big_gin_bonus) if big_gin else (Outcome.GIN, rules.gin_bonus)
            points = (bonus or 0) + against
        else:
            against, laid = gincore.layoff(defender, melds)
            outcome = Outcome.UNDERCUT if against <= left else Outcome.KNOCK
            points = left - against + rules.undercut_bonus if outcome is Outcome.UNDERCUT else against - left
        options.append({"melds": [gincore.format_cards(meld) for meld in melds], "laid_off":
                        gincore.format_cards(laid), "defender_deadwood": against, "outcome": outcome.value,
                        "winner": "defender" if outcome is Outcome.UNDERCUT else "knocker",
                        "points": points * multiplier})
    report["showdowns"] = options
    return report
