"""Players: a strategy chosen once, as a value, and the one registry of every strategy.

A :class:`Player` is built once where a player enters ginsim (the command line, an API call) from a
strategy's text or a Python strategy object, and passed down as it is: its spec and checked parameter
values, the name it goes by in records, what identifies it in a stored run, and how it is lowered to the
native engine's settings under given rules. A Python strategy is a :class:`PythonPlayer`, a built-in one
a :class:`BuiltinPlayer`. Every built-in strategy, ``learned`` included, lowers through this module's
``LOWERINGS``; importing it registers nothing anywhere.

>>> pair = resolve_players("Simple, threshold(knock_at=5)")
>>> [seat.name for seat in pair], pair[1].native(Rules())[1:]
(['simple', 'threshold:5'], (5,))
>>> Player.of(pair[0]) is pair[0]      # a Player passes through unchanged: parsed once
True
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from gincore.errors import InputError
from ginsim.gin.game.adapter import PythonAdapter
from ginsim.gin.game.native import STRATEGY_KINDS, Engine, check_rules, native_config
from ginsim.gin.game.origins import PythonOrigin, load_python, python_origin
from ginsim.gin.game.policy.learned import lower_learned
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.specs import StrategySpec, parse_strategy, split_players
from ginsim.gin.game.strategies import StrategyProtocol

__all__ = ["LOWERINGS", "BuiltinPlayer", "Player", "PlayerSpec", "PythonPlayer", "display_name", "engine", "has_python",
           "native_spec", "player_name", "resolve_players", "run_identity", "shown_name", "stored_player"]

LOWERINGS: Final[Mapping[str, Callable[[Mapping[str, object], Rules], tuple[int, ...]]]] = MappingProxyType({
    "learned": lower_learned,
})
"""For a built-in strategy whose parameters are not all integers, what turns its values (in a game under
the rules given) into its native struct's ints; every other strategy's values are its ints as they are."""

_METHODS: Final = ("take_discard", "discard", "knock")
"""What an object must have to play as a Python strategy."""



@dataclass(frozen=True)
class Player:
    """One player of Gin, built once (:meth:`Player.of`): the name it goes by in records and error messages.

    Two players are equal when they would play the same: built-in ones by their canonical name, Python
    ones by their strategy object.
    """

    name: str

    @classmethod
    def of(cls, item: PlayerSpec) -> Player:
        """The player of a strategy's text (a built-in's name, ``module:Class`` or ``file.py:Class``), a
        Python strategy object, or a Player (returned as it is); ``InputError`` naming what is wrong.

        >>> Player.of(" Threshold:7")
        BuiltinPlayer(name='threshold:7')
        >>> Player.of(3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        gincore.errors.InputError: a player is a strategy name or an object with ... methods, got int
        """
        if isinstance(item, Player):
            return item
        if isinstance(item, str):
            loaded = load_python(item)
            if loaded is None:
                spec, values = parse_strategy(item)
                return BuiltinPlayer(spec.canonical(values), spec, MappingProxyType(values))
            item = loaded
        if all(callable(getattr(item, method, None)) for method in _METHODS):
            return PythonPlayer(str(getattr(item, "name", None) or type(item).__name__), item)
        raise InputError(f"a player is a strategy name or an object with take_upcard, take_discard, discard and knock "
                         f"methods, got {type(item).__name__}")

    def __str__(self) -> str:
        return self.name

    @property
    def display(self) -> str:
        """The name a table or figure shows, the canonical one with a built-in's trailing parameters at
        their defaults left out (``marjj`` for ``marjj:5``), so it reads back as the same player."""
        return self.name

    @property
    def python(self) -> bool:
        """Whether it is a Python strategy (played on the slow path, in the parent process)."""
        return False

    def native(self, rules: Rules) -> tuple[Any, ...]:
        """The engine's description of this player in a game under ``rules``: (code, parameters…)."""
        raise NotImplementedError

    def identity(self) -> dict[str, Any]:
        """What identifies this player in a stored run beyond its name (files it reads, a Python origin)."""
        return {}


@dataclass(frozen=True)
class BuiltinPlayer(Player):
    """A built-in (native) strategy with its checked parameter values.

    >>> seat = Player.of("sampler(knock_at=2)")
    >>> seat.name, seat.spec.name, dict(seat.values)
    ('sampler:64:3:2', 'sampler', {'deals': 64, 'discards': 3, 'knock_at': 2})
    """

    spec: StrategySpec = field(compare=False, repr=False)
    values: Mapping[str, object] = field(compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Player.of, (self.name,))

    @property
    def display(self) -> str:
        """Its trailing parameters at their defaults left out.

        >>> Player.of("marjj").display, Player.of("reader:512:3:2").display, Player.of("threshold:10").display
        ('marjj', 'reader:512:3:2', 'threshold:10')
        """
        if not self.spec.numeric:
            return self.name
        parameters = list(self.spec.parameters)
        while parameters and not parameters[-1].required and self.values[parameters[-1].name] == parameters[-1].default:
            parameters.pop()
        shown = [str(self.values[p.name]) for p in parameters]
        return ":".join([self.spec.name, *shown])

    def native(self, rules: Rules) -> tuple[Any, ...]:
        """The strategy's table entry and its native struct's ints, fixed values first, in the struct's order.

        >>> Player.of("gin").native(Rules())[1:], Player.of("search(deals=8)").native(Rules())[1:]
        ((0,), (8, 3, 0))
        """
        lower = LOWERINGS.get(self.spec.name)
        values = (lower(self.values, rules) if lower is not None
                  else tuple(int(self.values[p.name]) for p in self.spec.parameters))  # type: ignore[call-overload]
        return (STRATEGY_KINDS[self.spec.table_entry], *self.spec.fixed.values(), *values)

    def identity(self) -> dict[str, Any]:
        """The SHA-256 of each file its parameters name (``parameter_files``), if any."""
        files = self.spec.file_digests(self.values)
        return {"parameter_files": files} if files else {}


@dataclass(frozen=True)
class PythonPlayer(Player):
    """A strategy written in Python (any object with ``take_discard``, ``discard`` and ``knock``)."""

    strategy: StrategyProtocol = field(repr=False)

    @property
    def python(self) -> bool:
        return True

    def native(self, rules: Rules) -> tuple[Any, ...]:
        """The engine's Python entry and the adapter that calls the strategy and checks its answers."""
        return (STRATEGY_KINDS["python"], PythonAdapter(self.strategy, self.name))

    @property
    def origin(self) -> PythonOrigin:
        """What identifies the strategy in a run, and how to load it again."""
        return python_origin(self.strategy)

    def identity(self) -> dict[str, Any]:
        """Its :class:`~ginsim.gin.game.origins.PythonOrigin` as stored (``python_player``)."""
        return {"python_player": self.origin.to_dict()}


PlayerSpec = str | StrategyProtocol | Player
"""A strategy name (``"simple"``, ``"threshold:5"``, ``"sampler:64"``), a Python strategy, or a Player."""


def resolve_players(players: str | Sequence[PlayerSpec]) -> tuple[Player, Player]:
    """The two players of ``"a,b"`` text or a sequence of names, Python strategies and players.

    >>> [seat.name for seat in resolve_players(["Greedy", " sampler:128"])]
    ['greedy', 'sampler:128:3:0']
    """
    items: list[Any] = split_players(players) if isinstance(players, str) else list(players)
    if len(items) != 2:
        raise InputError(f"Gin Rummy needs exactly two players, got {len(items)}: {items!r}")
    return Player.of(items[0]), Player.of(items[1])


def player_name(item: PlayerSpec) -> str:
    """The name a player goes by in records: a built-in's canonical name, or a Python strategy's ``name``
    attribute (else its class name)."""
    return Player.of(item).name


def display_name(item: PlayerSpec) -> str:
    """The name a table or figure shows for a player (:attr:`Player.display`): ``marjj`` for ``marjj:5``.

    >>> display_name("reader:512:3:0:50"), display_name("sampler(knock_at=2)")
    ('reader', 'sampler:64:3:2')
    """
    return Player.of(item).display


def shown_name(name: str) -> str:
    """A stored player's name as a person reads it: a built-in's :func:`display_name`, any other name (a Python
    strategy's, or one this version does not know) as it is.

    >>> shown_name("marjj:5"), shown_name("you")
    ('marjj', 'you')
    """
    try:
        return display_name(name)
    except InputError:
        return name


def native_spec(item: PlayerSpec, rules: Rules | None = None) -> tuple[Any, ...]:
    """The engine's description of a player in a game under ``rules`` (default the standard game)."""
    return Player.of(item).native(Rules() if rules is None else rules)


def has_python(players: Iterable[PlayerSpec]) -> bool:
    """Whether any player is a Python strategy (which runs on the slow path)."""
    return any(Player.of(seat).python for seat in players)


def run_identity(players: Sequence[PlayerSpec]) -> dict[str, Any]:
    """What identifies the players of a run: ``players``, their names; ``parameter_files`` when a built-in
    reads files; and when a Python strategy plays, ``python_players``, each seat's origin (``None`` for a
    built-in).

    >>> run_identity(resolve_players("simple,greedy"))
    {'players': ['simple', 'greedy']}
    """
    seats = [Player.of(seat) for seat in players]
    pieces = [seat.identity() for seat in seats]
    identity: dict[str, Any] = {"players": [seat.name for seat in seats]}
    if any("parameter_files" in piece for piece in pieces):
        identity["parameter_files"] = [piece.get("parameter_files") for piece in pieces]
    if has_python(seats):
        identity["python_players"] = [piece.get("python_player") for piece in pieces]
    return identity


def stored_player(name: str, origin: object, seat: int) -> Player:
    """The player of ``seat`` of a stored run, from its name and its origin as :func:`run_identity`
    stored them: a built-in strategy, or a Python strategy loaded again from its file or module and
    checked to be the one that played. ``InputError`` says why one cannot be.
    """
    if origin is None:
        try:
            return Player.of(name)
        except InputError:
            raise InputError(f"player {seat} {name!r} is no built-in strategy: a Python strategy, which this run "
                             "directory does not say how to load (it was written before runs stored that)") from None
    if not isinstance(origin, Mapping) or not isinstance(origin.get("class"), str):
        raise InputError(f"player {seat} {name!r}: the run directory's description of it is damaged ({origin!r})")
    spec = origin.get("spec")
    if not isinstance(spec, str):
        raise InputError(f"player {seat} {name!r} is a Python strategy ({origin['class']}) that was handed over as an "
                         "object, not named as file.py:Class or module:Class, so it cannot be loaded again")
    loaded = Player.of(spec)
    if not isinstance(loaded, PythonPlayer) or loaded.origin.source != origin.get("source_sha256"):
        raise InputError(f"player {seat} {name!r}: the source of {spec} has changed since the run, so it would not "
                         "play the same hands")
    return loaded


@functools.lru_cache(maxsize=64)
def _engine(rules: Rules, players: tuple[Player, Player]) -> Engine:
    return Engine(native_config(rules), [seat.native(rules) for seat in players])


def engine(rules: Rules, players: tuple[PlayerSpec, PlayerSpec] | str) -> Engine:
    """The native engine for a rule set and two players (built once, then reused).

    >>> engine(Rules(), "simple,simple").play_record(1, 2, 0)[0]
    0
    """
    return _engine(check_rules(rules), resolve_players(players))

