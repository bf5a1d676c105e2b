"""The rules of classic Rummy (docs/rules.md#classic-rummy) that can vary; the number of players is the number of
strategies.

Readings of the rules text (see ``gincore.rummy`` for the engine's side):

- The stock runs out: the whole discard pile is turned over, not shuffled, as the new stock (the
  oldest discard on top) and the pile starts again empty. ``max_turnovers`` (default 3) bounds the
  turnovers; the next time the stock runs out the hand is drawn: no score, and in a game the deal
  passes on as after any hand (with two players the same dealer deals again).
- Rummy: going out in a turn before which the player had laid down nothing, neither a meld nor a
  lay-off; lay-offs in that turn and a final discard are allowed. It doubles the score
  (``rummy_doubles``).
- A game is played to ``target`` points (default 100, the target of a Gin game,
  docs/rules.md#games-to-a-target; the rule books only say "an agreed target"); only a hand's winner
  scores, so the first player to reach it wins.

>>> Rules().with_overrides(["target=250", "rummy-doubles=no"])
Rules(target=250, max_turnovers=3, rummy_doubles=False)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ginsim.core.fields import Flag, Integer, RuleSet, option

__all__ = ["MOST_TARGET", "Rules", "check_rules"]

MOST_TARGET: Final = 1000
"""The largest game target (a hand scores at most 680 points, so every total stays far inside the
native engine's 32-bit totals)."""


@dataclass(frozen=True, kw_only=True)
class Rules(RuleSet):
    """The rules of classic Rummy that can vary; the number of players is the number of strategies.

    >>> Rules().target, Rules().max_turnovers
    (100, 3)
    >>> Rules(max_turnovers=-1)
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: max_turnovers must be an integer from 0 to 50, got -1
    """

    target: int = option(100, Integer(1, MOST_TARGET), "points that end a game")
    max_turnovers: int = option(3, Integer(0, 50), "times the discard pile may be turned over as a new stock in a hand")
    rummy_doubles: bool = option(True, Flag(), "going out rummy doubles the hand's score")

    def label(self) -> str:
        """The rules in a few words: what differs from the defaults.

        >>> Rules().label(), Rules(target=50).label()
        ('classic Rummy rules', 'classic Rummy rules with target=50')
        """
        differences = self.changes_from(Rules())
        return "classic Rummy rules" + (f" with {', '.join(differences)}" if differences else "")


def check_rules(rules: object) -> Rules:
    """``rules`` if it is a ``ginsim.rummy.Rules``; a ``TypeError`` otherwise (a programming error)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a ginsim.rummy.Rules, got {type(rules).__name__}")
    return rules
