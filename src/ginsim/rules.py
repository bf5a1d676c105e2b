"""The rules of a Gin Rummy game: one validated, immutable object per rule set.

Every option of ``RULES.md`` is a field of :class:`Rules`, with the same name and default.
A ``Rules`` value is checked when it is built, so an invalid rule set never reaches the
engine. It round-trips through JSON-ready dicts (:meth:`Rules.to_dict`, for Parquet metadata)
and is built from ``field=value`` text as typed on a command line
(:meth:`Rules.parse_overrides`).

>>> from ginsim.rules import PRESETS, Rules
>>> seven_of_hearts = 2 * 13 + 6
>>> Rules.preset("oklahoma").knock_limit_for(seven_of_hearts)
7
>>> PRESETS["straight"].replace(target=250).to_dict()["target"]
250
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, TypeAlias, TypeVar

from gincore.errors import InputError

__all__ = ["PRESETS", "Rules", "preset_names"]

_T = TypeVar("_T")

_RANKS_PER_SUIT: Final = 13
_ACE: Final = 0
_SPADES: Final = 3
_NONE_TEXT: Final = "none"
_TRUE_TEXTS: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_TEXTS: Final = frozenset({"false", "no", "off", "0"})
_INTEGER_TEXT: Final = re.compile(r"[+-]?\d+")


# Each field carries one of the three value kinds below in its metadata. Validation, parsing of
# command-line text and the help listing all read that one description, so they cannot disagree.


def _is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class _Integer:
    """An ``int``, never a ``bool``, in ``low..high``; also ``None`` when ``none_means`` is set."""

    low: int
    high: int | None = None
    none_means: str | None = None

    def type_ok(self, value: object) -> bool:
        return _is_integer(value)

    def accepts(self, value: object) -> bool:
        if value is None:
            return self.none_means is not None
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return self.low <= value and (self.high is None or value <= self.high)

    def describe(self) -> str:
        if self.high is None:
            numbers = f"an integer >= {self.low}"
        elif self.high == self.low + 1:
            numbers = f"{self.low} or {self.high}"
        else:
            numbers = f"an integer from {self.low} to {self.high}"
        if self.none_means is None:
            return numbers
        return f"None ({self.none_means}) or {numbers}"

    def parse(self, name: str, text: str) -> int | None:
        if self.none_means is not None and text.lower() == _NONE_TEXT:
            return None
        if _INTEGER_TEXT.fullmatch(text) is None:
            expected = "an integer" if self.none_means is None else "an integer or 'none'"
            raise InputError(f"{text!r} is not {expected} for {name}")
        return int(text)


@dataclass(frozen=True)
class _Flag:
    """A ``bool``; 0 and 1 are refused so that a number meant for another field cannot pass."""

    def type_ok(self, value: object) -> bool:
        return isinstance(value, bool)

    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)

    def describe(self) -> str:
        return "True or False"

    def parse(self, name: str, text: str) -> bool:
        lowered = text.lower()
        if lowered in _TRUE_TEXTS:
            return True
        if lowered in _FALSE_TEXTS:
            return False
        raise InputError(f"{text!r} is not a boolean for {name} (use true or false)")


@dataclass(frozen=True)
class _Choice:
    """One of a few exact strings."""

    choices: tuple[str, ...]

    def type_ok(self, value: object) -> bool:
        return isinstance(value, str)

    def accepts(self, value: object) -> bool:
        return isinstance(value, str) and value in self.choices

    def describe(self) -> str:
        return "one of " + ", ".join(repr(choice) for choice in self.choices)

    def parse(self, name: str, text: str) -> str:
        # Text that is no choice is passed on unchanged: validation then names the choices.
        return next((choice for choice in self.choices if choice == text.lower()), text)


_Kind: TypeAlias = _Integer | _Flag | _Choice


def _option(default: _T, kind: _Kind, description: str) -> _T:
    """A rules field: its default, allowed values and one-line description."""
    return dataclasses.field(default=default, metadata={"kind": kind, "description": description})


def _shown(value: object, type_ok: bool) -> str:
    """A refused value as an error message shows it, naming its type when that is the problem."""
    if type_ok or value is None:
        return repr(value)
    return f"{value!r} ({type(value).__name__})"


def _unknown(what: str, names: list[object], known: Iterable[str]) -> InputError:
    """The error ``unknown rules <what> 'x' (did you mean 'y'?); known <what>s: a, b, c``."""
    choices = list(known)
    hint = ""
    if len(names) == 1 and isinstance(names[0], str):
        close = difflib.get_close_matches(names[0], choices, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    plural = "s" if len(names) > 1 else ""
    listed = ", ".join(repr(name) for name in names)
    return InputError(
        f"unknown rules {what}{plural} {listed}{hint}; known {what}s: {', '.join(choices)}"
    )


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The full rule set of a game; the defaults are the standard game of ``RULES.md``.

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

    knock_limit: int = _option(
        10, _Integer(0, 10), "most deadwood a knock may leave; 0 is straight gin"
    )
    gin_bonus: int = _option(25, _Integer(0), "bonus for going gin")
    undercut_bonus: int = _option(25, _Integer(0), "bonus for undercutting the knocker")
    big_gin_bonus: int | None = _option(
        None, _Integer(0, none_means="big gin off"), "bonus for big gin, usually 31"
    )
    oklahoma: bool = _option(False, _Flag(), "the upcard sets each hand's knock limit")
    oklahoma_ace_limit: int = _option(
        0, _Integer(0, 1), "Oklahoma knock limit under an ace upcard; 0 means gin only"
    )
    spade_doubles: bool = _option(
        True, _Flag(), "Oklahoma: a spade upcard doubles every score of the hand"
    )
    stock_floor: int = _option(2, _Integer(0, 10), "number of stock cards that are never drawn")
    exhaustion: str = _option(
        "draw",
        _Choice(("draw", "reshuffle")),
        "at the stock floor, draw the hand or reshuffle the discards into a new stock",
    )
    max_reshuffles: int = _option(1, _Integer(0), "reshuffles allowed in a hand")
    next_dealer: str = _option(
        "loser", _Choice(("loser", "winner", "alternate")), "who deals the next hand"
    )
    target: int | None = _option(
        100, _Integer(1, none_means="single-hand game"), "points that end a game"
    )
    box_bonus: int = _option(25, _Integer(0), "end-of-game bonus for every hand won")
    game_bonus: int = _option(100, _Integer(0), "end-of-game bonus to the winner")
    shutout_doubles: bool = _option(
        True, _Flag(), "the winner's total is doubled when the loser won no hand"
    )
    hollywood: bool = _option(False, _Flag(), "Hollywood scoring: three games at once")

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            kind: _Kind = field.metadata["kind"]
            value = getattr(self, field.name)
            if not kind.accepts(value):
                shown = _shown(value, kind.type_ok(value))
                raise InputError(f"{field.name} must be {kind.describe()}, got {shown}")
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
        raise _unknown("preset", [name], PRESETS)

    def replace(self, **changes: object) -> Rules:
        """A copy with the given fields changed, validated like a new ``Rules``.

        >>> Rules().replace(knock_limit=5).knock_limit
        5
        >>> Rules().replace(knock_limt=5)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: unknown rules field 'knock_limt' (did you mean 'knock_limit'?); known ...
        """
        _refuse_unknown_fields(changes)
        # Values are checked at run time by __post_init__, not by their static types.
        checked_later: dict[str, Any] = dict(changes)
        return dataclasses.replace(self, **checked_later)

    def to_dict(self) -> dict[str, int | bool | str | None]:
        """Every field by name, in declaration order; all values are JSON-ready.

        >>> import json
        >>> text = json.dumps(Rules.preset("knock5").to_dict())
        >>> Rules.from_dict(json.loads(text)) == Rules.preset("knock5")
        True
        """
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """The rules saved by :meth:`to_dict`; missing fields take their defaults.

        Unknown keys are refused, so that a typo or a file from an incompatible version is
        caught instead of silently ignored.

        >>> Rules.from_dict({"knock_limit": 5, "target": None}).target is None
        True
        >>> Rules.from_dict({"knock": 5})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: unknown rules field 'knock' (did you mean 'knock_limit'?); known ...
        """
        if not isinstance(data, Mapping):
            raise InputError(
                f"rules data must be a mapping of field names to values, got {type(data).__name__}"
            )
        _refuse_unknown_fields(data)
        return cls().replace(**data)

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
        return cls.preset(preset).replace(**parse_field_texts(items, _KINDS))

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

    @classmethod
    def fields_help(cls) -> list[tuple[str, object, str]]:
        """``(name, default, description)`` of every field, in declaration order.

        Each description is one line and ends with the allowed values.

        >>> name, default, description = Rules.fields_help()[0]
        >>> name, default
        ('knock_limit', 10)
        >>> description
        'most deadwood a knock may leave; 0 is straight gin (allowed: an integer from 0 to 10)'
        """
        return [
            (
                field.name,
                field.default,
                f"{field.metadata['description']} (allowed: {field.metadata['kind'].describe()})",
            )
            for field in dataclasses.fields(cls)
        ]


_KINDS: Final[Mapping[str, _Kind]] = MappingProxyType(
    {field.name: field.metadata["kind"] for field in dataclasses.fields(Rules)}
)
_FIELD_NAMES: Final = tuple(_KINDS)


def parse_field_texts(items: Iterable[str], kinds: Mapping[str, _Kind]) -> dict[str, object]:
    """``field=value`` texts as typed on a command line, parsed by each field's kind (shared by the
    rules of both games). A field name may use ``-`` for ``_``; a field set twice is refused."""
    if isinstance(items, str):
        raise InputError(f"overrides must be a list of field=value texts, got {items!r}")
    changes: dict[str, object] = {}
    for item in items:
        if not isinstance(item, str):
            raise InputError(f"an override must be field=value text, got {_shown(item, False)}")
        name_text, separator, value_text = item.partition("=")
        name = name_text.strip().replace("-", "_")
        if not separator or not name:
            raise InputError(f"an override must be field=value text, got {item!r}")
        if name not in kinds:
            raise _unknown("field", [name], tuple(kinds))
        if name in changes:
            raise InputError(f"{name} is set more than once in the overrides")
        changes[name] = kinds[name].parse(name, value_text.strip())
    return changes


def _refuse_unknown_fields(names: Iterable[object]) -> None:
    unknown = [name for name in names if name not in _KINDS]
    if unknown:
        raise _unknown("field", unknown, _FIELD_NAMES)


def _checked_upcard(upcard: int) -> int:
    if not _is_integer(upcard) or not 0 <= upcard <= 51:
        shown = _shown(upcard, _is_integer(upcard))
        raise InputError(f"upcard must be a card index from 0 to 51, got {shown}")
    return upcard


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
