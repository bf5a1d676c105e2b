"""The rules of a Gin Rummy game: one validated, immutable object per rule set.

Every rule that can vary (docs/rules.md#rule-fields) is a field of :class:`Rules`, with its default.
A ``Rules`` value is checked when it is built, so an invalid rule set never reaches the
engine. Every number has a range (:data:`MOST_BONUS`, :data:`MOST_TARGET`,
:data:`MOST_RESHUFFLES`) that the native engine's types hold and within which every score fits
the per-hand record: a hand scores at most (98 + the largest bonus) x 2, far below the 32,767 of
its ``points``. It round-trips through JSON-ready dicts (:meth:`Rules.to_dict`, for Parquet
metadata) and is built from ``field=value`` text as typed on a command line
(:meth:`Rules.parse_overrides`).

>>> from ginsim import PRESETS, Rules
>>> seven_of_hearts = 2 * 13 + 6
>>> Rules.preset("oklahoma").knock_limit_for(seven_of_hearts)
7
>>> PRESETS["straight"].replace(target=250).to_dict()["target"]
250
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from gincore.errors import InputError
from ginsim.core.checks import as_integer
from ginsim.core.fields import Choice, Flag, Integer, RuleSet, option, shown, unknown_name

__all__ = ["MOST_BONUS", "MOST_RESHUFFLES", "MOST_TARGET", "PRESETS", "Rules", "check_rules", "preset_names"]

MOST_BONUS: Final = 1000
"""The largest bonus of any kind (gin, undercut, big gin, box, game): real games use 10 to 100."""
MOST_TARGET: Final = 1000
"""The largest game target: real games play to 100, 150 or 250 (``search`` keeps a table of
target x target match values)."""
MOST_RESHUFFLES: Final = 1000
"""The most reshuffles of a hand (the engine calls a hand drawn after 5,000 draws in any case)."""

_RANKS_PER_SUIT: Final = 13
_ACE: Final = 0
_SPADES: Final = 3


@dataclass(frozen=True, kw_only=True)
class Rules(RuleSet):
    """The full rule set of a game; the defaults are the standard game (docs/rules.md#presets).

    Fields are keyword-only and checked on construction: a wrong type or an out-of-range
    value raises ``InputError`` naming the field, the value and what is allowed. Fields that
    only matter under another option (``spade_doubles`` without ``oklahoma``,
    ``max_reshuffles`` without ``exhaustion="reshuffle"``) are accepted and ignored.

    >>> Rules().knock_limit
    10
    >>> Rules(knock_limit=5, target=250).target
    250
    >>> Rules(knock_limit=11)
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: knock_limit must be an integer from 0 to 10, got 11
    """

    knock_limit: int = option(
        10, Integer(0, 10), "most deadwood a knock may leave; 0 is straight gin"
    )
    gin_bonus: int = option(25, Integer(0, MOST_BONUS), "bonus for going gin")
    undercut_bonus: int = option(25, Integer(0, MOST_BONUS), "bonus for undercutting the knocker")
    big_gin_bonus: int | None = option(
        None, Integer(0, MOST_BONUS, none_means="big gin off"), "bonus for big gin, usually 31"
    )
    oklahoma: bool = option(False, Flag(), "the upcard sets each hand's knock limit")
    oklahoma_ace_limit: int = option(
        0, Integer(0, 1), "Oklahoma knock limit under an ace upcard; 0 means gin only"
    )
    spade_doubles: bool = option(
        True, Flag(), "Oklahoma: a spade upcard doubles every score of the hand"
    )
    stock_floor: int = option(2, Integer(0, 10), "number of stock cards that are never drawn")
    exhaustion: str = option(
        "draw",
        Choice(("draw", "reshuffle")),
        "at the stock floor, draw the hand or reshuffle the discards into a new stock",
    )
    max_reshuffles: int = option(1, Integer(0, MOST_RESHUFFLES), "reshuffles allowed in a hand")
    next_dealer: str = option(
        "loser", Choice(("loser", "winner", "alternate")), "who deals the next hand"
    )
    target: int | None = option(
        100, Integer(1, MOST_TARGET, none_means="single-hand game"), "points that end a game"
    )
    box_bonus: int = option(25, Integer(0, MOST_BONUS), "end-of-game bonus for every hand won")
    game_bonus: int = option(100, Integer(0, MOST_BONUS), "end-of-game bonus to the winner")
    shutout_doubles: bool = option(
        True, Flag(), "the winner's total is doubled when the loser won no hand"
    )
    hollywood: bool = option(False, Flag(), "Hollywood scoring: three games at once")

    def check(self) -> None:
        if self.oklahoma and self.knock_limit != 10:
            raise InputError(
                "oklahoma=True requires knock_limit=10 because Oklahoma sets the knock limit "
                f"from the upcard, got knock_limit={self.knock_limit}"
            )
        if self.hollywood and self.target is None:
            raise InputError(
                "hollywood=True requires a target because Hollywood plays three games to it, "
                "got target=None"
            )

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset called ``name``; :func:`preset_names` lists them.

        >>> Rules.preset("straight").knock_limit
        0
        >>> Rules.preset("oklahma")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: unknown rules preset 'oklahma' (did you mean 'oklahoma'?); known presets: ...
        """
        if isinstance(name, str) and name in PRESETS:
            return PRESETS[name]
        raise unknown_name("preset", [name], PRESETS)

    @classmethod
    def parse_overrides(cls, preset: str = "standard", items: Iterable[str] = ()) -> Rules:
        """A preset with ``field=value`` overrides, given as text typed on a command line.

        Values are integers (``knock_limit=5``), booleans (``true``/``false``, also
        ``yes``/``no``, ``on``/``off``, ``1``/``0``; any case), ``none`` for the fields that
        allow it (``big_gin_bonus``, ``target``), or the choice names of ``exhaustion`` and
        ``next_dealer`` (any case). A field name may use ``-`` for ``_``; spaces around names and
        values are ignored. Setting one field twice is refused.

        >>> Rules.parse_overrides("standard", ["knock_limit=5", "big-gin-bonus=31"]).big_gin_bonus
        31
        >>> Rules.parse_overrides("oklahoma", ["target=none"]).target is None
        True
        >>> Rules.parse_overrides("standard", ["knock_limit=abc"])
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: 'abc' is not an integer for knock_limit
        """
        return cls.preset(preset).with_overrides(items)

    def knock_limit_for(self, upcard: int) -> int:
        """The hand's knock limit given its upcard (card index ``suit * 13 + rank``).

        Plain ``knock_limit`` unless Oklahoma, where the upcard's rank decides: 2..10 give
        their face value, J/Q/K give 10 and the ace gives ``oklahoma_ace_limit``.

        >>> ace_of_spades, seven_of_diamonds, king_of_clubs = 39, 19, 12
        >>> Rules().knock_limit_for(ace_of_spades)
        10
        >>> oklahoma = Rules.preset("oklahoma")
        >>> [oklahoma.knock_limit_for(c) for c in (ace_of_spades, seven_of_diamonds, king_of_clubs)]
        [0, 7, 10]
        """
        rank = _checked_upcard(upcard) % _RANKS_PER_SUIT
        if not self.oklahoma:
            return self.knock_limit
        if rank == _ACE:
            return self.oklahoma_ace_limit
        return min(rank + 1, 10)

    def multiplier_for(self, upcard: int) -> int:
        """The factor on every score of the hand: 2 for a spade upcard under Oklahoma, else 1.

        >>> queen_of_spades, queen_of_hearts = 50, 37
        >>> oklahoma = Rules.preset("oklahoma")
        >>> oklahoma.multiplier_for(queen_of_spades), oklahoma.multiplier_for(queen_of_hearts)
        (2, 1)
        >>> Rules().multiplier_for(queen_of_spades)
        1
        """
        suit = _checked_upcard(upcard) // _RANKS_PER_SUIT
        return 2 if self.oklahoma and self.spade_doubles and suit == _SPADES else 1

    def hand_play(self) -> dict[str, Any]:
        """The fields one hand's play depends on, those its rules ignore left out: what a policy trained
        for these rules must have been trained for (the game's target, bonuses and dealer are not here).

        >>> Rules().hand_play() == Rules.preset("eaai").hand_play() != Rules.preset("knock5").hand_play()
        True
        >>> sorted(Rules.preset("oklahoma").hand_play())[:3]
        ['big_gin_bonus', 'exhaustion', 'gin_bonus']
        """
        play = {name: getattr(self, name) for name in _HAND_FIELDS}
        if not self.oklahoma:
            del play["oklahoma_ace_limit"], play["spade_doubles"]
        if self.exhaustion != "reshuffle":
            del play["max_reshuffles"]
        return play

    def label(self) -> str:
        """The rules named by their preset, with the fields that differ from the nearest preset.

        >>> Rules.preset("oklahoma").label(), Rules(target=250, gin_bonus=20).label()
        ('oklahoma rules', 'standard rules with gin_bonus=20, target=250')
        """
        name, preset = min(PRESETS.items(), key=lambda item: len(self.changes_from(item[1])))
        differences = self.changes_from(preset)
        return f"{name} rules with {', '.join(differences)}" if differences else f"{name} rules"


_HAND_FIELDS: Final = ("knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", "oklahoma", "oklahoma_ace_limit",
                       "spade_doubles", "stock_floor", "exhaustion", "max_reshuffles")


def _checked_upcard(upcard: int) -> int:
    number = as_integer(upcard)
    if number is None or not 0 <= number <= 51:
        raise InputError(f"upcard must be a card index from 0 to 51, got {shown(upcard, number is not None)}")
    return number


PRESETS: Final[Mapping[str, Rules]] = MappingProxyType(
    {
        "standard": Rules(),
        "oklahoma": Rules(oklahoma=True),
        "straight": Rules(knock_limit=0),
        "knock5": Rules(knock_limit=5),
        "last-card": Rules(stock_floor=0),
        "reshuffle": Rules(exhaustion="reshuffle"),
        # The EAAI Gin Rummy challenge: hand cancelled with two cards left in the stock,
        # alternating dealer, no big gin; a game is won by reaching 100, with no box, game or
        # shutout bonus.
        "eaai": Rules(
            knock_limit=10,
            gin_bonus=25,
            undercut_bonus=25,
            stock_floor=2,
            next_dealer="alternate",
            box_bonus=0,
            game_bonus=0,
            shutout_doubles=False,
        ),
    }
)
"""The named rule sets, read-only; ``standard`` is ``Rules()``.

>>> PRESETS["knock5"].knock_limit
5
>>> PRESETS["eaai"].next_dealer
'alternate'
"""


def preset_names() -> tuple[str, ...]:
    """The preset names, in the order they are documented.

    >>> preset_names()
    ('standard', 'oklahoma', 'straight', 'knock5', 'last-card', 'reshuffle', 'eaai')
    """
    return tuple(PRESETS)


def check_rules(rules: object) -> Rules:
    """``rules`` if it is a ``ginsim.Rules``; a ``TypeError`` otherwise (a programming error, not input)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a ginsim.Rules, got {type(rules).__name__}")
    return rules
