"""Episodes and rewards of the environments: a hand or a whole match, and what each hand ending pays.

``episode="hand"``: an episode is one hand. ``episode="match"``: an episode is a match to the rules'
``target`` (the next hand dealt by the rules' ``next_dealer``, scored as ``simulate_matches`` scores,
Hollywood included), and the players see the running scores.

``reward=`` (every reward is zero-sum: the two players' rewards add up to 0):

==============  ============================================================================================
``"points"``    at each hand's end, its points signed for the player: +points won, -points lost, 0 drawn
                (gin, undercut and big gin bonuses and the Oklahoma multiplier included)
``"win"``       at each hand's end, +1 won, -1 lost, 0 drawn
``"match"``     match episodes: +1 when the player wins the match, -1 when it loses (0 for a drawn
                Hollywood match), at the match's end only
``"shaped"``    match episodes: the match result shaped by the chance of winning it. With ``P`` the chance
                to win from the scores (the table ``search`` plays matches by: even players, hands scored
                as simple-vs-simple hands of these rules) and ``V = 2P - 1``, each hand that leaves the
                match open pays the change in ``V``, and the last pays the result less ``V`` before it:
                the rewards of a match add up to its result (``V`` is 0 at 0-0), and a hand pays what it
                did to the player's chances
==============  ============================================================================================

>>> from ginsim import Rules
>>> episodes = Episodes(Rules(target=50), reward="shaped", episode="match")
>>> episodes.start()
>>> first = episodes.hand_over(dealer=1, winner=0, points=30)   # seat 0 leads 30-0: its chances rose
>>> 0 < first.reward < 1, first.over
(True, False)
>>> last = episodes.hand_over(dealer=1, winner=0, points=25)
>>> last.over, round(first.reward + last.reward, 9)            # the rewards add up to the result
(True, 1.0)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gincore import format_cards
from gincore.errors import InputError
from ginsim.gin.game.native import OUTCOME_NAMES
from ginsim.gin.game.players import engine
from ginsim.gin.game.rules import Rules, check_rules
from ginsim.gin.studies.matches import MatchScore

__all__ = ["EPISODES", "REWARDS", "Episodes", "HandEnd", "check_episode", "finished_hand", "settings"]

REWARDS: Final = ("points", "win", "match", "shaped")
EPISODES: Final = ("hand", "match")


def check_episode(reward: str, episode: str, rules: Rules) -> None:
    """``InputError`` unless the reward and the episode kind are known and fit together and the rules."""
    if reward not in REWARDS:
        raise InputError(f"unknown reward {reward!r}; rewards: {', '.join(REWARDS)}")
    if episode not in EPISODES:
        raise InputError(f"unknown episode {episode!r}; episodes: {', '.join(EPISODES)}")
    if reward in ("match", "shaped") and episode != "match":
        raise InputError(f"reward={reward!r} pays the match result: it needs episode='match'")
    if reward == "shaped" and rules.target is None:
        raise InputError("reward='shaped' values scores by the chance to reach the target: the rules need a target")


@dataclass(frozen=True)
class HandEnd:
    """What a finished hand pays seat 0 (seat 1 gets the opposite), whether the episode is over, and
    the match's result row once it is."""

    reward: float
    over: bool
    match: dict[str, Any] | None = None


def settings(rules: Rules | None, reward: str, episode: str,
             render_mode: str | None) -> tuple[Rules, Episodes, str | None]:
    """What every environment of ginsim checks first: its rules (default the standard game), its episodes
    and what they pay, and its render mode (``"ansi"`` text, or none).

    >>> settings(None, "win", "hand", "ansi")[0] == Rules()
    True
    """
    checked = Rules() if rules is None else check_rules(rules)
    if render_mode not in (None, "ansi"):
        raise InputError(f"unknown render mode {render_mode!r}; this environment renders 'ansi' text")
    return checked, Episodes(checked, reward, episode), render_mode


class Episodes:
    """The episodes of a pair of seats: which hand comes next and what each finished hand pays."""

    def __init__(self, rules: Rules, reward: str = "points", episode: str = "hand") -> None:
        check_episode(reward, episode, rules)
        self.rules = rules
        self.reward = reward
        self.episode = episode
        self.score = MatchScore(rules)
        self._potential = 0.0

    @property
    def match(self) -> bool:
        return self.episode == "match"

    def start(self) -> None:
        """A new episode: a new match at 0-0."""
        self.score = MatchScore(self.rules)
        self._potential = 0.0

    def next_deal(self) -> tuple[int | None, tuple[int, int] | None]:
        """The next hand's dealer (None: drawn) and the scores by seat the players see (None: no match)."""
        if not self.match:
            return None, None
        return (self.score.dealer if self.score.dealer >= 0 else None), self.score.shown()

    def hand_over(self, dealer: int, winner: int, points: int) -> HandEnd:
        """Count a finished hand (who dealt, its winner or -1, its points): what it pays seat 0."""
        signed = 0 if winner < 0 else points if winner == 0 else -points
        if not self.match:
            return HandEnd(self._per_hand(signed), True)
        self.score.add(dealer, winner, points)
        if not self.score.over:
            if self.reward != "shaped":
                return HandEnd(self._per_hand(signed) if self.reward in ("points", "win") else 0.0, False)
            potential = self._value(*self.score.shown())
            paid, self._potential = potential - self._potential, potential
            return HandEnd(paid, False)
        result = self.score.result()
        outcome = 0.0 if result["winner"] < 0 else 1.0 if result["winner"] == 0 else -1.0
        if self.reward in ("points", "win"):
            return HandEnd(self._per_hand(signed), True, result)
        return HandEnd(outcome - (self._potential if self.reward == "shaped" else 0.0), True, result)

    def _per_hand(self, signed: int) -> float:
        if self.reward == "win":
            return float((signed > 0) - (signed < 0))
        return float(signed)

    def _value(self, mine: int, theirs: int) -> float:
        """``2P - 1`` for seat 0 at these scores."""
        chance = engine(self.rules, ("search", "search")).match_value(mine, theirs)
        if chance is None:
            raise InputError("the rules need a target to value match scores")
        return 2.0 * chance - 1.0


def finished_hand(record: dict[str, Any], opponent_hand: int) -> dict[str, Any]:
    """A finished hand as an info shows it: its record (the outcome by name) and the opponent's cards,
    as a card mask (``opponent_hand``) and as text (``opponent_cards``, e.g. ``"AC 2C 3C ..."``)."""
    return {**record, "outcome": OUTCOME_NAMES[record["outcome"]], "opponent_hand": opponent_hand,
            "opponent_cards": format_cards(int(opponent_hand))}
