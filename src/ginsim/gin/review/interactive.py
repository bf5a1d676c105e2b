"""Gin Rummy in the terminal: a person plays a whole game against a built-in strategy (``ginsim play``).

The person is a Python :class:`~ginsim.gin.game.strategies.Strategy`, :class:`HumanStrategy`, that asks each
question on the terminal; the native hand loop plays the hands and the game is scored by
``ginsim.gin.studies.matches.play_match``, the same code that scores simulated games. Between the two sits
``_TracedTable``: it plays each hand with its trace, shows how the hand ended, and hands the
record on to ``play_match``.

Hand ``j`` of a game with seed ``s`` is dealt from the deck of hand ``j`` of match 0 in
``ginsim run --matches N --seed s``; who deals follows the game's own results.

Reading goes through a :class:`Console`, so a script (or a test) can answer instead of a person:

>>> from ginsim import Rules
>>> shown = []
>>> def answers(prompt):   # knock at once, otherwise take the defaults
...     return "y" if prompt.startswith("Knock") else ""
>>> game = play_game(Rules(target=20), "simple", seed=10, console=Console(answers, shown.append))
>>> game.finished, game.totals
(True, (378, 0))
>>> for line in shown[-3:]:
...     print(line)
Game over after 2 hands: you win, 378 to 0.
  you      39 points + 2 boxes x 25 + game 100 = 189, shutout x 2 = 378
  simple   0 points + 0 boxes x 25 = 0
"""
from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, TypeVar

import gincore
from gincore.errors import InputError
from ginsim.core import text
from ginsim.core.checks import check_seed
from ginsim.gin.game.actions import Action, MoveKind
from ginsim.gin.game.hand import EVENT_PHRASES, GOING_OUT, EventKind, MatchContext, Outcome, shown_melds
from ginsim.gin.game.native import Engine, RecordRow, StrategyError, match_key, native_config
from ginsim.gin.game.players import PlayerSpec, display_name, native_spec
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.strategies import Strategy, View
from ginsim.gin.review.hints import Hints
from ginsim.gin.review.replay import GameRecord, HandRecord, hand_of_trace, play_match_hand, record_row
from ginsim.gin.studies.matches import play_match

__all__ = [
    "Console",
    "GameResult",
    "HumanStrategy",
    "InputEnded",
    "QuitGame",
    "Stop",
    "play_game",
    "read_line",
]

if TYPE_CHECKING:
    from ginsim.gin.game.native import TracedHand

_Answer = TypeVar("_Answer")
HUMAN: Final = 0
"""The person's seat; the built-in strategy sits in seat 1."""
_PILE_SHOWN: Final = 12
HELP: Final = """\
Answer each question, or type q to quit the game, ? for this help.
  upcard and knock questions: y or n; Enter takes the answer in capitals
    ([y/N] means no).
  drawing: s (or Enter) draws from the stock; p takes the top card of the
    discard pile.
  discarding: a card as text (7H, TD, 10s; a suit symbol works too) or its
    number in the line under your hand; Enter discards the suggested card
    (the one that leaves the least deadwood).
With --hints, Enter takes the hinted move; each question says what Enter does.
Your hand is shown arranged: [melds] first, then the deadwood cards by rank."""


class QuitGame(Exception):
    """The person typed ``q``: the game stops after this question."""


class InputEnded(QuitGame):
    """The input ended (end of file) while a question waited for an answer."""


_LONGEST_ANSWER: Final = 100
"""The longest answer read (and echoed) whole: every real answer is a few letters."""


def read_line(prompt: str) -> str | None:
    """One line typed at the terminal after ``prompt``; ``None`` at the end of the input.

    An answer that comes from a script rather than a terminal is echoed, so that the output reads
    like a session.
    """
    try:
        line = input(prompt)
    except EOFError:
        print()
        return None
    if not sys.stdin.isatty():
        print(line if len(line) <= _LONGEST_ANSWER else f"{line[:_LONGEST_ANSWER]}... ({len(line):,} characters)")
    return line


@dataclass
class Console:
    """Where the game asks and tells: ``read(prompt)`` returns a line (``None`` at the end of the
    input), ``write(text)`` shows a line; ``symbols`` shows suits as symbols instead of letters."""

    read: Callable[[str], str | None] = read_line
    write: Callable[[str], None] = print
    symbols: bool = False

    def card(self, card: int) -> str:
        return text.card(card, self.symbols)

    def cards(self, cards: int | Iterable[int]) -> str:
        return text.cards(cards, self.symbols)

    def hand(self, hand: int, melds: Sequence[int] | None = None) -> str:
        """A hand as melds and deadwood: ``melds`` if given, else a least-deadwood arrangement."""
        if melds is None:
            return text.hand_text(hand, self.symbols)
        return text.melds_text(melds, hand, self.symbols)


def _arranged(hand: int) -> tuple[list[list[int]], list[int]]:
    """The melds of a least-deadwood arrangement (lowest rank first) and the deadwood by rank."""
    melds = gincore.arrangements(hand)[0]
    groups = sorted((gincore.cards_of(meld) for meld in melds),
                    key=lambda cards: (min(card % 13 for card in cards), cards))
    return groups, text.by_rank(hand & ~sum(melds))


def _numbered(console: Console, hand: int) -> tuple[list[int], str, str]:
    """The cards in the order shown, the arranged hand, and the position numbers lined up under it."""
    groups, deadwood = _arranged(hand)
    order: list[int] = []
    cards_line: list[str] = []
    numbers_line: list[str] = []

    def put(text: str, number: str = "") -> None:
        cards_line.append(text)
        numbers_line.append(number.rjust(len(text)))

    def put_card(card: int) -> None:
        order.append(card)
        put(console.card(card), str(len(order)))

    for meld in groups:
        put("[")
        for position, card in enumerate(meld):
            put(" " if position else "")
            put_card(card)
        put("] ")
    for card in deadwood:
        put_card(card)
        put(" ")
    return order, "".join(cards_line).rstrip(), "".join(numbers_line).rstrip()


def _limit_text(view: View) -> str:
    if view.knock_limit == 0:
        return "gin only (knock limit 0)"
    return f"knock at {view.knock_limit} or less"


class HumanStrategy(Strategy):
    """A player whose every choice is asked on a :class:`Console`.

    Before each decision it shows what its player may see: the opponent's last moves, the stock,
    the discard pile, the hand arranged into melds and deadwood with its deadwood count, the hand's
    knock limit and multiplier. A knock is asked only when the engine offers one (that is, when the
    chosen discard leaves deadwood within the limit). Typing ``q`` raises :class:`QuitGame`, the end
    of the input :class:`InputEnded`; the engine stops the hand and re-raises either as the
    ``__cause__`` of a ``StrategyError``.
    """

    name = "you"

    def __init__(self, console: Console, opponent: str, hints: Hints | None = None) -> None:
        self.console = console
        self.opponent = opponent
        self.hints = hints
        self._hand_index = -1
        self._pile_seen: tuple[int, ...] = ()
        self._passed_seen = 0
        self._stock_seen = 0
        # What a view does not say: the face-up cards this player took and holds, and refused; by seat,
        # every face-up card discarded and taken in the hand so far.
        self._took = self._passed = 0
        self._history = ([0, 0], [0, 0])
        self._discarded = -1

    # --- questions ------------------------------------------------------------------------------

    def _ask(self, prompt: str, parse: Callable[[str], _Answer]) -> _Answer:
        while True:
            line = self.console.read(prompt)
            if line is None:
                raise InputEnded("the input ended")
            answer = line.strip()
            if len(answer) > _LONGEST_ANSWER:  # not repeated back whole
                self.console.write(f"  An answer of {len(answer):,} characters? Answer in a few letters (? for help).")
                continue
            if answer.lower() in ("q", "quit", "exit"):
                raise QuitGame("quit")
            if answer in ("?", "h", "help"):
                self.console.write(HELP)
                continue
            try:
                return parse(answer)
            except ValueError as reason:
                self.console.write(f"  {reason}")

    def _yes_no(self, question: str, default: bool, hinted: bool = False) -> bool:
        """A yes-or-no question; Enter answers ``default`` (the hint's answer when ``hinted``, which the
        prompt says)."""
        def parse(answer: str) -> bool:
            if not answer:
                return default
            if answer.lower() in ("y", "yes"):
                return True
            if answer.lower() in ("n", "no"):
                return False
            raise InputError(f"{answer!r}? Answer y or n (Enter: {'y' if default else 'n'}; q quits).")

        choices = "Y/n" if default else "y/N"
        enter = f"; Enter: {'y' if default else 'n'}, as hinted" if hinted else ""
        return self._ask(f"{question} [{choices}{enter}] ", parse)

    def _hinted(self) -> Action | None:
        """The hint's best move for the decision just hinted at (None without hints)."""
        verdict = self.hints.verdict if self.hints is not None else None
        return verdict.options[0].action if verdict is not None and verdict.options else None

    # --- what the player sees ---------------------------------------------------------------------

    def _start_hand(self, view: View) -> None:
        self._hand_index = view.hand_index
        self._pile_seen = (view.upcard,)
        self._passed_seen = 0
        self._stock_seen = view.stock_size
        self._took = self._passed = 0
        self._history = ([0, 0], [0, 0])
        dealer = "You deal" if view.dealer == view.player else f"{self.opponent} deals"
        doubled = f"; scores x{view.multiplier} this hand" if view.multiplier != 1 else ""
        self.console.write(f"{dealer}. Upcard {self.console.card(view.upcard)}: {_limit_text(view)}{doubled}.")

    def _narrate(self, view: View) -> None:
        """Tell what the opponent did since this player last acted (from the pile and the stock alone:
        what a player at the table sees)."""
        if view.hand_index != self._hand_index:
            self._start_hand(view)
        opponent, card = self.opponent, self.console.card
        old, new = self._pile_seen, view.discard_pile
        refused = view.opponent_passed & ~self._passed_seen
        by_opponent = bool(view.discarded_by) and view.discarded_by[-1] == 1 - view.player
        moves: list[str] = []
        if view.stock_size > self._stock_seen:
            moves.append("the discard pile but its top card was shuffled into a new stock")
            if by_opponent and new[-1:] != old[-1:]:
                moves.append(f"{opponent} discarded {card(new[-1])}")
        elif new == old:
            if refused:
                moves.append(f"{opponent} refused {self.console.cards(refused)}")
        elif old and len(new) == len(old) and new[:-1] == old[:-1] and view.opponent_took >> old[-1] & 1:
            taken = (f"the upcard {card(old[-1])}" if old == (view.upcard,) and view.turns <= 2
                     else f"{card(old[-1])} from the pile")
            moves.append(f"{opponent} took {taken} and discarded {card(new[-1])}")
        elif new[:-1] == old and by_opponent:
            moves.append(f"{opponent} drew from the stock and discarded {card(new[-1])}")
        elif by_opponent:
            moves.append(f"{opponent} discarded {card(new[-1])}")
        if moves:
            self.console.write("; ".join(moves) + ".")
        self._seen(view, new)

    def _seen(self, view: View, pile: tuple[int, ...]) -> None:
        self._pile_seen = pile
        self._passed_seen = view.opponent_passed
        self._stock_seen = view.stock_size

    def _table(self, view: View) -> None:
        pile = [self.console.card(card) for card in view.discard_pile]
        parts = (["..."] if len(pile) > _PILE_SHOWN else []) + pile[:-1][-(_PILE_SHOWN - 1):]
        parts.append(f"[{pile[-1]}]" if pile else "empty")
        line = f"Stock {view.stock_size} | pile {' '.join(parts)}"
        if view.opponent_took:
            took = self.console.cards(text.by_rank(view.opponent_took))
            holds = f"{self.opponent} holds from the pile {took}"
            line += f" | {holds}" if len(line) + len(holds) + 3 <= 80 else f"\n  {holds}"  # within 80 columns
        self.console.write(line)

    def _show_hand(self, view: View) -> None:
        doubled = f", scores x{view.multiplier}" if view.multiplier != 1 else ""
        self.console.write(f"Your hand: {self.console.hand(view.hand)}  "
                           f"(deadwood {view.deadwood}; {_limit_text(view)}{doubled})")

    # --- the Strategy protocol --------------------------------------------------------------------

    def take_upcard(self, view: View) -> bool:
        self._narrate(view)
        self._table(view)
        self._show_hand(view)
        self._hint(view)
        hinted = self._hinted()
        taken = self._yes_no(f"Take the upcard {self.console.card(view.top)}?",
                             hinted is not None and hinted.kind is MoveKind.TAKE, hinted is not None)
        return self._face_up(view, taken)

    def _hint(self, view: View) -> None:
        discarded, taken = self._history
        for card, owner in zip(view.discard_pile, view.discarded_by, strict=True):
            if owner >= 0:
                discarded[owner] |= 1 << card
        taken[1 - view.player] |= view.opponent_took
        if view.drawn_from_pile:
            taken[view.player] |= 1 << view.drawn_card
        if self.hints is not None:
            self.console.write(self.hints.before(view, self._took, self._passed, (discarded[0], discarded[1]),
                                                 (taken[0], taken[1])))

    def _face_up(self, view: View, taken: bool) -> bool:
        if taken:
            self._seen(view, view.discard_pile[:-1])
        else:
            self._passed |= 1 << view.top
        return taken

    def take_discard(self, view: View) -> bool:
        self._narrate(view)
        self._table(view)
        self._show_hand(view)
        top = self.console.card(view.top)

        self._hint(view)
        hinted = self._hinted()
        pile = hinted is not None and hinted.kind is MoveKind.TAKE

        def parse(answer: str) -> bool:
            word = answer.lower()
            if not word:
                return pile
            if word in ("s", "stock"):
                return False
            if word in ("p", "pile", "t", "take") or _same_card(answer, view.top):
                return True
            raise InputError(f"{answer!r}? Answer s to draw from the stock or p to take {top} (q quits).")

        choices = "s/P" if pile else "S/p"
        enter = f"; Enter: {'p' if pile else 's'}, as hinted" if hinted is not None else ""
        taken = self._ask(f"Draw from the stock or take {top} from the pile? [{choices}{enter}] ", parse)
        return self._face_up(view, taken)

    def discard(self, view: View) -> int:
        self._narrate(view)
        card = self.console.card
        if view.drawn_from_pile:
            self.console.write(f"You took {card(view.drawn_card)}: it may not be discarded this turn.")
        else:
            if view.turns == 1 and view.player != view.dealer:
                self.console.write("Nobody took the upcard, so you draw first.")
            self.console.write(f"You drew {card(view.drawn_card)} from the stock.")
        if view.drawn_from_pile:
            self._took |= 1 << view.drawn_card
        order, cards_line, numbers_line = _numbered(self.console, view.hand)
        self.console.write(f"  {cards_line}")
        self.console.write(f"  {numbers_line}")
        options = view.discard_options()
        after = {option: view.deadwood_after(option) for option in options}
        self._hint(view)
        hinted = self._hinted()
        as_hinted = hinted is not None and hinted.card in options
        suggested = (hinted.card if hinted is not None and as_hinted else
                     min(options, key=lambda option: (after[option], -(option % 13), option)))
        left = after[suggested]
        verdict = " - gin!" if left == 0 else " - you may knock" if left <= view.knock_limit else ""

        def parse(answer: str) -> int:
            if not answer:
                chosen = suggested
            elif answer.isdigit():
                position = int(answer)
                if not 1 <= position <= len(order):
                    raise InputError(f"no card number {position}: choose 1 to {len(order)}, or write the card.")
                chosen = order[position - 1]
            else:
                chosen = _one_card(answer)
                if not view.hand >> chosen & 1:
                    raise InputError(f"you do not hold {card(chosen)}.")
            if chosen not in options:
                raise InputError(f"you just took {card(chosen)} from the pile: discard another card.")
            return chosen

        enter = f"Enter: {card(suggested)} as hinted" if as_hinted else f"card or number; Enter: {card(suggested)}"
        chosen = self._ask(f"Discard which card? ({enter}, leaves {left}{verdict}) ", parse)
        self._seen(view, view.discard_pile + (chosen,))
        self._took &= ~(1 << chosen)
        self._history[0][view.player] |= 1 << chosen
        self._discarded = chosen
        return chosen

    def knock(self, view: View) -> bool:
        self.console.write(f"Going out, you would show {self.console.hand(view.hand)}")
        hint = self.hints.knock(self._discarded) if self.hints is not None else None
        if hint:
            self.console.write(hint)
        out = self.hints.goes_out(self._discarded) if self.hints is not None else None
        if view.deadwood == 0:
            return self._yes_no("Your ten cards all meld. Go gin?", True if out is None else out, out is not None)
        return self._yes_no(f"Knock with deadwood {view.deadwood} (limit {view.knock_limit})?",
                            False if out is None else out, out is not None)

    def big_gin(self, view: View) -> bool:
        self.console.write(f"Your eleven cards all meld: {self.console.hand(view.hand)}")
        self._hint(view)
        hinted = self._hinted()
        return self._yes_no("Go big gin now, without a discard?",
                            hinted is None or hinted.kind is MoveKind.BIG_GIN, hinted is not None)


def _one_card(answer: str) -> int:
    letters = "".join(text.LETTER_OF_SYMBOL.get(char, char) for char in answer)
    mask = gincore.parse_cards(letters)  # a ValueError names the bad token
    if bin(mask).count("1") != 1:
        raise InputError(f"{answer!r}: name one card, e.g. 7H, or give its number.")
    return mask.bit_length() - 1


def _same_card(answer: str, card: int) -> bool:
    try:
        return _one_card(answer) == card
    except ValueError:
        return False


# --- the game ----------------------------------------------------------------------------------------

class Stop(StrEnum):
    """Why a game in the terminal stopped before its end.

    >>> Stop("quit") is Stop.QUIT
    True
    """

    QUIT = "quit"
    """The person typed q."""
    INPUT = "input"
    """The input ended (end of file)."""
    INTERRUPT = "interrupt"
    """Ctrl-C (``ginsim play`` makes SIGTERM one too)."""


@dataclass
class GameResult:
    """How a game ended: ``finished`` (played to the end) or stopped (:class:`Stop`);
    ``hands`` counts the hands played to their end; ``totals`` are the final totals with bonuses (the
    points so far when stopped); ``match`` holds ``play_match``'s row when finished."""

    finished: bool
    stopped_by: Stop | None
    hands: int
    totals: tuple[int, int]
    match: dict[str, Any] = field(default_factory=dict)
    record: GameRecord | None = None
    """The game's record, every hand played to its end in it (``ginsim play --save``)."""


class _TracedTable:
    """Stands in for the engine in ``play_match``: plays each hand with its trace and shows its end.

    ``play_match`` asks for ``play_record(key0, key1, index, dealer, match)``; this plays the same hand
    (the same deck: the first draws of the hand's stream) with ``play_traced``, so that the showdown can
    be shown, and returns its record row; the computer's strategy knows ``match`` (the scores and what
    the showdowns have shown), as in a simulated match.
    """

    def __init__(self, table: Engine, rules: Rules, console: Console, names: tuple[str, str],
                 hints: Hints | None = None) -> None:
        self.table = table
        self.rules = rules
        self.console = console
        self.names = names
        self.hints = hints
        self.points = [0, 0]
        self.hands = 0
        self.records: list[HandRecord] = []

    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1,
                    match: MatchContext | None = None) -> RecordRow:
        target = "one scoring hand" if self.rules.target is None else f"game to {self.rules.target}"
        self.console.write("")
        self.console.write(f"=== Hand {self.hands} | {self._score_text()} | {target} ===")
        match = match or MatchContext()
        raw = play_match_hand(self.table, self.rules, (key0, key1), index, dealer, match)
        record = raw["record"]
        self.hands += 1
        if record["winner"] >= 0:
            self.points[record["winner"]] += record["points"]
        self._show_end(raw)
        hand = hand_of_trace(self.rules, self.names, raw, match.scores, len(self.records))
        self.records.append(hand)
        if self.hints is not None:
            self.console.write("")
            for line in self.hints.after(hand, self.names, HUMAN):
                self.console.write(line)
        return record_row(raw)

    def game_record(self, seed: int, totals: tuple[int, int] | None) -> GameRecord:
        return GameRecord(self.rules, self.names, tuple(self.records), seed=seed, match=0, totals=totals)

    def _score_text(self) -> str:
        return f"{self.names[0]} {self.points[0]}, {self.names[1]} {self.points[1]}"

    def _show_end(self, raw: TracedHand) -> None:
        console, names = self.console, self.names
        record, final = raw["record"], raw["final"]
        card = console.card
        events = raw["events"]
        last_own = max((step for step, (_, player, _) in enumerate(events) if player == HUMAN), default=-1)
        for name, player, event_card in events[last_own + 1:]:
            kind = EventKind(name)
            if kind is EventKind.RESHUFFLE:
                console.write(EVENT_PHRASES[kind].capitalize() + ".")
            elif kind in EVENT_PHRASES and kind not in GOING_OUT:
                console.write(f"{names[player]} {EVENT_PHRASES[kind].format(card=card(event_card))}.")
        if record["outcome"] == Outcome.DRAW:
            console.write(f"The stock is down to {raw['stock_left']} cards: the hand is drawn, no score.")
            for seat in (0, 1):
                console.write(f"  {names[seat]:<8} {console.hand(final[seat])}")
            return
        knocker = record["knocker"]
        defender = 1 - knocker
        closing = events[-1]
        who = "You" if knocker == HUMAN else names[knocker]
        verb = {EventKind.KNOCK: "knock" if knocker == HUMAN else "knocks",
                EventKind.GIN: "go gin" if knocker == HUMAN else "goes gin"}.get(EventKind(closing[0]))
        if verb:
            console.write(f"{who} {verb}, discarding {card(closing[2])} face down.")
        else:
            console.write(f"{who} {'go' if knocker == HUMAN else 'goes'} big gin with all eleven cards melded.")
        shown = shown_melds(final[knocker], raw["knocker_sets"])
        console.write(f"  {names[knocker]:<8} {console.hand(final[knocker], shown)}"
                      f"  deadwood {record['knocker_deadwood']}")
        laid = raw["laid_off_cards"]
        rest = final[defender] & ~laid
        defender_melds = gincore.arrangements(rest)[0] if rest else ()
        lays = f", laid off {console.cards(text.by_rank(laid))}" if laid else ""
        console.write(f"  {names[defender]:<8} {console.hand(rest, defender_melds)}{lays}"
                      f"  deadwood {record['defender_deadwood']}")
        outcome = record["outcome"].replace("_", " ")
        winner = names[record["winner"]]
        doubled = f" (x{record['multiplier']})" if record["multiplier"] != 1 else ""
        scores = "score" if record["winner"] == HUMAN else "scores"
        console.write(f"{outcome.capitalize()}: {winner} {scores} {record['points']}{doubled}. "
                      f"Points so far: {self._score_text()}.")


def _final_text(rules: Rules, names: tuple[str, str], row: dict[str, Any], points: Sequence[int]) -> list[str]:
    """The end of a game: who won, and each total with its bonuses."""
    totals = (row["total_0"], row["total_1"])
    winner = row["winner"]
    hands = f"{row['hands']} hand{'s' if row['hands'] != 1 else ''}"
    if winner < 0:
        lines = [f"Game over after {hands}: a tie, {totals[0]} each."]
    else:
        wins = "win" if winner == HUMAN else "wins"
        lines = [f"Game over after {hands}: {names[winner]} {wins}, {totals[winner]} to {totals[1 - winner]}."]
    if rules.hollywood or rules.target is None:
        detail = (f"three Hollywood games, shutouts: {row['shutouts']}" if rules.hollywood
                  else "one scoring hand, no bonuses")
        lines += [f"  {names[seat]:<8} {totals[seat]}" for seat in (0, 1)]
        lines.append(f"  ({detail})")
        return lines
    for seat in (0, 1):
        won = row[f"hands_won_{seat}"]
        parts = [f"{points[seat]} points", f"{won} box{'es' if won != 1 else ''} x {rules.box_bonus}"]
        subtotal = points[seat] + won * rules.box_bonus
        if seat == winner:
            parts.append(f"game {rules.game_bonus}")
            subtotal += rules.game_bonus
        text = " + ".join(parts)
        if seat == winner and row["shutouts"] and rules.shutout_doubles:
            text += f" = {subtotal}, shutout x 2"
        lines.append(f"  {names[seat]:<8} {text} = {totals[seat]}")
    return lines


def play_game(rules: Rules, opponent: PlayerSpec, seed: int, console: Console | None = None,
              hints: Hints | None = None) -> GameResult:
    """A person on ``console`` plays one game (to ``rules.target``, with its bonuses) against
    ``opponent``; the deals come from ``seed``; with ``hints``, the best option before each decision
    and each hand's analysis after it. Quitting or the end of the input stops the game and is
    reported in the result (with the record of the hands played to their end), and so is Ctrl-C
    (``KeyboardInterrupt``); any other failure raises."""
    console = console or Console()
    opponent_name = display_name(opponent)  # as tables and figures name it: marjj, not marjj:5
    human = HumanStrategy(console, opponent_name, hints)
    table = Engine(native_config(rules), [native_spec(human, rules), native_spec(opponent, rules)])
    names = ("you", opponent_name)
    traced = _TracedTable(table, rules, console, names, hints)
    target = "a single scoring hand" if rules.target is None else f"a game to {rules.target}"
    console.write(textwrap.fill(f"Gin Rummy, {rules.label()}: you against {opponent_name}, {target}, seed {seed}.", 80,
                                subsequent_indent="  ", break_on_hyphens=False))
    console.write("Type ? for help, q to quit.")

    def stopped(why: Stop) -> GameResult:
        return GameResult(False, why, traced.hands, (traced.points[0], traced.points[1]),
                          record=traced.game_record(seed, None))

    try:
        row = play_match(traced, rules, match_key(check_seed(seed)), 0)
    except StrategyError as error:
        cause = error.__cause__
        if isinstance(cause, KeyboardInterrupt):
            return stopped(Stop.INTERRUPT)
        if not isinstance(cause, QuitGame):
            raise
        return stopped(Stop.INPUT if isinstance(cause, InputEnded) else Stop.QUIT)
    except KeyboardInterrupt:  # during the opponent's move or the table's words
        return stopped(Stop.INTERRUPT)
    console.write("")
    for line in _final_text(rules, names, row, traced.points):
        console.write(line)
    totals = (row["total_0"], row["total_1"])
    return GameResult(True, None, row["hands"], totals, row, traced.game_record(seed, totals))
