"""The built-in strategies and their typed parameters, each declared once.

A strategy's parameters are declared here with a name, a kind (a range of integers, a file …), a
default and one line of meaning; the strategy-name parser, ``ginsim strategies``, the docs' tables and
every error message read that one declaration, and at import each native strategy's parameter struct
(``gincore/_gin/strategies/*.pxi``) is checked to have exactly the declared fields, in order
(by :mod:`ginsim.gin.game.native`, the one module that speaks to the engine).

A strategy is written by its name with its parameters as keywords, or in the shorthand of its
parameters' values in declared order after colons; omitted parameters take their defaults:

>>> canonical_name("reader(deals=1024, hedge=30)")
'reader:1024:3:0:30:1'
>>> canonical_name("reader:1024") == canonical_name("Reader(deals=1024)") == "reader:1024:3:0:50:1"
True
>>> canonical_name("search(deals=0)")
Traceback (most recent call last):
    ...
gincore.errors.InputError: strategy 'search(deals=0)': deals must be an integer from 1 to 4096, got 0

The canonical name fills in every default. It names the player in records and in a stored run's
identity; for strategies whose parameters are all integers it is the colon form, as it has been since
the first stored runs (which therefore still resume); a strategy with any other parameter is written
with keywords, a file as its absolute path.
"""
from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Final

from gincore.errors import InputError
from ginsim.core.fields import File, Integer, Kind

__all__ = ["SPECS", "STRATEGIES", "Parameter", "StrategySpec", "canonical_name",
           "check_native_structs", "describe", "parse_strategy", "split_players"]

_REQUIRED: Final = object()
"""The default of a parameter that must be given."""
_NUMBER: Final = re.compile(r"-?[0-9]{1,30}")
"""A parameter's integer: ASCII digits only (no sign but minus, no spaces, no other scripts' digits)."""
_CALL: Final = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*\((?P<arguments>.*)\)", re.DOTALL)
_KEYWORD: Final = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*=(?P<value>.*)", re.DOTALL)


@dataclass(frozen=True)
class Parameter:
    """One parameter of a strategy: its name (the keyword users write, and the field of the native
    parameter struct), its kind, what it means, its default (none: it must be given) and the letter
    that stands for it in the shorthand title (``search:S:C:K``).

    >>> SPECS["search"].parameters[0].default, SPECS["search"].parameters[0].letter
    (64, 'S')
    """

    name: str
    kind: Kind
    meaning: str
    default: object = field(default=_REQUIRED, repr=False)
    letter: str = ""

    def __repr__(self) -> str:
        default = "" if self.required else f", default={self.default!r}"
        return (f"Parameter(name={self.name!r}, kind={self.kind!r}, meaning={self.meaning!r}{default}, "
                f"letter={self.letter!r})")

    @property
    def required(self) -> bool:
        """Whether it must be given (it has no default)."""
        return self.default is _REQUIRED

    def value(self, strategy: str, written: object) -> object:
        """The checked value of this parameter from what was written (text from a strategy name, or
        a value from Python); ``InputError`` naming the strategy and the parameter otherwise."""
        if isinstance(written, str) and isinstance(self.kind, Integer):
            text = written.strip()
            if _NUMBER.fullmatch(text) is None:
                raise InputError(f"strategy {strategy!r}: {self.name} must be {self.kind.describe()}, got {written!r}")
            written = int(text)
        if isinstance(written, str) and isinstance(self.kind, File):
            written = _unquoted(written.strip())
            written = None if written.lower() == "none" and self.kind.none_means is not None else written
        if not self.kind.accepts(written):
            shown = written if isinstance(written, int) and not isinstance(written, bool) else repr(written)
            raise InputError(f"strategy {strategy!r}: {self.name} must be {self.kind.describe()}, got {shown}")
        return self.kind.normal(written)

    def help(self) -> str:
        """One line: the parameter, its allowed values, its default and meaning.

        >>> SPECS["search"].parameters[2].help()
        'knock_at (K): an integer from 0 to 10, default 0; the knock threshold of its own play-outs'
        """
        letter = f" ({self.letter})" if self.letter else ""
        default = "required" if self.required else f"default {self.default}"
        return f"{self.name}{letter}: {self.kind.describe()}, {default}; {self.meaning}"


@dataclass(frozen=True)
class StrategySpec:
    """One built-in strategy: its name, what it does, its parameters, the native table's entry that
    plays it (``kind``, default its name) and the values that make it a variant of another (``gin`` is
    ``threshold`` with ``knock_at`` 0). A strategy with parameters that are not integers is lowered to the
    ints of its native struct by ``ginsim.gin.game.players.LOWERINGS`` (loading a file, say).

    >>> SPECS["search"].title, SPECS["gin"].kind, SPECS["marjj"].signature
    ('search:S:C:K', 'threshold', 'marjj(early=5)')
    """

    name: str
    description: str
    parameters: tuple[Parameter, ...] = ()
    kind: str = ""
    fixed: Mapping[str, int] = field(default_factory=dict)

    @property
    def table_entry(self) -> str:
        """The native strategy table's entry that plays it."""
        return self.kind or self.name

    @property
    def title(self) -> str:
        """The name with its parameters' letters, as the shorthand writes it (``search:S:C:K``)."""
        return ":".join([self.name, *(parameter.letter for parameter in self.parameters)])

    @property
    def signature(self) -> str:
        """The keyword form with every default, as in ``search(deals=64, discards=3, knock_at=0)``."""
        if not self.parameters:
            return self.name
        written = ", ".join(f"{p.name}={(p.letter or p.name.upper()) if p.required else p.default}"
                            for p in self.parameters)
        return f"{self.name}({written})"

    @property
    def form(self) -> str:
        """How to write it, for error messages."""
        if not self.parameters:
            return f"{self.name} (it takes no parameters)"
        return f"{self.signature} or {self.title}, with " + "; ".join(p.help() for p in self.parameters)

    @property
    def numeric(self) -> bool:
        """Whether every parameter is an integer (then the canonical name is the colon form)."""
        return all(isinstance(parameter.kind, Integer) for parameter in self.parameters)

    def values(self, text: str, positional: list[str], keywords: dict[str, str]) -> dict[str, object]:
        """Every parameter's checked value from what ``text`` wrote, defaults filled in."""
        if len(positional) > len(self.parameters):
            most = f"{len(self.parameters)} parameter" + ("s" if len(self.parameters) > 1 else "")
            raise InputError(f"strategy {text!r}: {self.name} takes at most {most}, "
                             f"got {len(positional)}; write {self.form}")
        names = [parameter.name for parameter in self.parameters]
        given: dict[str, object] = dict(zip(names, positional, strict=False))
        for name, value in keywords.items():
            if name not in names:
                close = difflib.get_close_matches(name, names, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                known = f"its parameters are {', '.join(names)}" if names else "it takes no parameters"
                raise InputError(f"strategy {text!r}: {self.name} has no parameter {name!r}{hint}; {known}")
            if name in given:
                raise InputError(f"strategy {text!r}: {name} is given more than once")
            given[name] = value
        checked: dict[str, object] = {}
        for parameter in self.parameters:
            if parameter.name in given:
                checked[parameter.name] = parameter.value(text, given[parameter.name])
            elif parameter.required:
                raise InputError(f"strategy {text!r}: {parameter.name} must be given; write {self.form}")
            else:
                checked[parameter.name] = parameter.default
        return checked

    def canonical(self, values: Mapping[str, object]) -> str:
        """The canonical name of this strategy with these (checked) parameter values."""
        if not self.parameters:
            return self.name
        if self.numeric:
            return ":".join([self.name, *(str(values[p.name]) for p in self.parameters)])
        written = ", ".join(f"{p.name}={values[p.name]!r}" for p in self.parameters
                            if p.required or values[p.name] != p.default)
        return f"{self.name}({written})" if written else self.name

    def file_digests(self, values: Mapping[str, object]) -> dict[str, str]:
        """The SHA-256 of each file parameter's file, by parameter name: part of a stored run's identity,
        so that a run never resumes with a file that changed. A parameter left at ``None`` has that of the
        package's files it plays instead, read one after another (a release's new shipped weights are
        another player too).

        >>> digests = SPECS["learned"].file_digests({"weights": None})
        >>> list(digests), len(digests["weights"])
        (['weights'], 64)
        """
        digests: dict[str, str] = {}
        for p in self.parameters:
            if not isinstance(p.kind, File):
                continue
            value = values[p.name]
            files = [Path(str(value))] if value is not None else p.kind.none_files()
            if files:
                digests[p.name] = hashlib.sha256(b"".join(file.read_bytes() for file in files)).hexdigest()
        return digests


def _deals(default: int) -> Parameter:
    return Parameter("deals", Integer(1, 4096), "deals per decision", default, "S")


_COMPARED: Final = Parameter("discards", Integer(1, 11), "discards compared", 3, "C")
_OWN_KNOCK: Final = Parameter("knock_at", Integer(0, 10), "the knock threshold of its own play-outs", 0, "K")

SHIPPED_POLICIES: Final = ("learned_standard.npz", "learned_oklahoma.npz")
"""The policy files in ``ginsim/gin/data`` that ``learned`` plays when it is given no weights: the one
trained for the game's hands (the standard game's and Oklahoma's)."""

SPECS: Final = MappingProxyType({spec.name: spec for spec in (
    StrategySpec("random", "Uniformly random legal choices: a coin decides every draw, the discard is any legal "
                 "card, and a legal knock or gin is taken when a coin says so."),
    StrategySpec("simple", "The EAAI competition baseline: takes a face-up card only if it melds, discards "
                 "randomly among the least-deadwood choices, knocks at once."),
    StrategySpec("greedy", "Takes a face-up card only if it lowers the deadwood after the best discard; "
                 "discards to the least deadwood, then the highest card, then the card least useful to the "
                 "opponent; knocks at once."),
    StrategySpec("threshold", "Plays like greedy but knocks only with deadwood K or less (K within the hand's "
                 "limit), else plays on for a lower count or gin.",
                 (Parameter("knock_at", Integer(0, 10), "the most deadwood it knocks with", letter="K"),)),
    StrategySpec("gin", "Never knocks: plays on until gin (threshold:0).", kind="threshold",
                 fixed=MappingProxyType({"knock_at": 0})),
    StrategySpec("defensive", "Reads what the opponent took and refused and pays up to half a point of "
                 "deadwood per unit of danger to keep its discards out of the opponent's likely melds; holds "
                 "out for gin unless the opponent looks close (two cards taken from the pile: knocks with 5 "
                 "or less) or the stock is nearly spent."),
    StrategySpec("marjj", "A reference player after the EAAI-21 winner (Ahmed et al., AAAI-21): discards by the "
                 "expected deadwood after its next stock draw plus the price of the chance the opponent melds "
                 "the card (from the opponent model, which reads what the opponent took, refused and "
                 "discarded); takes a face-up card when that beats a stock draw's outlook; knocks with any "
                 "legal deadwood in its first E draws (default 5) or the last two before a drawn hand, else "
                 "holds out for gin.",
                 (Parameter("early", Integer(1, 30), "its own draws within which it knocks", 5, "E"),)),
    StrategySpec("search", "Determinised Monte-Carlo with the opponent model: at each draw and discard it deals "
                 "the cards it has not seen S times (default 64), the opponent's hand drawn from the model's "
                 "odds, and plays out taking or refusing a useful face-up card, marjj's cheapest discard and up "
                 "to C - 1 close ones (default 3), and the knock when legal, to the end of the hand (itself "
                 "patient: greedy, knocking early, at K or less (default 0) or for gin; the opponent as "
                 "Simple); in a match it values a result by the chance to win the match from the new scores, "
                 "else by its points.",
                 (_deals(64), _COMPARED, _OWN_KNOCK)),
    StrategySpec("reader", "Like search, but reads its opponent: unless the match has shown the opponent knock "
                 "late in a hand and never pass up a knock (then it plays as search with its S, C and K, but "
                 "for the last-turn reading below), it draws the opponent's hands near a guess of its deadwood "
                 "from what it has seen this hand (G = 1, the default: a small network fitted on simulated "
                 "hands, reading the cards the opponent discarded, refused, took and holds, the cards seen "
                 "elsewhere and the draws; G = 0: a linear fit on its draws, discards and face-up cards taken, "
                 "held and refused), and plays H percent of the deals out (default 50) with the "
                 "opponent patient, the rest with it as Simple; always, the hands it draws for a Simple "
                 "opponent agree with its last turn (over the knock limit, its discard one of least deadwood, "
                 "the card it refused not melding); S deals per decision (default 512: its two pictures of "
                 "the opponent need more deals than search's one), C discards (default 3) and its own "
                 "play-outs' knock threshold K as search's.",
                 (_deals(512), _COMPARED, _OWN_KNOCK,
                  Parameter("hedge", Integer(0, 100), "the percentage of deals whose opponent plays out patient",
                            50, "H"),
                  Parameter("guess", Integer(0, 1), "the deadwood guess: 1 the network's, 0 the linear fit's",
                            1, "G"))),
    StrategySpec("sampler", "Flat Monte-Carlo: at each draw and discard it deals the unseen cards again S times "
                 "(default 64) — the opponent's hand consistent with what it took and near the deadwood an "
                 "opponent has by then — plays each of its C best discards (default 3), with and without "
                 "knocking, to the end (itself knocking at K or less, default 0: gin hunting; the opponent as "
                 "Simple), and picks the best average score.",
                 (_deals(64), _COMPARED,
                  Parameter("knock_at", Integer(0, 10), "the knock threshold of its play-outs", 0, "K"))),
    StrategySpec("learned", "Plays a trained network natively: at each decision it sees what the environments' "
                 "observation shows its player and makes the legal move the network rates highest; W is the "
                 "policy file it plays (ginsim train writes them), trained for the game's hands; by default the "
                 "shipped weights of the variant (standard or Oklahoma hands).",
                 (Parameter("weights", File((".npz",), "the variant's shipped weights",
                                              tuple(f"ginsim.gin:data/{name}" for name in SHIPPED_POLICIES)),
                            "the policy file it plays",
                            None, "W"),)),
)})
"""Every built-in strategy by name: one spec each, from which its names, parameters, defaults and
description come. A native strategy is one file in ``gincore/_gin/strategies/`` plus a row here."""

STRATEGIES: Final = MappingProxyType({spec.title: spec.description for spec in SPECS.values()})
"""Every built-in strategy, with one line on what it does and why."""


def check_native_structs(specs: Mapping[str, StrategySpec], structs: Mapping[str, tuple[str, ...]]) -> None:
    """Refuse (``ImportError``) specs whose parameters are not the fields of their native struct (``structs``:
    each native strategy's field names, in order): a parameter added on one side only would be read from
    the wrong place. :mod:`ginsim.gin.game.native` runs it at import."""
    for spec in specs.values():
        native = structs.get(spec.table_entry)
        declared = (*spec.fixed, *(parameter.name for parameter in spec.parameters))
        if native is None or (spec.numeric and native != declared):
            raise ImportError(f"ginsim.gin.game.specs: strategy {spec.name!r} declares the parameters {declared}, "
                              f"its native struct has {native}")



def _unquoted(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _split_arguments(text: str, arguments: str) -> list[str]:
    """The comma-separated arguments of a keyword form, commas inside quotes kept."""
    parts: list[str] = []
    current, quote = "", ""
    for character in arguments:
        if quote:
            quote = "" if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character == ",":
            parts.append(current)
            current = ""
            continue
        current += character
    if quote:
        raise InputError(f"strategy {text!r}: a quote is not closed")
    parts.append(current)
    if len(parts) == 1 and not current.strip():
        return []
    if any(not part.strip() for part in parts):
        raise InputError(f"strategy {text!r}: an empty argument between commas")
    return parts


def split_players(text: str) -> list[str]:
    """The players of ``"a,b"`` text: split at the commas outside a strategy's parentheses and quotes.

    >>> split_players("reader(deals=1024, hedge=30),simple")
    ['reader(deals=1024, hedge=30)', 'simple']
    """
    parts: list[str] = []
    current, depth, quote = "", 0, ""
    for character in text:
        if quote:
            quote = "" if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character in "()":
            depth += 1 if character == "(" else -1
        elif character == "," and depth <= 0:
            parts.append(current)
            current = ""
            continue
        current += character
    return [*parts, current]


def parse_strategy(text: str) -> tuple[StrategySpec, dict[str, object]]:
    """The spec of a built-in strategy written as ``text`` and its parameters' checked values.

    >>> spec, values = parse_strategy("sampler(knock_at=2)")
    >>> spec.name, values
    ('sampler', {'deals': 64, 'discards': 3, 'knock_at': 2})
    >>> parse_strategy("serch")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: unknown strategy 'serch' (did you mean 'search'?); known strategies: ...
    """
    if not isinstance(text, str):
        raise InputError(f"a strategy is written as text, got {type(text).__name__}")
    written = text.strip()
    call = _CALL.fullmatch(written)
    positional: list[str] = []
    keywords: dict[str, str] = {}
    if call is not None:
        name = call["name"]
        for argument in _split_arguments(text, call["arguments"]):
            keyword = _KEYWORD.fullmatch(argument)
            if keyword is None:
                if keywords:
                    raise InputError(f"strategy {text!r}: a value without a name after a named one")
                positional.append(argument)
            elif keyword["name"].lower() in keywords:
                raise InputError(f"strategy {text!r}: {keyword['name'].lower()} is given more than once")
            else:
                keywords[keyword["name"].lower()] = keyword["value"]
    else:
        name, colon, rest = written.partition(":")
        spec = SPECS.get(name.strip().lower())
        if colon and spec is not None and spec.parameters:
            # a strategy with a file parameter: the last parameter takes the rest (a path may hold a colon)
            positional = rest.split(":", -1 if spec.numeric else len(spec.parameters) - 1)
            if any(part != part.strip() or not part for part in positional):
                raise InputError(f"strategy {text!r}: a value with spaces or an empty value between colons; "
                                 f"write {spec.form}")
        elif colon:
            positional = [rest]
    spec = SPECS.get(name.strip().lower())
    if spec is None:
        close = difflib.get_close_matches(name.strip().lower(), list(SPECS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise InputError(f"unknown strategy {text!r}{hint}; known strategies: {', '.join(SPECS)}")
    if not spec.parameters and (positional or keywords):
        raise InputError(f"strategy {text!r}: {spec.name} takes no parameters")
    return spec, spec.values(text, positional, keywords)


def canonical_name(text: str) -> str:
    """The canonical name of a built-in strategy written as ``text`` (see the module's text)."""
    spec, values = parse_strategy(text)
    return spec.canonical(values)


def describe(name: str) -> str:
    """One line on what a strategy does; an unknown name raises ``InputError``.

    >>> describe("threshold:3").startswith("Plays like greedy")
    True
    """
    return parse_strategy(name)[0].description
