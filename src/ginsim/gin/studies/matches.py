"""Games (matches) of several hands to a target, scored per docs/rules.md#games-to-a-target.

Hands come from the native engine one at a time (the dealer of each depends on the previous result);
the scoring of a game — box, game and shutout bonuses, Hollywood's three games, team sums — is here.
Hand ``j`` of match ``m`` draws from stream ``(m << 24) | j`` of the run's match key. The strategies
see the running scores of the match (of its first open game under Hollywood) in ``View.scores``, by seat,
and the native ones what both players saw at the match's earlier showdowns: how often each seat, shown
as the defender, held a hand it could have knocked with (:func:`passed_knock`), and how often it knocked
late in a hand (:func:`late_knock`).

Duplicate deals play match ``m`` a second time with the players' seats swapped (:func:`play_duplicate`).
Its first hand comes from the same stream, which deals the same cards to the same seats and draws the
same seat to deal, so each player holds the cards the other held in the first game, in the other's
role. A later hand ``j`` reuses the first game's stream when the same seat deals it (the players again
hold each other's cards); where the two games have parted so that the other seat deals (under
``next_dealer="loser"``, when one player lost hand ``j - 1`` in both), the same deck would give each
player its own cards again and correlate the two games the wrong way, so that hand draws from stream
``(m << 24) | 2**23 | j`` instead, a deal of its own.

>>> from ginsim import Rules
>>> from ginsim.gin.game.native import match_key
>>> from ginsim.gin.game.players import engine
>>> row = play_match(engine(Rules(), "simple,simple"), Rules(), match_key(1), 0)
>>> row["winner"] in (0, 1) and max(row["total_0"], row["total_1"]) >= 100
True
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gincore.errors import InputError
from ginsim.core.checks import integer
from ginsim.gin.game.hand import MatchContext
from ginsim.gin.game.native import OUTCOME_NAMES, RecordRow
from ginsim.gin.game.rules import Rules

__all__ = ["DUPLICATE_COLUMNS", "LATE_DRAWS", "MATCH_COLUMNS", "MAX_HANDS", "HandSource", "MatchScore",
           "late_knock", "next_dealer", "passed_knock", "play_duplicate", "play_match", "play_team_match",
           "swap_seats"]

MAX_HANDS = 100_000
"""A game still unfinished after this many hands (only drawn hands could do that) is an error."""
OWN_DEAL = 1 << 23
"""Added to a hand's stream index in a swapped game where the other seat deals than in the first game
(beyond ``MAX_HANDS``, so no hand of any match shares it)."""
MATCH_COLUMNS = ("match", "winner", "total_0", "total_1", "margin", "hands", "hands_won_0",
                 "hands_won_1", "games", "shutouts", "first_dealer")
DUPLICATE_COLUMNS = ("match", "swapped", *MATCH_COLUMNS[1:])
"""The columns of duplicate matches: ``swapped`` marks the game with the first-named player in seat 1."""


class HandSource(Protocol):
    """What a match needs from the engine: one hand's :class:`RecordRow`, with the dealer given or drawn
    (-1) and what the strategies know of the match (:class:`~ginsim.gin.game.hand.MatchContext`: the
    scores they see, the showdowns so far at which each seat was seen to have passed up a knock
    (:func:`passed_knock`) or knocked late (:func:`late_knock`))."""

    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1,
                    match: MatchContext | None = None) -> RecordRow: ...


_KNOCK_OUTCOMES = (OUTCOME_NAMES.index("knock"), OUTCOME_NAMES.index("undercut"))
_DRAW = OUTCOME_NAMES.index("draw")


def passed_knock(record: RecordRow) -> int:
    """The seat a hand's showdown shows to have passed up a knock, or -1.

    When one player goes out, the other's hand is shown as it was after its own last discard; if its
    deadwood was then within the hand's knock limit, it could have knocked and played on instead (a
    player that knocks at once never shows this). A knock's defender is counted only when it laid
    nothing off (its recorded deadwood is after the lay-offs).

    >>> from ginsim import Rules
    >>> from ginsim.gin.game.players import engine
    >>> record = engine(Rules(), "gin,simple").play_record(1, 2, 3)
    >>> passed_knock(record) in (-1, 0)    # simple knocks at once: only gin's patience can show
    True
    """
    outcome, knocker = record.outcome, record.knocker
    if outcome == _DRAW or knocker < 0 or (outcome in _KNOCK_OUTCOMES and record.laid_off > 0):
        return -1
    return 1 - knocker if 0 <= record.defender_deadwood <= record.knock_limit else -1


LATE_DRAWS = 16
"""A knock after this many draws of the hand (both players' draws) is late: a patient player has then
stopped knocking, unless the stock is nearly spent (:func:`late_knock`)."""
_LAST_DRAWS = 4  # the draws before the stock floor in which a patient player may knock again


def late_knock(record: RecordRow, rules: Rules) -> int:
    """The seat that knocked late in a hand, or -1: a knock (not gin) after the hand's ``LATE_DRAWS``-th
    draw while more than four draws were left before the stock floor (of the first stock: a hand that
    reshuffled counts only before that), which players that knock at once make and patient ones do not.

    >>> from ginsim.gin.game.players import engine
    >>> rules = Rules.preset("eaai")
    >>> late = [late_knock(engine(rules, "simple,gin").play_record(1, 2, hand), rules) for hand in range(50)]
    >>> 0 in late and 1 not in late     # gin never knocks; simple knocks at once, late in some hands
    True
    """
    outcome, knocker = record.outcome, record.knocker
    first_stock = 52 - 21 - rules.stock_floor
    if (knocker < 0 or outcome not in _KNOCK_OUTCOMES or record.knocker_deadwood == 0
            or not LATE_DRAWS < record.turns <= first_stock - _LAST_DRAWS):
        return -1
    return int(knocker)


def next_dealer(rules: Rules, dealer: int, winner: int) -> int:
    """Who deals after a hand that ``dealer`` dealt and ``winner`` won (the rules' ``next_dealer``)."""
    if rules.next_dealer == "loser":
        return 1 - winner
    if rules.next_dealer == "winner":
        return winner
    return 1 - dealer


class MatchScore:
    """The running score of one match as its hands end: who deals next, the scores the
    players see, whether it is over, and its result.

    Under Hollywood scoring a player's first winning hand counts in game 1, the second in games 1
    and 2, the third and later in all three; the match ends when all three games have ended, and the
    totals are the sums over the games. With ``target=None`` a game is one scoring hand, without
    bonuses.

    ``start`` resumes a game at these scores (by seat, each below the target; a single game, not
    Hollywood) and ``first_dealer`` (0 or 1) makes that seat deal the first hand, which is otherwise
    drawn. The starting points count towards the target and the totals; box bonuses count the hands
    played from the start, and a player who starts above 0 has won a hand, so is not shut out.

    >>> score = MatchScore(Rules(target=50))
    >>> score.add(hand_dealer=1, winner=0, points=30)
    >>> score.shown(), score.dealer, score.over   # the loser deals next
    ((30, 0), 1, False)
    >>> score.add(hand_dealer=1, winner=0, points=25)
    >>> score.over, score.result()["total_0"]     # (55 + 2 boxes of 25 + the game's 100) doubled: a shutout
    (True, 410)
    """

    def __init__(self, rules: Rules, start: tuple[int, int] = (0, 0), first_dealer: int | None = None) -> None:
        self.rules = rules
        self.games = 3 if rules.hollywood else 1
        self.start = _start_scores(rules, start)
        self.score = [list(self.start) for _ in range(self.games)]
        self.won_in_game = [[0, 0] for _ in range(self.games)]
        self.open_games = [True] * self.games
        self.hands_won = [0, 0]
        self.dealer = -1 if first_dealer is None else integer("first_dealer", first_dealer, 0, 1)
        """Who deals the next hand (-1: drawn from the first hand's stream)."""
        self.first_dealer = -1
        self.hands = 0
        self.passed = [0, 0]
        """By seat, the showdowns so far at which it was seen to pass up a knock (:func:`passed_knock`)."""
        self.late = [0, 0]
        """By seat, the hands so far in which it knocked late (:func:`late_knock`)."""

    @property
    def over(self) -> bool:
        return not any(self.open_games)

    def shown(self) -> tuple[int, int]:
        """The scores the players see, by seat: those of the first game still open."""
        shown = self.score[self.open_games.index(True)] if not self.over else self.score[-1]
        return shown[0], shown[1]

    def add(self, hand_dealer: int, winner: int, points: int) -> None:
        """Count a finished hand: who dealt it, its winner (-1: drawn) and the points it scored."""
        self.hands += 1
        if self.first_dealer < 0:
            self.first_dealer = hand_dealer
        if winner < 0:
            self.dealer = hand_dealer  # after a drawn hand the same dealer deals again
            return
        self.hands_won[winner] += 1
        for game in range(min(self.hands_won[winner], self.games)):
            if self.open_games[game]:
                self.score[game][winner] += points
                self.won_in_game[game][winner] += 1
                if self.rules.target is None or self.score[game][winner] >= self.rules.target:
                    self.open_games[game] = False
        self.dealer = next_dealer(self.rules, hand_dealer, winner)

    def context(self) -> MatchContext:
        """What the strategies of the next hand know of the match: the scores shown, and the showdowns
        at which each seat passed up a knock and the hands in which it knocked late so far."""
        return MatchContext(self.shown(), (self.passed[0], self.passed[1]), (self.late[0], self.late[1]))

    def remember(self, passed: int, late: int) -> None:
        """Count what a hand's showdown showed: the seat that passed up a knock and the seat that knocked
        late (each -1 for none), which the native strategies see in the hands that follow."""
        if passed >= 0:
            self.passed[passed] += 1
        if late >= 0:
            self.late[late] += 1

    def game_totals(self) -> list[dict[str, Any]]:
        """Each finished game's end, by seat: the points, the boxes (hands won) and their bonus, the game
        bonus to the winner, whether a shutout doubles it, and the total; with ``target=None`` the
        winner's points alone.

        >>> score = MatchScore(Rules(target=50), first_dealer=0)
        >>> score.add(hand_dealer=0, winner=0, points=55)
        >>> score.game_totals()[0]["seats"][0]
        {'points': 55, 'boxes': 1, 'box_bonus': 25, 'game_bonus': 100, 'doubled': True, 'total': 360}
        """
        rules = self.rules
        ended = []
        for game in range(self.games):
            winner = 0 if self.score[game][0] > self.score[game][1] else 1
            loser = 1 - winner
            shutout = rules.target is not None and self.won_in_game[game][loser] == 0 and self.start[loser] == 0
            seats = []
            for seat in (0, 1):
                points = self.score[game][seat]
                if rules.target is None:
                    seats.append({"points": points, "boxes": 0, "box_bonus": 0, "game_bonus": 0, "doubled": False,
                                  "total": points if seat == winner else 0})
                    continue
                boxes = self.won_in_game[game][seat]
                game_bonus = rules.game_bonus if seat == winner else 0
                doubled = seat == winner and shutout and rules.shutout_doubles
                seats.append({"points": points, "boxes": boxes, "box_bonus": rules.box_bonus, "game_bonus": game_bonus,
                              "doubled": doubled,
                              "total": (points + rules.box_bonus * boxes + game_bonus) * (2 if doubled else 1)})
            ended.append({"winner": winner, "shutout": shutout, "seats": seats})
        return ended

    def result(self, match: int = 0) -> dict[str, Any]:
        """The finished match's row: the ``MATCH_COLUMNS``."""
        totals = [0, 0]
        shutouts = 0
        game_winner = -1
        for ended in self.game_totals():
            game_winner = ended["winner"]
            shutouts += int(ended["shutout"])
            totals[0] += ended["seats"][0]["total"]
            totals[1] += ended["seats"][1]["total"]
        if self.games > 1:
            game_winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else -1
        return {
            "match": match, "winner": game_winner, "total_0": totals[0], "total_1": totals[1],
            "margin": abs(totals[0] - totals[1]) if game_winner < 0 else totals[game_winner] - totals[1 - game_winner],
            "hands": self.hands, "hands_won_0": self.hands_won[0], "hands_won_1": self.hands_won[1],
            "games": self.games, "shutouts": shutouts, "first_dealer": self.first_dealer,
        }


def play_match(engine: HandSource, rules: Rules, key: tuple[int, int], match: int,
               hand_log: list[tuple[int, int, int]] | None = None,
               mirror: Sequence[int] | None = None, *, start: tuple[int, int] = (0, 0),
               first_dealer: int | None = None) -> dict[str, Any]:
    """Play one match to ``rules.target`` and score it (see :class:`MatchScore`, which also says what
    ``start`` and ``first_dealer`` do); a dict with the ``MATCH_COLUMNS``.

    ``hand_log``, when given, receives (dealer, winner, points) for every hand played. ``mirror``, the
    dealer seats hand by hand of the game this one plays with the seats swapped, makes a hand that the
    other seat deals draw from a stream of its own (see the module).

    >>> from ginsim.gin.game.native import match_key
    >>> from ginsim.gin.game.players import engine
    >>> row = play_match(engine(Rules(), "simple,simple"), Rules(), match_key(1), 0, start=(99, 0), first_dealer=1)
    >>> row["first_dealer"], row["shutouts"], row["total_0"] >= 100 or row["total_1"] >= 100
    (1, 0, True)
    """
    score = MatchScore(rules, start, first_dealer)
    while not score.over:
        if score.hands >= MAX_HANDS:
            raise RuntimeError(f"match {match} did not finish in {MAX_HANDS} hands (nearly all drawn)")
        index = (match << 24) | score.hands
        dealer = score.dealer
        if mirror is not None and dealer >= 0 and not (score.hands < len(mirror) and mirror[score.hands] == dealer):
            index |= OWN_DEAL
        record = engine.play_record(key[0], key[1], index, dealer, score.context())
        hand_dealer, winner, points = record.dealer, record.winner, record.points
        score.remember(passed_knock(record), late_knock(record, rules))
        if hand_log is not None:
            hand_log.append((hand_dealer, winner, points))
        score.add(hand_dealer, winner, points)
    return score.result(match)


def _start_scores(rules: Rules, start: tuple[int, int]) -> tuple[int, int]:
    """The scores a game starts from, checked: a pair of scores below the target, in a single game."""
    if not isinstance(start, (tuple, list)) or len(start) != 2:
        raise InputError(f"start must be a pair of scores, got {start!r}")
    if tuple(start) == (0, 0):
        return 0, 0
    if rules.target is None or rules.hollywood:
        raise InputError("a game can start from other scores than 0-0 only with a target and without Hollywood "
                         "scoring (one game)")
    return (integer("start score", start[0], 0, rules.target - 1),
            integer("start score", start[1], 0, rules.target - 1))


def play_team_match(engine: HandSource, rules: Rules, key: tuple[int, int], match: int,
                    pairs: int) -> dict[str, Any]:
    """Team play: ``pairs`` pairs of opponents each play a match; each team's results are summed.

    Team 0 plays the first strategy in every pair. Pair ``k`` of team match ``m`` is match
    ``m * pairs + k`` of the run.
    """
    return _team_row(match, [play_match(engine, rules, key, match * pairs + pair) for pair in range(pairs)])


def _team_row(match: int, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    summed = {name: sum(row[name] for row in rows)
              for name in ("total_0", "total_1", "hands", "hands_won_0", "hands_won_1", "games", "shutouts")}
    winner = 0 if summed["total_0"] > summed["total_1"] else 1 if summed["total_1"] > summed["total_0"] else -1
    return {"match": match, "winner": winner, **summed,
            "margin": abs(summed["total_0"] - summed["total_1"]), "first_dealer": rows[0]["first_dealer"]}


def swap_seats(row: dict[str, Any]) -> dict[str, Any]:
    """A match row with its seats exchanged: ``_0`` becomes ``_1``, the winner and the first dealer
    change sides (-1, no winner, stays).

    >>> swap_seats({"winner": 0, "total_0": 120, "total_1": 40, "hands_won_0": 3, "hands_won_1": 1,
    ...             "first_dealer": 1, "margin": 80})
    {'winner': 1, 'total_0': 40, 'total_1': 120, 'hands_won_0': 1, 'hands_won_1': 3, 'first_dealer': 0, 'margin': 80}
    """
    swapped = dict(row)
    for name in ("total", "hands_won"):
        swapped[f"{name}_0"], swapped[f"{name}_1"] = row[f"{name}_1"], row[f"{name}_0"]
    for name in ("winner", "first_dealer"):
        swapped[name] = 1 - row[name] if row[name] >= 0 else row[name]
    return swapped


def play_duplicate(engines: tuple[HandSource, HandSource], rules: Rules, key: tuple[int, int], match: int,
                   pairs: int | None = None) -> list[dict[str, Any]]:
    """Match ``match`` played twice: by ``engines[0]`` (the players in their order) and by
    ``engines[1]`` (the same players, seats swapped), the second game mirroring the first's deals (see
    the module). Both rows are in the players' terms — ``_0``, ``winner == 0`` and ``first_dealer == 0``
    name the first player — with ``swapped`` telling the game where the first player sat in seat 1.
    ``pairs`` plays team matches of that many pairs, each pair's two games mirrored.

    >>> from ginsim.gin.game.native import match_key
    >>> from ginsim.gin.game.players import engine
    >>> rules = Rules()
    >>> first, second = play_duplicate((engine(rules, "greedy,greedy"), engine(rules, "greedy,greedy")),
    ...                                rules, match_key(1), 0)
    >>> second["swapped"], first["winner"] + second["winner"]   # the same player twice: a mirror
    (True, 1)
    """
    games: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for index in ([match] if pairs is None else range(match * pairs, (match + 1) * pairs)):
        log: list[tuple[int, int, int]] = []
        first = play_match(engines[0], rules, key, index, log)
        second = play_match(engines[1], rules, key, index, mirror=[dealer for dealer, _, _ in log])
        games.append((first, swap_seats(second)))
    rows = []
    for swapped in (False, True):
        row = _team_row(match, [game[swapped] for game in games]) if pairs is not None else games[0][swapped]
        rows.append({"match": match, "swapped": swapped, **{name: row[name] for name in MATCH_COLUMNS[1:]}})
    return rows
