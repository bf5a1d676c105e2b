"""An open Gin hand: start from a deal or any position, step it one move at a time, copy it, deal again
what one player has not seen, and finish it natively.

``GameState`` moves through the same native transitions as the whole-hand loop, so the moves a hand of
``play_hand`` took (``HandResult.actions``, numbered as in :mod:`ginsim.gin.game.actions`), replayed on the
same deal, end in the same result. Under rules that shuffle the pile into a new stock, that takes the
hand's new stocks too: give the discard that spends the stock the next of ``HandResult.reshuffles``
(``apply(action, new_stock=...)``, as :func:`~ginsim.gin.review.replay.apply_recorded` does); without it
the state deals a new stock of its own, from the hand's stream where the players' coin flips have not
drawn, and the hand goes on otherwise.

>>> from ginsim import Rules, play_hand
>>> from ginsim.gin.game.actions import TAKE, REFUSE, KNOCK
>>> state = GameState.deal(Rules(), seed=1, index=5)
>>> state.phase, state.player, state.legal_actions()
(<Phase.OFFER: 0>, 1, [104, 105])
>>> state.apply(TAKE)
>>> state.phase, len(state.legal_actions())
(<Phase.DISCARD: 2>, 10)
>>> played = play_hand(Rules(), "simple,simple", seed=1, index=5)
>>> replay = GameState.deal(Rules(), seed=1, index=5)
>>> for action in played.actions:
...     replay.apply(action)
>>> replay.result.outcome, replay.result.points == played.points
(<Outcome.KNOCK: 'knock'>, True)

A copy plays out on its own, and a player's information set is explicit:

>>> outcomes = {GameState.deal(Rules(), seed=2).play_out("simple,greedy", seed=s).outcome for s in range(20)}
>>> outcomes <= {"knock", "undercut", "gin", "draw"}
True
>>> state = GameState.deal(Rules(), seed=3)
>>> guess = state.determinize(player=0, seed=7)
>>> guess.hands[0] == state.hands[0], guess.view(0) == state.view(0)
(True, True)
"""
from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import numpy as np

import gincore
from gincore.errors import InputError
from ginsim.core import text
from ginsim.core.checks import as_integer, check_seed, integer
from ginsim.core.streams import derive
from ginsim.gin.game.actions import Action
from ginsim.gin.game.hand import HandResult, MatchContext, hand_result
from ginsim.gin.game.native import SCORE_LIMIT, NativeRules, NativeState, check_rules, native_config, run_key
from ginsim.gin.game.players import PlayerSpec, has_python, resolve_players
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.strategies import View

__all__ = ["GameState", "Phase"]


class Phase(IntEnum):
    """Where a hand stands: whose decision it is and of which kind."""

    OFFER = 0
    """The upcard is offered to the non-dealer, then the dealer, who take it or pass."""
    DRAW = 1
    """Take the face-up card or draw from the stock."""
    DISCARD = 2
    """Discard, knock or go gin (or big gin) with the eleven cards held."""
    DONE = 3
    """The hand is over, and ``result`` holds it."""


def _native_rules(rules: Rules) -> NativeRules:
    return _RULES.setdefault(rules, NativeRules(native_config(check_rules(rules))))


_RULES: dict[Rules, NativeRules] = {}


def _key(seed: int) -> int:
    """A 64-bit stream key from a seed of any size."""
    return int(derive(seed, "gin_state").generate_state(1, np.uint64)[0])


class GameState(NativeState):
    """A position of a Gin hand that can be stepped, copied and evaluated.

    Build one with :meth:`deal` or :meth:`from_cards`. The player to move (``player``) makes one of
    ``legal_actions()`` with ``apply``; ``clone`` copies; :meth:`view` is what a player may
    see; :meth:`determinize` deals again what a player has not seen; :meth:`play_out` finishes the
    hand with native strategies; ``result`` is the finished hand.
    """

    __slots__ = ()

    @classmethod
    def deal(cls, rules: Rules, seed: int = 0, index: int = 0, *, dealer: int | None = None,
             scores: tuple[int, int] | None = None, match: MatchContext | None = None) -> GameState:
        """Hand ``index`` of every run with ``seed``: the deal ``play_hand`` and ``simulate`` play
        (with ``dealer`` given, the same deck dealt by that player). ``scores`` (seat 0's, seat
        1's) makes it a hand of a match at those scores, as strategies see them; ``match`` makes it a
        hand of a match that the strategies know all of a simulated match's hand knows (its scores and
        what its earlier showdowns showed: :class:`~ginsim.gin.game.hand.MatchContext`).

        >>> seen = MatchContext(scores=(40, 75), late=(2, 0))
        >>> GameState.deal(Rules(), 1, match=seen).view(1).scores
        (40, 75)
        """
        integer("hand index", index, low=0, high=2**64 - 1)
        key0, key1 = run_key(check_seed(seed))
        first = -1 if dealer is None else _seat("dealer", dealer)
        if match is not None and scores is not None:
            raise InputError("give the scores or the match, not both (the match holds the scores)")
        known = match or MatchContext(scores=scores or (0, 0))
        score0, score1 = _scores(rules, known.scores)
        passed = _counts("match.passed", known.passed)
        late = _counts("match.late", known.late)
        state: GameState = cls.native_deal(_native_rules(rules), key0, key1, index, first, score0, score1,
                                           scores is not None or match is not None, passed, late)
        state.info = (rules, seed, index)
        return state

    @classmethod
    def from_cards(cls, rules: Rules, hands: Sequence[int | str], pile: Sequence[int] | str,
                   stock: Sequence[int] | str, dealer: int, *, player: int | None = None,
                   discarded_by: Sequence[int] | None = None, taken: Sequence[int | str] = (0, 0),
                   passed: Sequence[int | str] = (0, 0), turns: int | None = None, seed: int = 0,
                   scores: tuple[int, int] | None = None, upcard: int | str | None = None,
                   discarded: Sequence[int | str] = (0, 0), ever_taken: Sequence[int | str] = (0, 0)) -> GameState:
        """Any position: both ``hands`` (masks or card text), the discard ``pile`` bottom first (its
        first card is the upcard, which sets the hand's knock limit), the ``stock`` top first, the
        ``dealer``. Every card is in exactly one of them.

        With ten cards each, a pile of the upcard alone and a full stock of 31 it is the upcard offer
        (to the non-dealer; ``player`` may name the dealer, when the non-dealer has passed); with ten
        cards each otherwise, ``player`` is about to draw; a player holding eleven cards is about to
        discard. ``discarded_by`` says who discarded each pile card (-1 for the upcard; by default the
        players in turn, ending with the player who did not move last); ``taken`` and ``passed``
        (masks or text, by seat) are the face-up cards each took and still holds, and refused;
        ``turns`` the draws made so far (by default 31 less the stock, plus the cards taken). The
        state's reshuffles draw from ``seed``'s stream. ``upcard``: the hand's upcard once it has left
        the bottom of the pile (taken, or shuffled into a new stock); the pile's cards were then all
        discarded by the players. A taken upcard discarded again onto an empty pile is back at the
        bottom: give it as ``upcard`` with ``discarded_by`` naming the player who discarded it.
        ``discarded`` and ``ever_taken`` (by seat) add the face-up cards each player discarded, and
        took, earlier in the hand that neither the pile nor ``taken`` shows: the opponent model reads
        the whole record.

        >>> from gincore import format_cards
        >>> state = GameState.from_cards(Rules(), ["2C 3C 4C 5D 6D 7D 8H 9H TH KS",
        ...     "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"], "QH", format_cards(gincore.FULL_DECK & ~gincore.parse_cards(
        ...     "2C 3C 4C 5D 6D 7D 8H 9H TH KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS QH")), dealer=1, player=0)
        >>> state.phase, state.player  # a fresh deal: the upcard QH is offered to the non-dealer
        (<Phase.OFFER: 0>, 0)
        """
        masks = _masks("hands", hands)
        pile_cards, stock_cards = _cards("pile", pile), _cards("stock", stock)
        dealer = _seat("dealer", dealer)
        player = None if player is None else _seat("player", player)
        if not pile_cards:
            raise InputError("the pile must hold at least the upcard")
        seen = masks[0] | masks[1]
        if masks[0] & masks[1]:
            raise InputError(f"the hands share {gincore.format_cards(masks[0] & masks[1])}")
        for name, cards in (("pile", pile_cards), ("stock", stock_cards)):
            for card in cards:
                if seen >> card & 1:
                    raise InputError(f"{gincore.card_text(card)} of the {name} is also elsewhere")
                seen |= 1 << card
        if seen != gincore.FULL_DECK:
            missing = gincore.format_cards(gincore.FULL_DECK & ~seen)
            raise InputError(f"every card must be somewhere; missing: {missing}")
        sizes = [bin(mask).count("1") for mask in masks]
        took, refused = _masks("taken", taken), _masks("passed", passed)
        for seat in (0, 1):
            if took[seat] & ~masks[seat]:
                raise InputError(f"taken[{seat}] holds cards player {seat} does not hold")
        upcard_card = pile_cards[0] if upcard is None else _card("upcard", upcard)
        given = _owners(discarded_by) if discarded_by is not None else None
        # The upcard may have left the pile and come back to its bottom, discarded again onto an empty
        # pile: then a player, not the deal, put the bottom card there.
        moved = upcard_card != pile_cards[0] or (upcard is not None and given is not None and given[:1] in ([0], [1]))
        phase, mover = _phase(sizes, len(pile_cards) + moved, len(stock_cards), dealer, player)
        if phase is Phase.OFFER and mover == dealer:
            refused[1 - dealer] |= 1 << pile_cards[0]
        native_rules = _native_rules(rules)
        floor = rules.stock_floor
        if len(stock_cards) < floor or (phase is not Phase.DISCARD and len(stock_cards) == floor):
            raise InputError(f"the stock ({len(stock_cards)} cards) is at its floor of {floor}: the hand is over")
        owners = given if given is not None else _alternate(len(pile_cards), mover, phase, not moved)
        first_owners = (0, 1) if moved else (-1,)
        if len(owners) != len(pile_cards) or owners[0] not in first_owners or \
                any(owner not in (0, 1) for owner in owners[1:]):
            what = "0 or 1 for each pile card (the upcard has left the pile)" if moved else \
                "-1 for the upcard, then 0 or 1 for each pile card"
            raise InputError(f"discarded_by must give {what}")
        draws = (31 - len(stock_cards) + bin(took[0] | took[1]).count("1")) if turns is None else turns
        integer("turns", draws, low=0, high=5000)
        score0, score1 = _scores(rules, scores)
        state: GameState = cls.native_position(native_rules, _key(seed), (masks[0], masks[1]), pile_cards, owners,
                                    stock_cards, dealer, mover, int(phase), draws, tuple(took), tuple(refused),
                                    score0, score1, scores is not None, upcard_card if moved else -1,
                                    _seats(_masks("discarded", discarded)), _seats(_masks("ever_taken", ever_taken)))
        state.info = (rules, None, 0)
        return state

    @property
    def rules(self) -> Rules:
        """The rules of its hand."""
        if self.info is None:  # made by calling the class: the native side's InputError says so
            self.legal_mask()
        rules: Rules = self.info[0]
        return rules

    @property
    def phase(self) -> Phase:
        """Where the hand stands."""
        return Phase(self.phase_index)

    def moves(self) -> list[Action]:
        """The legal moves as :class:`~ginsim.gin.game.actions.Action` values (``legal_actions`` as
        numbers); either may be given to ``apply``.

        >>> [str(move) for move in GameState.deal(Rules(), seed=1).moves()]
        ['take the face-up card', 'refuse the face-up card']
        """
        return [Action(number) for number in self.legal_actions()]

    def view(self, player: int) -> View:
        """What ``player`` may see now (what a strategy is given): never the other hand or the stock."""
        return View.from_state(self.view_fields(player))

    def determinize(self, player: int, seed: int = 0, deadwood: int | None = None, tries: int = 1) -> GameState:
        """A full position consistent with everything ``player`` has seen and nothing else: the
        cards it has not seen dealt again (the opponent's unknown cards drawn by the opponent
        model's odds, the rest shuffled into the stock). ``player``'s view is unchanged.

        The odds say which cards the opponent holds, not how well they fit together; with
        ``deadwood``, of up to ``tries`` such deals the first whose opponent hand has that deadwood
        is kept (else the closest), as strong as a real opponent's hand is by then.

        >>> from gincore import deadwood
        >>> state = GameState.deal(Rules(), seed=3)
        >>> deadwood(state.determinize(0, seed=1, deadwood=40, tries=500).hands[1])
        40
        """
        wanted = -1 if deadwood is None else integer("deadwood", deadwood, low=0, high=200)
        copy: GameState = super().determinize(_seat("player", player), _key(seed), wanted,
                                              integer("tries", tries, low=1, high=1 << 20))
        return copy

    def play_out(self, players: Sequence[PlayerSpec] | str, seed: int = 0) -> HandResult:
        """Finish the hand here with two native strategies (by seat), their choices drawn from
        ``seed``'s stream; the finished hand."""
        names = resolve_players(players)
        if has_python(names):
            raise InputError("play_out takes native strategies only (names such as 'simple')")
        super().play_out([name.native(self.rules) for name in names], _key(seed))
        return self._result((names[0].name, names[1].name))

    @property
    def result(self) -> HandResult | None:
        """The finished hand (None while it goes on)."""
        return self._result(("player 0", "player 1")) if self.done else None

    def _result(self, players: tuple[str, str]) -> HandResult:
        fields: dict[str, Any] = self.record_fields()
        knocker_sets, laid = fields.pop("knocker_sets"), fields.pop("laid_off_cards")
        fields["outcome"] = ("knock", "undercut", "gin", "big_gin", "draw")[fields["outcome"]]
        rules, seed, index = self.info
        fields["hand"] = index
        dealt = (self.dealt[0], self.dealt[1])
        return hand_result(rules, players, seed, fields, self.deck, dealt, self.events(),
                           self.reshuffled_stocks(), self.hands, knocker_sets, laid, len(self.stock))

    def __repr__(self) -> str:
        return (f"<GameState {self.phase.name.lower()}: player {self.player} to move, "
                f"{len(self.stock)} in stock, pile top {gincore.card_text(self.pile[-1]) if self.pile else '-'}>")


def _seat(name: str, value: object) -> int:
    seat = as_integer(value)
    if seat not in (0, 1):
        raise InputError(f"{name} must be 0 or 1, got {value!r}")
    return seat


def _owners(values: Sequence[int]) -> list[int]:
    """Who discarded each pile card, as given (checked by the caller): -1, 0 or 1, never a bool or a float."""
    try:
        if isinstance(values, str):
            raise TypeError
        owners = [as_integer(value) for value in values]
    except TypeError:
        raise InputError(f"discarded_by must be a list of -1, 0 or 1, got {values!r}") from None
    return [-2 if owner is None else owner for owner in owners]


def _counts(name: str, values: Sequence[Any]) -> tuple[int, int]:
    """A pair of counts by seat (how often a match has shown something of each player)."""
    first, second = _pair(name, values)
    return integer(f"{name}[0]", first, low=0, high=2**31 - 1), integer(f"{name}[1]", second, low=0, high=2**31 - 1)


def _pair(name: str, values: Sequence[Any]) -> Sequence[Any]:
    if isinstance(values, str) or len(values) != 2:
        raise InputError(f"{name} must give two values, one per seat, got {values!r}")
    return values


def _scores(rules: Rules, scores: tuple[int, int] | None) -> tuple[int, int]:
    """Scores by seat of a hand of a match: both below the target, as a hand is played only then."""
    if scores is None:
        return 0, 0
    first, second = _pair("scores", scores)
    high = SCORE_LIMIT if rules.target is None else rules.target - 1
    return integer("scores[0]", first, low=0, high=high), integer("scores[1]", second, low=0, high=high)


def _seats(masks: list[int]) -> tuple[int, int]:
    return masks[0], masks[1]


def _masks(name: str, values: Sequence[int | str]) -> list[int]:
    return [_mask(f"{name}[{seat}]", value) for seat, value in enumerate(_pair(name, values))]


def _mask(name: str, value: int | str) -> int:
    if isinstance(value, str):
        return gincore.parse_cards(value)
    try:
        return gincore.check_mask(value)
    except (TypeError, ValueError) as error:
        raise InputError(f"{name}: {error}") from None


def _card(name: str, card: int | str) -> int:
    if not isinstance(card, str):
        return integer(name, card, low=0, high=51)
    return gincore.parse_card(card, name)


def _cards(name: str, cards: Sequence[int] | str) -> list[int]:
    if isinstance(cards, str):
        return text.parse_card_list(cards) if cards.strip() else []
    found = []
    for card in cards:
        found.append(integer(f"a card of the {name}", card, low=0, high=51))
    return found


def _phase(sizes: list[int], pile: int, stock: int, dealer: int, player: int | None) -> tuple[Phase, int]:
    if sorted(sizes) == [10, 11]:
        mover = sizes.index(11)
        if player is not None and player != mover:
            raise InputError(f"player {mover} holds eleven cards: it is player {mover}'s move, not {player}'s")
        return Phase.DISCARD, mover
    if sizes != [10, 10]:
        raise InputError(f"the hands must hold ten cards each, or ten and eleven; got {sizes[0]} and {sizes[1]}")
    if pile == 1 and stock == 31:
        mover = 1 - dealer if player is None else _seat("player", player)
        return Phase.OFFER, mover
    if player is None:
        raise InputError("say which player is about to draw (player=0 or 1)")
    return Phase.DRAW, _seat("player", player)


def _alternate(size: int, mover: int, phase: Phase, upcard_first: bool = True) -> list[int]:
    """Who discarded each pile card when nobody says: the players in turn, the last discard by the
    player who is not about to move (in the discard phase, the mover discarded the one before), the
    first card the upcard unless it has left the pile."""
    last = 1 - mover
    owners = [last if (size - 1 - i) % 2 == 0 else 1 - last for i in range(size)]
    return [-1, *owners[1:]] if upcard_first else owners
