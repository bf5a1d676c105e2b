"""A game of Gin a person plays against a built-in strategy, one decision at a time: what ``ginsim serve``
keeps for each game in play.

The person sits in seat 0, the strategy in seat 1. Each hand is a :class:`~ginsim.GameState` dealt from
the game's secret seed (hand ``j`` is ``GameState.deal(rules, seed, j, dealer=..., match=...)``); the
strategy's moves are chosen natively on a copy of the position (``GameState.choose``), the strategy knowing
what it knows in a simulated match (the scores and what the earlier showdowns showed), and made like the
person's, and the game is scored by :class:`~ginsim.gin.studies.matches.MatchScore`, the scoring of every
simulated game. A game is wholly given by its settings, its seed and the moves of its hands
(:meth:`PlayedGame.log`), so a saved game is resumed by playing its moves again.

What the person may see of a game in play is :meth:`PlayedGame.public`: their own hand, the face-up
cards, the sizes of the stock and of the opponent's hand, the cards the opponent took from the pile, and
the moves made; never the opponent's other cards, the order of the stock or the seed, until the hand
(for the seed, the game) is over.

>>> game = PlayedGame(GameSettings(opponent="simple", target=None), seed=7)
>>> game.public()["phase"] in ("offer", "draw")
True
>>> while not game.over:
...     seen = game.public()
...     game.act(seen["legal"][0]["action"]) if seen["phase"] != "hand_over" else game.next_hand()
>>> game.public()["phase"], game.record().hands[0].result is not None
('game_over', True)
"""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

import numpy as np

import gincore
from gincore.errors import InputError
from ginsim.core.checks import integer
from ginsim.core.streams import derive
from ginsim.gin.game.actions import NUM_ACTIONS, Action, MoveKind
from ginsim.gin.game.native import RECORD_COLUMNS, NativePlayers, RecordRow
from ginsim.gin.game.players import Player
from ginsim.gin.game.rules import PRESETS, Rules
from ginsim.gin.game.state import GameState, Phase
from ginsim.gin.review.replay import GameRecord, HandRecord
from ginsim.gin.studies.matches import MatchScore, late_knock, passed_knock

__all__ = ["BOT", "HUMAN", "OPPONENTS", "OWN_KNOCK_LIMIT", "TARGETS", "GameSettings", "OutOfTurn", "PlayedGame",
           "card_name", "choice_key"]

HUMAN: Final = 0
BOT: Final = 1
TARGETS: Final = (50, 100, 250, None)
"""The games offered: to 50, 100 or 250 points, or a single deal (``None``)."""
OWN_KNOCK_LIMIT: Final = tuple(name for name, rules in PRESETS.items() if rules.oklahoma or rules.knock_limit == 0)
"""The presets that set their own knock limit (Oklahoma's upcard, straight gin's none): no other is chosen."""
OPPONENTS: Final = ("reader", "learned", "marjj", "search", "defensive", "greedy", "simple", "gin", "random")
"""The strategies offered as opponents (the page orders them as levels by their ratings, weakest first);
``reader``, the strongest, is the default (it answers in a few milliseconds a decision). ``learned`` plays
only the rules it has weights for."""
_EVENT_WORDS: Final = {"take_upcard": "take", "pass_upcard": "pass", "draw_stock": "stock", "draw_discard": "pile",
                       "discard": "discard", "knock": "knock", "gin": "gin", "big_gin": "big_gin",
                       "reshuffle": "reshuffle"}
_HIDDEN_DRAWS: Final = ("draw_stock", "drawn")
"""Events whose card the opponent of the drawer never sees."""


class OutOfTurn(InputError):
    """A move or a deal asked for when the game is not there: not the person's turn, the hand or the game
    over, the hand still in play."""


def card_name(card: int) -> str:
    """A card as the pages write it: ``7H``, ``TD``.

    >>> card_name(0), card_name(51)
    ('AC', 'KS')
    """
    return gincore.card_text(card)


@dataclass(frozen=True)
class GameSettings:
    """What the new-game form asks: the rules preset, the target (``None``: one deal), the knock limit
    (``None``: the preset's), Hollywood scoring, who deals first (``"you"``, ``"opponent"`` or
    ``"random"``) and the opponent strategy.

    >>> GameSettings(preset="oklahoma", target=250).rules().target
    250
    >>> GameSettings(preset="nope")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: preset: no such preset 'nope' (the presets are standard, oklahoma, straight, \
knock5, last-card, reshuffle, eaai)
    """

    preset: str = "standard"
    target: int | None = 100
    knock_limit: int | None = None
    hollywood: bool = False
    first_dealer: str = "random"
    opponent: str = "reader"

    def __post_init__(self) -> None:
        if not isinstance(self.preset, str) or self.preset not in PRESETS:
            raise InputError(f"preset: no such preset {self.preset!r} (the presets are {', '.join(PRESETS)})")
        if not (self.target is None or type(self.target) is int) or self.target not in TARGETS:
            raise InputError(f"target: a game to 50, 100 or 250 points, or null for one deal; got {self.target!r}")
        if self.knock_limit is not None and (type(self.knock_limit) is not int or self.knock_limit not in (10, 5)):
            raise InputError(f"knock_limit: 10, 5 or null for the preset's; got {self.knock_limit!r}")
        if self.knock_limit is not None and self.preset in OWN_KNOCK_LIMIT:
            raise InputError(f"knock_limit: the {self.preset} preset sets its own knock limit ("
                             + ("the upcard's value" if PRESETS[self.preset].oklahoma else "gin only")
                             + "); leave it null")
        if not isinstance(self.hollywood, bool):
            raise InputError(f"hollywood: true or false; got {self.hollywood!r}")
        if self.hollywood and self.target is None:
            raise InputError("hollywood: Hollywood scoring needs a game to a target, not a single deal")
        if self.first_dealer not in ("you", "opponent", "random"):
            raise InputError(f"first_dealer: you, opponent or random; got {self.first_dealer!r}")
        if not isinstance(self.opponent, str) or self.opponent not in OPPONENTS:
            raise InputError(f"opponent: one of {', '.join(OPPONENTS)}; got {self.opponent!r}")
        rules = self.rules()
        try:  # the opponent must be able to play these rules (learned has weights for some)
            Player.of(self.opponent).native(rules)
        except InputError:
            raise InputError(f"opponent: {self.opponent} was not trained for {rules.label()}; choose another "
                             "opponent or other rules") from None

    @classmethod
    def of(cls, data: object) -> GameSettings:
        """Settings from parsed JSON, every field checked (unknown fields refused)."""
        if not isinstance(data, dict):
            raise InputError("the settings are a JSON object")
        known = {name for name in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InputError(f"{unknown[0]}: no such setting (the settings are {', '.join(sorted(known))})")
        return cls(**data)

    @classmethod
    def stored(cls, data: dict[str, Any]) -> GameSettings:
        """Settings as the games database keeps them: as :meth:`of`, but a knock limit kept with a preset
        that sets its own (once accepted and ignored) is dropped, so that such a game plays on as it was."""
        if data.get("preset") in OWN_KNOCK_LIMIT:
            data = {**data, "knock_limit": None}
        return cls.of(data)

    def rules(self) -> Rules:
        """The rules of the game."""
        rules = PRESETS[self.preset].replace(target=self.target, hollywood=self.hollywood)
        if self.knock_limit is not None:  # only where the preset has a fixed limit (checked above)
            rules = rules.replace(knock_limit=self.knock_limit)
        return rules

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Hand:
    """The hand in play: its position, the scores it was dealt at, and every move made in it."""

    state: GameState
    scores: tuple[int, int] | None
    moves: list[int] = field(default_factory=list)


class PlayedGame:
    """A game in play (or over) between a person (seat 0) and the settings' strategy (seat 1).

    ``seed`` draws the deals and the strategy's choices (a fresh secret one by default); ``log`` (a
    :meth:`log`) plays a saved game's moves again, so that the game stands where it was left. Raises
    ``InputError`` with one line for a move that is not the person's to make or not legal.
    """

    def __init__(self, settings: GameSettings, seed: int | None = None, log: Sequence[Sequence[int]] = ()) -> None:
        self.settings = settings
        self.rules = settings.rules()
        self.seed = secrets.randbits(63) if seed is None else integer("seed", seed, 0, 2**63 - 1)
        first = {"you": HUMAN, "opponent": BOT}.get(settings.first_dealer)
        if first is None:
            first = derive(self.seed, "browser_first_dealer").generate_state(1)[0] % 2
        self.score = MatchScore(self.rules, first_dealer=int(first))
        self.player = Player.of(settings.opponent)
        """The strategy the person plays against, built once."""
        self._players = NativePlayers([self.player.native(self.rules)] * 2)
        self.hands: list[HandRecord] = []
        self._logs: list[list[int]] = []
        self.hand: _Hand | None = None
        self._deal()
        for index, moves in enumerate(log):  # every move is logged, the strategy's too: made again as they were
            if index:
                self._deal()
            for action in moves:
                self._make(action)
        self._bot_moves()

    # --- moves ------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended (its last hand scored)."""
        return self.score.over

    def act(self, action: int) -> None:
        """Make the person's move ``action`` (an action number), then the strategy's moves until it is
        the person's turn again or the hand is over."""
        hand = self._open_hand()
        if hand.state.player != HUMAN:
            raise OutOfTurn("it is not your move")
        self._make(action)
        self._bot_moves()

    def next_hand(self) -> None:
        """Deal the next hand once the one before is scored."""
        if self.over:
            raise OutOfTurn("the game is over")
        if self.hand is not None and not self.hand.state.done:
            raise OutOfTurn("the hand is still in play")
        self._deal()
        self._bot_moves()

    def _open_hand(self) -> _Hand:
        if self.over:
            raise OutOfTurn("the game is over")
        if self.hand is None or self.hand.state.done:
            raise OutOfTurn("the hand is over: deal the next one")
        return self.hand

    def _deal(self) -> None:
        # The strategy knows what it knows in a simulated match: the scores and the earlier showdowns.
        scores = self.score.shown() if self.rules.target is not None else None
        state = GameState.deal(self.rules, self.seed, self.score.hands, dealer=self.score.dealer,
                               match=self.score.context())
        self.hand = _Hand(state, scores)

    def _make(self, action: int) -> None:
        hand = self._open_hand()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InputError(f"an action is a number, got {action!r}")
        if not hand.state.is_legal(action):
            raise InputError(f"{Action(int(action)) if 0 <= action < NUM_ACTIONS else action} is not a legal move now")
        hand.state.apply(int(action))
        hand.moves.append(int(action))
        if hand.state.done:
            self._score(hand)

    def _bot_moves(self) -> None:
        hand = self.hand
        while hand is not None and not hand.state.done and hand.state.player == BOT:
            self._make(hand.state.choose(self._players, choice_key(self.seed, self.score.hands, len(hand.moves))))

    def _score(self, hand: _Hand) -> None:
        result = hand.state.result
        assert result is not None
        self.hands.append(HandRecord.of_result(result, hand.scores, len(self.hands)))
        self._logs.append(list(hand.moves))
        showdown = _record_row(hand.state)
        self.score.remember(passed_knock(showdown), late_knock(showdown, self.rules))
        self.score.add(result.dealer, result.winner, result.points)

    # --- what is kept and what is shown -------------------------------------------------------------------

    def log(self) -> list[list[int]]:
        """The moves of every hand dealt, in order: with the settings and the seed, the whole game."""
        moves = [list(played) for played in self._logs]
        if self.hand is not None and not self.hand.state.done:
            moves.append(list(self.hand.moves))
        return moves

    def record(self) -> GameRecord:
        """The game's record (as ``ginsim play --save`` writes it): the hands played to their end; the
        seed only once the game is over (it would tell the deals still to come)."""
        totals = None
        if self.over:
            row = self.score.result()
            totals = (row["total_0"], row["total_1"])
        return GameRecord(self.rules, ("you", self.settings.opponent), tuple(self.hands),
                          seed=self.seed if self.over else None, totals=totals)

    def public(self) -> dict[str, Any]:
        """What the person may see now, as JSON-ready values (see the module)."""
        hand = self.hand
        assert hand is not None
        state = hand.state
        view = state.view(HUMAN)
        data: dict[str, Any] = {
            "settings": self.settings.to_json(),
            "rules": self.rules.to_dict(),
            "opponent": self.settings.opponent,
            "hand_number": self.score.hands + (0 if state.done else 1),
            "move_count": len(hand.moves),  # sent back with a move: a move sent twice is refused
            "dealer": state.dealer,
            "knock_limit": view.knock_limit,
            "multiplier": view.multiplier,
            "upcard": card_name(view.upcard),
            "stock": view.stock_size,
            "pile": [card_name(card) for card in view.discard_pile],
            "score": self._score_sheet(),
        }
        if state.done:
            data["phase"] = "game_over" if self.over else "hand_over"
            data["result"] = self._hand_end(state)
            data["moves"] = self._moves(state, reveal=True)
            if self.over:
                data["game"] = self.score.result()
            return data
        data["phase"] = {Phase.OFFER: "offer", Phase.DRAW: "draw", Phase.DISCARD: "discard"}[state.phase]
        data["your_turn"] = state.player == HUMAN
        data.update(_arranged(view.hand))
        data["opponent_cards"] = len(gincore.cards_of(state.hands[BOT]))
        data["opponent_took"] = [card_name(card) for card in gincore.cards_of(view.opponent_took)]
        data["drawn"] = card_name(view.drawn_card) if view.drawn_card >= 0 else None
        data["drawn_from_pile"] = bool(view.drawn_from_pile) if view.drawn_card >= 0 else None
        data["legal"] = self._legal(state) if state.player == HUMAN else []
        if state.phase is Phase.DISCARD and state.player == HUMAN:
            data["after_discard"] = {card_name(card): gincore.deadwood(view.hand & ~(1 << card))
                                     for card in gincore.cards_of(view.hand)}
        data["moves"] = self._moves(state, reveal=False)
        return data

    def _legal(self, state: GameState) -> list[dict[str, Any]]:
        found = []
        for number in state.legal_actions():
            move = Action(number)
            item: dict[str, Any] = {"action": number, "kind": move.kind.value}
            if move.kind in (MoveKind.DISCARD, MoveKind.KNOCK):
                item["card"] = card_name(move.card)
                left = gincore.deadwood(state.hands[HUMAN] & ~(1 << move.card))
                item["deadwood"] = left
                if move.kind is MoveKind.KNOCK and left == 0:
                    item["kind"] = "gin"
            found.append(item)
        return found

    def _moves(self, state: GameState, reveal: bool) -> list[dict[str, Any]]:
        """The hand's moves so far as the person saw them: the opponent's stock draws without their card
        while the hand is in play."""
        moves = []
        for kind, player, card in state.events():
            if kind not in _EVENT_WORDS:
                continue
            hidden = player == BOT and kind in _HIDDEN_DRAWS and not reveal
            knocked = kind in ("knock", "gin") and player == BOT and not reveal
            moves.append({"player": player, "move": _EVENT_WORDS[kind],
                          "card": None if hidden or knocked or not 0 <= card < 52 else card_name(card)})
        return moves

    def _score_sheet(self) -> dict[str, Any]:
        """The score as a Gin pad keeps it: each hand's points to its winner in every game they counted in
        (Hollywood's three games side by side), the running totals, the hands won (boxes) in each game;
        and once the game is over, each game's end written out as its sum (:meth:`MatchScore.game_totals`)."""
        pad = MatchScore(self.rules, first_dealer=self.score.first_dealer if self.score.first_dealer >= 0 else None)
        rows = []
        for record in self.hands:
            assert record.result is not None
            before = [list(game) for game in pad.score]
            pad.add(record.dealer, record.result.winner, record.result.points)
            totals = [list(game) if game != was else None for game, was in zip(pad.score, before, strict=True)]
            rows.append({"hand": record.hand + 1, "winner": record.result.winner, "points": record.result.points,
                         "outcome": record.result.outcome.value, "totals": totals})
        sheet: dict[str, Any] = {
            "games": [list(game) for game in self.score.score], "open": list(self.score.open_games),
            "hands_won": list(self.score.hands_won), "boxes": [list(won) for won in self.score.won_in_game],
            "hands": self.score.hands, "next_dealer": self.score.dealer, "rows": rows}
        if self.over and self.rules.target is not None:
            sheet["game_totals"] = self.score.game_totals()
        return sheet

    def _hand_end(self, state: GameState) -> dict[str, Any]:
        result = state.result
        assert result is not None
        return {
            "outcome": result.outcome.value, "winner": result.winner, "knocker": result.knocker,
            "points": result.points, "multiplier": result.multiplier,
            "knocker_deadwood": result.knocker_deadwood, "defender_deadwood": result.defender_deadwood,
            "hands": [[card_name(card) for card in gincore.cards_of(hand)] for hand in result.final_hands],
            "laid_down": [_laid_down(result, seat) for seat in (HUMAN, BOT)],
            "breakdown": _breakdown(result, self.rules),
            "stock_floor": self.rules.stock_floor,
        }


def choice_key(seed: int, hand: int, move: int) -> int:
    """The key of the random choices a strategy makes for move ``move`` of hand ``hand`` of the game with
    ``seed`` (a key a decision at a time, so that a game played again from its log goes on as it would have)."""
    return int(derive(seed, "browser_choices", hand, move).generate_state(1, np.uint64)[0])


def _record_row(state: GameState) -> RecordRow:
    """A finished hand's record as the match loop reads its showdown."""
    fields = state.record_fields()
    return RecordRow(*(fields[column] for column in RECORD_COLUMNS))


def _arranged(hand: int) -> dict[str, Any]:
    """A hand arranged: the melds of a least-deadwood arrangement, then the deadwood cards by rank."""
    melds = gincore.arrangements(hand)[0]
    groups = sorted((gincore.cards_of(meld) for meld in melds), key=lambda cards: (min(c % 13 for c in cards), cards))
    loose = sorted(gincore.cards_of(hand & ~sum(melds)), key=lambda card: (card % 13, card // 13))
    return {"melds": [[card_name(card) for card in meld] for meld in groups],
            "deadwood_cards": [card_name(card) for card in loose], "deadwood": gincore.deadwood(hand)}


def _laid_down(result: Any, seat: int) -> dict[str, Any]:
    """A hand as the showdown laid it down: its melds (the knocker's each with the defender's cards laid
    off on it, in the order they were laid), then its deadwood (the defender's after its lay-offs). A
    drawn hand is shown arranged as well as it goes."""
    hand = result.final_hands[seat]
    if result.knocker < 0:
        arranged = _arranged(hand)
        return {"melds": [{"cards": meld, "laid_off": []} for meld in arranged["melds"]],
                "deadwood": arranged["deadwood_cards"], "deadwood_points": arranged["deadwood"]}
    knocker = seat == result.knocker
    melds = result.knocker_melds if knocker else result.defender_melds
    laid_off = 0 if knocker else result.laid_off_cards
    onto: dict[int, list[str]] = {meld: [] for meld in melds}
    if knocker:
        for card, meld in _layoffs(gincore.cards_of(result.laid_off_cards), melds):
            onto.setdefault(meld, []).append(card_name(card))
    loose = sorted(gincore.cards_of(hand & ~sum(melds) & ~laid_off), key=lambda card: (card % 13, card // 13))
    ordered = sorted(melds, key=lambda meld: (min(c % 13 for c in gincore.cards_of(meld)), gincore.cards_of(meld)))
    return {"melds": [{"cards": [card_name(card) for card in gincore.cards_of(meld)], "laid_off": onto[meld]}
                      for meld in ordered],
            "deadwood": [card_name(card) for card in loose],
            "deadwood_points": result.knocker_deadwood if knocker else result.defender_deadwood}


def _breakdown(result: Any, rules: Rules) -> list[dict[str, Any]]:
    """A hand's points as the sum they are, term by term (they add up to ``result.points``): the deadwood
    counted, the bonus, and what a spade upcard's doubling adds. A drawn hand has none."""
    outcome = result.outcome.value
    kd, dd = result.knocker_deadwood, result.defender_deadwood
    if outcome == "draw":
        return []
    if outcome == "undercut":  # the defender scores the difference the other way, and the bonus
        terms = [{"term": "knocker_deadwood", "value": kd}, {"term": "defender_deadwood", "value": -dd},
                 {"term": "undercut_bonus", "value": rules.undercut_bonus}]
    else:
        terms = [{"term": "defender_deadwood", "value": dd}, {"term": "knocker_deadwood", "value": -kd}]
        if outcome == "gin":
            terms.append({"term": "gin_bonus", "value": rules.gin_bonus})
        elif outcome == "big_gin":
            terms.append({"term": "big_gin_bonus", "value": rules.big_gin_bonus or 0})
    if result.multiplier > 1:
        subtotal = sum(term["value"] for term in terms)
        terms.append({"term": "spade_upcard", "value": subtotal * (result.multiplier - 1), "factor": result.multiplier})
    return terms


def _layoffs(laid: list[int], melds: Sequence[int]) -> list[tuple[int, int]]:
    """Each laid-off card with the knocker's meld it went onto, in an order that can be laid one by one
    (a run's chains grow outwards)."""
    grown = list(melds)
    left = list(laid)
    found = []
    while left:
        for card in left:
            for place, meld in enumerate(grown):
                if _fits(card, meld):
                    found.append((card, melds[place]))
                    grown[place] |= 1 << card
                    left.remove(card)
                    break
            else:
                continue
            break
        else:  # the engine laid off a card no meld takes: show it on none rather than fail the page
            found.extend((card, 0) for card in left)
            break
    return found


def _fits(card: int, meld: int) -> bool:
    cards = gincore.cards_of(meld)
    if len({c % 13 for c in cards}) == 1:
        return card % 13 == cards[0] % 13
    suit, ranks = cards[0] // 13, [c % 13 for c in cards]
    return card // 13 == suit and (card % 13 == min(ranks) - 1 or card % 13 == max(ranks) + 1)

