"""Validated rule fields, shared by the rules of every game.

A game's rules are a frozen, keyword-only dataclass deriving from :class:`RuleSet`, each field made by
:func:`option` with one of three value kinds (:class:`Integer`, :class:`Flag`, :class:`Choice`); a
strategy's parameters use the same kinds, and :class:`File` too.
Validation, the parsing of ``field=value`` text typed on a command line and the help listing all read
that one description, so they cannot disagree. Every integer field has a range (the native engines'
types hold every value in it, and every score it leads to fits a record); any integral number within
it is taken (numpy integers too) and stored as an ``int``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, kw_only=True)
... class Example(RuleSet):
...     target: int = option(100, Integer(1, 1000), "points that end a game")
...     doubles: bool = option(True, Flag(), "a lucky hand doubles")
>>> Example().with_overrides(["target=250", "doubles=no"])
Example(target=250, doubles=False)
>>> Example(target=0)
Traceback (most recent call last):
    ...
gincore.errors.InputError: target must be an integer from 1 to 1000, got 0
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, ClassVar, Final, Self, TypeAlias, TypeVar

from gincore.errors import InputError
from ginsim.core.checks import as_integer, shown_number

__all__ = ["Choice", "File", "Flag", "Integer", "Kind", "RuleSet", "option", "unknown_name"]

_T = TypeVar("_T")

_NONE_TEXT: Final = "none"
_TRUE_TEXTS: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_TEXTS: Final = frozenset({"false", "no", "off", "0"})
_INTEGER_TEXT: Final = re.compile(r"[+-]?\d+")
_MOST_DIGITS: Final = 30
"""Integer text longer than this is refused before it is converted (no field's range comes near)."""


def is_integer(value: object) -> bool:
    """Whether ``value`` is an integral number (an ``int``, a numpy integer) and not a ``bool``."""
    return as_integer(value) is not None


@dataclass(frozen=True)
class Integer:
    """An integral number, never a ``bool``, in ``low..high``; also ``None`` when ``none_means`` is set."""

    low: int
    high: int
    none_means: str | None = None

    def type_ok(self, value: object) -> bool:
        return is_integer(value)

    def accepts(self, value: object) -> bool:
        if value is None:
            return self.none_means is not None
        number = as_integer(value)
        return number is not None and self.low <= number <= self.high

    def normal(self, value: object) -> object:
        """The accepted ``value`` as it is stored: an ``int`` (or ``None``)."""
        return None if value is None else as_integer(value)

    def describe(self) -> str:
        if self.high == self.low + 1:
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
        if len(text.lstrip("+-")) > _MOST_DIGITS:
            raise InputError(f"{name} must be {self.describe()}, got a number of {len(text.lstrip('+-'))} digits")
        return int(text)


@dataclass(frozen=True)
class Flag:
    """A ``bool``; 0 and 1 are refused so that a number meant for another field cannot pass."""

    def type_ok(self, value: object) -> bool:
        return isinstance(value, bool)

    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)

    def normal(self, value: object) -> object:
        return value

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
class Choice:
    """One of a few exact strings."""

    choices: tuple[str, ...]

    def type_ok(self, value: object) -> bool:
        return isinstance(value, str)

    def accepts(self, value: object) -> bool:
        return isinstance(value, str) and value in self.choices

    def normal(self, value: object) -> object:
        return value

    def describe(self) -> str:
        return "one of " + ", ".join(repr(choice) for choice in self.choices)

    def parse(self, name: str, text: str) -> str:
        # Text that is no choice is passed on unchanged: validation then names the choices.
        return next((choice for choice in self.choices if choice == text.lower()), text)


@dataclass(frozen=True)
class File:
    """The path of an existing file with one of a few name endings, stored as its absolute path (a
    strategy's weights file, say; no rule field is a file); also ``None`` when ``none_means`` is set, and
    ``none_reads`` names the files of the package that ``None`` then plays (``"package:path"``).

    >>> [file.name for file in File((".npz",), "shipped", ("ginsim.gin:data/learned_standard.npz",)).none_files()]
    ['learned_standard.npz']
    """

    suffixes: tuple[str, ...]
    none_means: str | None = None
    none_reads: tuple[str, ...] = ()

    def none_files(self) -> list[Traversable]:
        """The package's files ``None`` stands for, in order."""
        return [resources.files(package).joinpath(path)
                for package, path in (entry.split(":", 1) for entry in self.none_reads)]

    def type_ok(self, value: object) -> bool:
        return isinstance(value, (str, Path))

    def accepts(self, value: object) -> bool:
        if value is None:
            return self.none_means is not None
        if not isinstance(value, (str, Path)) or not str(value).strip():
            return False
        path = Path(value).expanduser()
        return path.suffix.lower() in self.suffixes and path.is_file()

    def normal(self, value: object) -> object:
        return None if value is None else str(Path(str(value)).expanduser().resolve())

    def describe(self) -> str:
        path = "the path of an existing " + " or ".join(self.suffixes) + " file"
        return path if self.none_means is None else f"{path}, or none ({self.none_means})"

    def parse(self, name: str, text: str) -> str:
        return text  # checked with the value: the message then names the file


Kind: TypeAlias = Integer | Flag | Choice | File


def option(default: _T, kind: Kind, description: str) -> _T:
    """A rules field: its default, allowed values and one-line description."""
    return dataclasses.field(default=default, metadata={"kind": kind, "description": description})


def shown(value: object, type_ok: bool = False) -> str:
    """A refused value as an error message shows it, naming its type when that is the problem."""
    if type_ok or value is None:
        return shown_number(value)
    return f"{value!r} ({type(value).__name__})"


def unknown_name(what: str, names: list[object], known: Iterable[str]) -> InputError:
    """The error ``unknown rules <what> 'x' (did you mean 'y'?); known <what>s: a, b, c``.

    >>> str(unknown_name("preset", ["oklahma"], ["standard", "oklahoma"]))
    "unknown rules preset 'oklahma' (did you mean 'oklahoma'?); known presets: standard, oklahoma"
    """
    choices = list(known)
    hint = ""
    if len(names) == 1 and isinstance(names[0], str):
        close = difflib.get_close_matches(names[0], choices, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    plural = "s" if len(names) > 1 else ""
    listed = ", ".join(repr(name) for name in names)
    return InputError(f"unknown rules {what}{plural} {listed}{hint}; known {what}s: {', '.join(choices)}")


class RuleSet:
    """The behaviour every game's rules dataclass shares: checked fields, copies, dicts, text overrides.

    Subclasses are ``@dataclass(frozen=True, kw_only=True)`` with every field made by :func:`option`;
    :meth:`check` adds the checks that involve several fields.
    """

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            kind: Kind = field.metadata["kind"]
            value = getattr(self, field.name)
            if not kind.accepts(value):
                raise InputError(f"{field.name} must be {kind.describe()}, got {shown(value, kind.type_ok(value))}")
            object.__setattr__(self, field.name, kind.normal(value))  # e.g. a numpy integer as an int
        self.check()

    def check(self) -> None:
        """Checks across fields, after each field was checked on its own; none by default."""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The field names, in declaration order.

        >>> from ginsim.rummy import Rules
        >>> Rules.field_names()
        ('target', 'max_turnovers', 'rummy_doubles')
        """
        return tuple(field.name for field in dataclasses.fields(cls))

    @classmethod
    def _refuse_unknown(cls, names: Iterable[object]) -> None:
        known = cls.field_names()
        unknown = [name for name in names if name not in known]
        if unknown:
            raise unknown_name("field", unknown, known)

    def replace(self, **changes: object) -> Self:
        """A copy with the given fields changed, validated like a new rule set; unknown fields are refused.

        >>> from ginsim.rummy import Rules
        >>> Rules().replace(target=250).target
        250
        >>> Rules().replace(targt=250)
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: unknown rules field 'targt' (did you mean 'target'?); known fields: ...
        """
        self._refuse_unknown(changes)
        checked_later: dict[str, Any] = dict(changes)  # values are checked by __post_init__
        return dataclasses.replace(self, **checked_later)

    def to_dict(self) -> dict[str, Any]:
        """Every field by name, in declaration order; all values are JSON-ready.

        >>> from ginsim.rummy import Rules
        >>> Rules().to_dict()
        {'target': 100, 'max_turnovers': 3, 'rummy_doubles': True}
        """
        return {name: getattr(self, name) for name in self.field_names()}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        """The rules saved by :meth:`to_dict`; missing fields take their defaults.

        Unknown keys are refused, so that a typo or a file from an incompatible version is caught
        instead of silently ignored.

        >>> from ginsim.rummy import Rules
        >>> Rules.from_dict(Rules(target=50).to_dict()) == Rules(target=50)
        True
        """
        if not isinstance(data, Mapping):
            raise InputError(f"rules data must be a mapping of field names to values, got {type(data).__name__}")
        cls._refuse_unknown(data)
        return cls().replace(**data)

    def with_overrides(self, items: Iterable[str]) -> Self:
        """A copy with ``field=value`` overrides typed on a command line.

        Values are integers, booleans (``true``/``false``, also ``yes``/``no``, ``on``/``off``,
        ``1``/``0``; any case), ``none`` for the fields that allow it, or a choice's name (any case).
        A field name may use ``-`` for ``_``; spaces around names and values are ignored; setting one
        field twice is refused.

        >>> from ginsim import Rules
        >>> Rules().with_overrides(["knock-limit=5", "big_gin_bonus=31"]).big_gin_bonus
        31
        >>> Rules().with_overrides(["knock_limit=abc"])
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: 'abc' is not an integer for knock_limit
        """
        if isinstance(items, str):
            raise InputError(f"overrides must be a list of field=value texts, got {items!r}")
        kinds = {field.name: field.metadata["kind"] for field in dataclasses.fields(self)}
        changes: dict[str, object] = {}
        for item in items:
            if not isinstance(item, str):
                raise InputError(f"an override must be field=value text, got {shown(item)}")
            name_text, separator, value_text = item.partition("=")
            name = name_text.strip().replace("-", "_")
            if not separator or not name:
                raise InputError(f"an override must be field=value text, got {item!r}")
            if name not in kinds:
                raise unknown_name("field", [name], tuple(kinds))
            if name in changes:
                raise InputError(f"{name} is set more than once in the overrides")
            changes[name] = kinds[name].parse(name, value_text.strip())
        return self.replace(**changes)

    @classmethod
    def fields_help(cls) -> list[tuple[str, object, str]]:
        """``(name, default, description)`` of every field, in declaration order; each description is
        one line ending with the allowed values.

        >>> from ginsim import Rules
        >>> Rules.fields_help()[0]
        ('knock_limit', 10, 'most deadwood a knock may leave; 0 is straight gin (allowed: an integer from 0 to 10)')
        """
        return [(field.name, field.default,
                 f"{field.metadata['description']} (allowed: {field.metadata['kind'].describe()})")
                for field in dataclasses.fields(cls)]

    def label(self) -> str:
        """The rules in a few words, for titles: what differs from the defaults.

        Games override it to name their presets.

        >>> from ginsim.rummy import Rules
        >>> Rules(target=50).label()
        'classic Rummy rules with target=50'
        """
        differences = self.changes_from(type(self)())
        return "default rules" + (f" with {', '.join(differences)}" if differences else "")

    def changes_from(self, other: RuleSet) -> list[str]:
        """``field=value`` for every field whose value differs from ``other``'s, by field name.

        >>> from ginsim import Rules
        >>> Rules(knock_limit=5, target=None).changes_from(Rules())
        ['knock_limit=5', 'target=None']
        """
        theirs = other.to_dict()
        return [f"{name}={value}" for name, value in sorted(self.to_dict().items()) if theirs.get(name) != value]
