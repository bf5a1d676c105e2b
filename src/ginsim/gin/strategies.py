"""Strategies: the native ones by name, and the ``Strategy`` protocol for players written in Python.

Native strategies are played inside ``gincore`` without the GIL; a name may carry parameters
(``threshold:5``, ``sampler:64:4``). Any object with the methods of :class:`Strategy` plays through
the same hand loop on a slower path that calls it with a read-only :class:`View` of what its player
may see — never the opponent's hand or the stock.

>>> describe("gin")
'Never knocks: plays on until gin (threshold:0).'
>>> resolve_players("simple,threshold:5")
('simple', 'threshold:5')

A Python strategy, worked through (it plays like the EAAI baseline but never knocks above 5):

>>> from ginsim import Rules, simulate
>>> class CarefulKnocker(Strategy):
...     name = "careful"
...     def discard(self, view):
...         return min(view.discard_options(), key=lambda card: (view.deadwood_after(card), -card))
...     def knock(self, view):
...         return view.deadwood <= 5
>>> records = simulate(Rules(), [CarefulKnocker(), "simple"], hands=20, seed=1, workers=1)
>>> set(records.loc[records["knocker"] == 0, "knocker_deadwood"]) <= set(range(6))
True
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import importlib
import importlib.util
import inspect
import pickle
import re
import sys
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Final, Protocol, cast, runtime_checkable

import numpy as np

import gincore
from gincore._engine import STRATEGY_KINDS, StrategyError
from gincore.errors import InputError
from ginsim.checks import as_integer

__all__ = [
    "SPECS",
    "STRATEGIES",
    "Parameter",
    "PlayerSpec",
    "Strategy",
    "StrategyError",
    "StrategyProtocol",
    "StrategySpec",
    "View",
    "describe",
    "in_some_meld",
    "player_name",
    "player_of",
    "python_origin",
    "resolve_players",
    "run_identity",
    "stored_player",
]

@dataclass(frozen=True)
class Parameter:
    """A number a strategy's name may carry (``threshold:5``): its letter in the name's form, what it
    means, its range and its default (None: it must be given)."""

    letter: str
    meaning: str
    low: int
    high: int
    default: int | None = None


@dataclass(frozen=True)
class StrategySpec:
    """One built-in strategy: its name, the native table's entry that plays it (``kind``), its
    parameters in the order of its native parameter struct, fixed values that make it a variant of
    another (``gin`` is ``threshold`` with 0), and what it does.

    >>> SPECS["search"].title, SPECS["gin"].kind, SPECS["marjj"].form
    ('search:S:C:K', 'threshold', 'marjj[:E] with E its own draws within which it knocks (1-30)')
    """

    name: str
    description: str
    parameters: tuple[Parameter, ...] = ()
    kind: str = ""
    fixed: tuple[int, ...] = ()

    @property
    def title(self) -> str:
        """The name with its parameters' letters, as ``ginsim strategies`` lists it: ``search:S:C:K``."""
        return ":".join([self.name, *(parameter.letter for parameter in self.parameters)])

    @property
    def form(self) -> str:
        """How to write the name with its parameters, for error messages."""
        if not self.parameters:
            return self.name
        if len(self.parameters) == 1 and self.parameters[0].default is None:
            only = self.parameters[0]
            return f"{self.title} with {only.letter} a whole number from {only.low} to {only.high}"
        written = self.name
        for parameter in self.parameters:
            written += f"[:{parameter.letter}" if parameter.default is not None else f":{parameter.letter}"
        written += "]" * sum(parameter.default is not None for parameter in self.parameters)
        ranges = [f"{p.letter} {p.meaning} ({p.low}-{p.high})" for p in self.parameters]
        joined = ", ".join(ranges[:-1]) + " and " + ranges[-1] if len(ranges) > 1 else ranges[0]
        return f"{written} with {joined}"

    def canonical(self, text: str) -> str:
        """The canonical name of ``text`` (this strategy's name, with any parameters), every omitted
        parameter at its default; ``InputError`` when the parameters do not fit."""
        _, colon, written = text.partition(":")
        parts = written.split(":") if colon else []
        required = sum(parameter.default is None for parameter in self.parameters)
        try:
            numbers = [int(part) for part in parts]
        except ValueError:
            numbers = None
        if (numbers is None or not required <= len(numbers) <= len(self.parameters)
                or any(not p.low <= n <= p.high for n, p in zip(numbers, self.parameters, strict=False))):
            raise InputError(f"strategy {text!r}: write {self.form}")
        defaults = [parameter.default for parameter in self.parameters[len(numbers):]]
        return ":".join([self.name, *map(str, numbers + cast(list[int], defaults))])


_DEALS = Parameter("S", "deals per decision", 1, 4096, 64)
_COMPARED = Parameter("C", "discards compared", 1, 11, 3)
_OWN_KNOCK = Parameter("K", "the knock threshold of its own play-outs", 0, 10, 0)

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
                 (Parameter("K", "the most deadwood it knocks with", 0, 10),)),
    StrategySpec("gin", "Never knocks: plays on until gin (threshold:0).", kind="threshold", fixed=(0,)),
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
                 (Parameter("E", "its own draws within which it knocks", 1, 30, 5),)),
    StrategySpec("search", "Determinised Monte-Carlo with the opponent model: at each draw and discard it deals "
                 "the cards it has not seen S times (default 64), the opponent's hand drawn from the model's "
                 "odds, and plays out taking or refusing a useful face-up card, marjj's cheapest discard and up "
                 "to C - 1 close ones (default 3), and the knock when legal, to the end of the hand (itself "
                 "patient: greedy, knocking early, at K or less (default 0) or for gin; the opponent as "
                 "Simple); in a match it values a result by the chance to win the match from the new scores, "
                 "else by its points.",
                 (_DEALS, _COMPARED, _OWN_KNOCK)),
    StrategySpec("reader", "Like search, but reads its opponent: unless the match has shown the opponent knock "
                 "late in a hand and never pass up a knock (then it plays as search with its S, C and K, but "
                 "for the last-turn reading below), it draws the opponent's hands near a guess of its deadwood "
                 "from what it has shown this hand (a linear fit on its draws, discards and face-up cards "
                 "taken, held and refused), and plays H percent of the deals out (default 50) with the "
                 "opponent patient, the rest with it as Simple; always, the hands it draws for a Simple "
                 "opponent agree with its last turn (over the knock limit, its discard one of least deadwood, "
                 "the card it refused not melding); S deals per decision (default 512: its two pictures of "
                 "the opponent need more deals than search's one), C discards (default 3) and its own "
                 "play-outs' knock threshold K as search's.",
                 (Parameter("S", "deals per decision", 1, 4096, 512), _COMPARED, _OWN_KNOCK,
                  Parameter("H", "the percentage of deals whose opponent plays out patient", 0, 100, 50))),
    StrategySpec("sampler", "Flat Monte-Carlo: at each draw and discard it deals the unseen cards again S times "
                 "(default 64) — the opponent's hand consistent with what it took and near the deadwood an "
                 "opponent has by then — plays each of its C best discards (default 3), with and without "
                 "knocking, to the end (itself knocking at K or less, default 0: gin hunting; the opponent as "
                 "Simple), and picks the best average score.",
                 (_DEALS, _COMPARED, Parameter("K", "the knock threshold of its play-outs", 0, 10, 0))),
    StrategySpec("learned", "Plays a trained network natively: at each decision it sees what the environments' "
                 "observation shows its player and makes the legal move the network rates highest."),
)})
"""Every built-in strategy by name: one spec each, from which its names, parameters, defaults and
description come. A native strategy is one file in ``gincore/_gin/strategies/`` plus a row here."""

STRATEGIES: Final = MappingProxyType({spec.title: spec.description for spec in SPECS.values()})
"""Every built-in strategy, with one line on what it does and why."""


@dataclass(frozen=True)
class View:
    """What one player may see at a decision, read-only.

    ``hand`` is the player's hand as a card mask (11 cards when discarding, 10 cards when asked
    whether to knock with them); ``discard_pile`` lists the face-up pile bottom first, with
    ``discarded_by`` (-1 for the upcard); ``opponent_took`` holds the cards the opponent took from
    the pile and still holds; ``opponent_passed`` the face-up cards it refused; ``drawn_card`` is
    the card just drawn (-1 before drawing), ``drawn_from_pile`` whether it came from the pile.
    """

    player: int
    hand: int
    discard_pile: tuple[int, ...]
    discarded_by: tuple[int, ...]
    opponent_took: int
    opponent_passed: int
    stock_size: int
    knock_limit: int
    multiplier: int
    dealer: int
    upcard: int
    turns: int
    drawn_card: int
    drawn_from_pile: bool
    hand_index: int
    scores: tuple[int, int]

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> View:
        """The view of the native loop's state, a mapping keyed by this class's field names."""
        return cls(**state)

    @property
    def cards(self) -> list[int]:
        """The player's cards, ascending."""
        return gincore.cards_of(self.hand)

    @property
    def top(self) -> int:
        """The face-up card on the discard pile (-1 when the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else -1

    @property
    def deadwood(self) -> int:
        """The least deadwood of the hand as it is."""
        return gincore.deadwood(self.hand)

    def deadwood_after(self, card: int) -> int:
        """The least deadwood of the hand without ``card``."""
        return gincore.deadwood(self.hand & ~(1 << card))

    def discard_options(self) -> list[int]:
        """The cards that may be discarded now (all but a card just taken from the pile)."""
        return [card for card in self.cards if not (self.drawn_from_pile and card == self.drawn_card)]


@runtime_checkable
class StrategyProtocol(Protocol):
    """What the hand loop asks a Python strategy; each method gets the player's :class:`View`."""

    def take_upcard(self, view: View) -> bool: ...
    def take_discard(self, view: View) -> bool: ...
    def discard(self, view: View) -> int: ...
    def knock(self, view: View) -> bool: ...
    def big_gin(self, view: View) -> bool: ...


class Strategy:
    """A base class for Python strategies: override ``discard`` at least.

    ``take_upcard`` (the first-turn offer) defaults to ``take_discard``, which takes a face-up card
    iff it is part of some meld of the hand plus it (as the native ``simple`` does; see
    ``in_some_meld``); ``knock`` (asked only when knocking is legal) and ``big_gin`` (asked only
    when possible) default to yes. ``name`` appears in records and error messages.

    The arguments an instance is built with are kept (a hash of them is part of a stored run's
    identity), so that two instances of one class built differently are never taken for one another.
    """

    name = "python"
    _built_with: tuple[tuple[Any, ...], dict[str, Any]]

    def __new__(cls, *args: Any, **kwargs: Any) -> Strategy:
        if (args or kwargs) and cls.__init__ is object.__init__:
            raise TypeError(f"{cls.__name__}() takes no arguments")
        strategy = super().__new__(cls)
        strategy._built_with = (args, kwargs)
        return strategy

    def take_upcard(self, view: View) -> bool:
        return self.take_discard(view)

    def take_discard(self, view: View) -> bool:
        card = view.top
        return card >= 0 and in_some_meld(view.hand | 1 << card, card)

    def discard(self, view: View) -> int:
        raise NotImplementedError(f"{type(self).__name__} must define discard(view) -> card index")

    def knock(self, view: View) -> bool:
        return True

    def big_gin(self, view: View) -> bool:
        return True


PlayerSpec = str | StrategyProtocol
"""A strategy name (``"simple"``, ``"threshold:5"``, ``"sampler:64"``) or a Python strategy."""


def in_some_meld(hand: int, card: int) -> bool:
    """Whether ``card`` (held in ``hand``) is part of at least one meld of ``hand``'s cards: two more of
    its rank, or a block of three or more consecutive ranks of its suit through it.

    >>> in_some_meld(gincore.parse_cards("7H 8H 9H KS KD"), 2 * 13 + 7)   # 8H in 7H 8H 9H
    True
    >>> in_some_meld(gincore.parse_cards("7H 9H KS KD 2C 2D"), 2 * 13 + 6)
    False
    """
    rank, suit = card % 13, card // 13
    if sum(hand >> (13 * other + rank) & 1 for other in range(4)) >= 3:
        return True
    low = high = rank
    while low > 0 and hand >> (13 * suit + low - 1) & 1:
        low -= 1
    while high < 12 and hand >> (13 * suit + high + 1) & 1:
        high += 1
    return high - low >= 2


@dataclass(frozen=True)
class PythonOrigin:
    """What identifies a Python strategy in a run, and how to load it again.

    ``cls`` is its class (``module.qualname``); ``spec`` the text that loads it again with
    :func:`player_of` (an absolute ``path/file.py:Name``, or ``module:Name``), ``None`` when it was
    handed over as an object (a notebook's class, an instance built with arguments); ``source`` the
    SHA-256 of its source file (of its class's source when there is no file; ``None`` when neither
    can be read); ``arguments`` the SHA-256 of the arguments a :class:`Strategy` was built with
    (``None`` when it was built with none, or is not a :class:`Strategy`).
    """

    cls: str
    spec: str | None
    source: str | None
    arguments: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        """The origin as it is stored in a run's identity (``arguments_sha256`` only when there are
        arguments, so that the runs stored before it was kept still resume)."""
        stored = {"class": self.cls, "spec": self.spec, "source_sha256": self.source}
        return stored if self.arguments is None else {**stored, "arguments_sha256": self.arguments}


_LOADED: Final[weakref.WeakKeyDictionary[type, PythonOrigin]] = weakref.WeakKeyDictionary()
"""The origin of every strategy class loaded by :func:`player_of`, by class."""


def python_origin(player: object) -> PythonOrigin:
    """The origin of a Python strategy (see :class:`PythonOrigin`).

    >>> python_origin(player_of("ginsim.gin.strategies:Strategy")).spec
    'ginsim.gin.strategies:Strategy'
    >>> class Cautious(Strategy):
    ...     def __init__(self, limit: int) -> None:
    ...         self.limit = limit
    >>> python_origin(Cautious(3)).arguments == python_origin(Cautious(limit=3)).arguments
    True
    >>> python_origin(Cautious(3)).arguments == python_origin(Cautious(4)).arguments
    False
    >>> python_origin(Strategy()).arguments is None
    True
    """
    kind = type(player)
    arguments = _arguments_hash(player)
    loaded = _LOADED.get(kind)
    if loaded is not None:  # built from text with no arguments: loads again; built otherwise: does not
        return loaded if arguments is None else PythonOrigin(loaded.cls, None, loaded.source, arguments)
    return PythonOrigin(f"{kind.__module__}.{kind.__qualname__}", None, _source_hash(kind), arguments)


def _arguments_hash(player: object) -> str | None:
    """The SHA-256 of the arguments a :class:`Strategy` was built with, by parameter name with the
    defaults filled in; ``None`` when there were none. Arguments that cannot be pickled are hashed by
    their ``repr``: an address in it only makes two equal instances look different, which refuses a
    resume rather than mixing two runs."""
    built = getattr(player, "_built_with", None)
    if not built or built == ((), {}):
        return None
    args, kwargs = built
    try:
        bound = inspect.signature(type(player)).bind(*args, **kwargs)
        bound.apply_defaults()
        described: object = sorted(bound.arguments.items())
    except (TypeError, ValueError):  # no signature to read: the arguments as given
        described = built
    try:
        data = pickle.dumps(described, protocol=4)
    except Exception:  # noqa: BLE001 - any failure of pickling falls back to the repr
        data = repr(built).encode()
    return hashlib.sha256(data).hexdigest()


def _source_hash(kind: type, path: Path | None = None) -> str | None:
    """The SHA-256 of the file defining ``kind`` (or of ``path``), else of the class's own source."""
    try:
        if path is None:
            found = inspect.getsourcefile(kind)
            path = Path(found) if found else None
        if path is not None and path.is_file():
            return hashlib.sha256(path.read_bytes()).hexdigest()
        return hashlib.sha256(inspect.getsource(kind).encode()).hexdigest()
    except (OSError, TypeError):  # defined where no source is kept (an interactive session)
        return None


class _Adapter:
    """Calls a Python strategy with a View and checks each answer: yes or no (a ``bool``, numpy's too)
    or a card (an index 0..51 of any integral type, or card text), else ``StrategyError``.

    A strategy loaded from text (``file.py:Class``, ``module:Class``) is pickled as that text and
    loaded again where it is unpickled (a worker process), checked to have the same source; any
    other strategy is pickled as it is.
    """

    def __init__(self, strategy: Any, name: str, origin: PythonOrigin | None = None) -> None:
        self._strategy = strategy
        self.name = name
        self._origin = origin

    def __reduce__(self) -> tuple[Any, ...]:
        origin = self._origin if self._strategy is None else _LOADED.get(type(self._strategy))
        if origin is not None and origin.spec is not None:
            return (_Adapter, (None, self.name, origin))
        return (_Adapter, (self.strategy, self.name))

    @property
    def strategy(self) -> Any:
        """The strategy, loaded on first use in a process it was sent to."""
        if self._strategy is None:
            assert self._origin is not None
            self._strategy = _reload(self._origin)
        return self._strategy

    def _yes_no(self, method: str, state: Mapping[str, Any]) -> bool:
        answer = getattr(self.strategy, method)(View.from_state(state))
        if not isinstance(answer, (bool, np.bool_)):
            raise StrategyError(f"strategy {self.name!r}: {method} must return True or False, got {answer!r}")
        return bool(answer)

    def take_upcard(self, state: Mapping[str, Any]) -> bool:
        if not hasattr(self.strategy, "take_upcard"):
            return self._yes_no("take_discard", state)
        return self._yes_no("take_upcard", state)

    def take_discard(self, state: Mapping[str, Any]) -> bool:
        return self._yes_no("take_discard", state)

    def knock(self, state: Mapping[str, Any]) -> bool:
        return self._yes_no("knock", state)

    def big_gin(self, state: Mapping[str, Any]) -> bool:
        if not hasattr(self.strategy, "big_gin"):
            return True
        return self._yes_no("big_gin", state)

    def discard(self, state: Mapping[str, Any]) -> int:
        answer = self.strategy.discard(View.from_state(state))
        if isinstance(answer, str):
            mask = gincore.parse_cards(answer)
            if bin(mask).count("1") != 1:
                raise StrategyError(f"strategy {self.name!r}: discard must name one card, got {answer!r}")
            return mask.bit_length() - 1
        card = as_integer(answer)
        if card is None:
            raise StrategyError(f"strategy {self.name!r}: discard must return a card index, got {answer!r}")
        if not 0 <= card <= 51:
            raise StrategyError(f"strategy {self.name!r} (player {state['player']}) chose an illegal discard "
                                f"{card}: it is not a card index 0..51")
        return card


@functools.lru_cache(maxsize=16)
def _reload(origin: PythonOrigin) -> Any:
    """The strategy of ``origin`` loaded again (once per process), refused if its source changed."""
    assert origin.spec is not None
    player = player_of(origin.spec)
    if python_origin(player).source != origin.source:
        raise StrategyError(f"strategy {origin.spec!r} changed on disk after the run started: its source is "
                            "not the one the run was started with")
    return player


def _known(name: str) -> str:
    key = name.strip().lower()
    spec = SPECS.get(key.partition(":")[0])
    if spec is not None and spec.parameters:
        return spec.canonical(key)
    if spec is not None:
        if ":" in key:
            raise InputError(f"strategy {name!r}: {spec.name} takes no parameters")
        return spec.name
    close = difflib.get_close_matches(key.partition(":")[0], list(SPECS), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InputError(f"unknown strategy {name!r}{hint}; known strategies: {', '.join(STRATEGIES)}")


def describe(name: str) -> str:
    """One line on what a strategy does; an unknown name raises ``InputError``.

    >>> describe("threshold:3").startswith("Plays like greedy")
    True
    """
    return SPECS[_known(name).split(":")[0]].description


def player_name(player: PlayerSpec) -> str:
    """The name a player goes by in records: its canonical strategy name, or a Python strategy's
    ``name`` attribute (else its class name)."""
    if isinstance(player, str):
        return _known(player)
    return str(getattr(player, "name", None) or type(player).__name__)


def native_spec(player: PlayerSpec) -> tuple[Any, ...]:
    """The engine's description of a player: (code, parameters…) or (python code, adapter)."""
    if not isinstance(player, str):
        return (STRATEGY_KINDS["python"], _Adapter(player, player_name(player)))
    base, _, params = _known(player).partition(":")
    spec = SPECS[base]
    if base == "learned":  # its parameter: the number of its network, loaded into this process
        from ginsim.gin.learned import default_network
        return (STRATEGY_KINDS["learned"], default_network())
    numbers = tuple(int(part) for part in params.split(":")) if params else ()
    return (STRATEGY_KINDS[spec.kind or spec.name], *spec.fixed, *numbers)


_PYTHON_SPEC: Final = re.compile(r"(?P<source>[\w.\\/~-]+?(?P<file>\.py)?):(?P<name>[A-Za-z_]\w*)")


def player_of(text: str) -> PlayerSpec:
    """A player from its text: a built-in strategy's canonical name, or the Python strategy named by
    ``module:Class`` or ``path/to/file.py:Class`` (a class is built with no arguments; an instance is
    used as it is). Whatever goes wrong in loading it (no such file, a syntax error, an exception at
    import or in the constructor) is an ``InputError`` naming it.

    >>> player_of(" Threshold:7")
    'threshold:7'
    >>> player_of("ginsim.gin.strategies:Strategy").name
    'python'
    >>> player_of("nowhere.py:Bot")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: cannot load strategy 'nowhere.py:Bot': no file nowhere.py
    """
    match = _PYTHON_SPEC.fullmatch(text.strip())
    if match is None or match["source"].lower() in SPECS:
        return _known(text)
    source, name = match["source"], match["name"]
    path = Path(source).expanduser().resolve() if match["file"] else None
    try:
        module = _module_of(text, source, path)
    except (Exception, SystemExit) as error:  # the strategy's own code failed at import: name it, in one line
        if isinstance(error, InputError):
            raise
        where = path.name if path is not None else source
        raise InputError(f"cannot load strategy {text!r}: {where} raised {_one_line(error)}") from None
    found = getattr(module, name, None)
    if found is None:
        raise InputError(f"cannot load strategy {text!r}: {source} has no {name}")
    try:
        player = found() if isinstance(found, type) else found
    except (Exception, SystemExit) as error:
        raise InputError(f"cannot load strategy {text!r}: {name}() raised {_one_line(error)}") from None
    if not all(callable(getattr(player, method, None)) for method in ("take_discard", "discard", "knock")):
        raise InputError(f"cannot load strategy {text!r}: {name} has no take_discard, discard and knock methods")
    spec = f"{path}:{name}" if path is not None else f"{source}:{name}"
    kind = type(player)
    _LOADED[kind] = PythonOrigin(f"{kind.__module__}.{kind.__qualname__}", spec,
                                 _source_hash(kind, path if path is not None else _module_file(module)))
    return cast(StrategyProtocol, player)


def _module_of(text: str, source: str, path: Path | None) -> ModuleType:
    """The module of a strategy: imported by name, or executed from its file (registered in
    ``sys.modules`` under a name of its own, as dataclasses and pickling need)."""
    if path is None:
        try:
            return importlib.import_module(source)
        except ImportError as error:
            raise InputError(f"cannot load strategy {text!r}: {_one_line(error)}") from None
    if not path.is_file():
        raise InputError(f"cannot load strategy {text!r}: no file {source}")
    stem = re.sub(r"\W", "_", path.stem)
    name = f"ginsim_strategy_{stem}_{hashlib.sha256(str(path).encode()).hexdigest()[:12]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"cannot load strategy {text!r}: {source} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _module_file(module: ModuleType) -> Path | None:
    found = getattr(module, "__file__", None)
    return Path(found) if isinstance(found, str) else None


def _one_line(error: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def resolve_players(players: str | Sequence[PlayerSpec]) -> tuple[PlayerSpec, PlayerSpec]:
    """Two players from ``"a,b"`` text or a sequence of names and Python strategies; checked, with
    names normalised.

    >>> resolve_players(["Greedy", " sampler:128"])
    ('greedy', 'sampler:128:3:0')
    """
    items: list[Any] = players.split(",") if isinstance(players, str) else list(players)
    if len(items) != 2:
        raise InputError(f"Gin Rummy needs exactly two players, got {len(items)}: {items!r}")
    resolved: list[PlayerSpec] = []
    for item in items:
        if isinstance(item, str):
            resolved.append(player_of(item))
        elif all(callable(getattr(item, method, None)) for method in ("take_discard", "discard", "knock")):
            resolved.append(item)
        else:
            raise TypeError(f"a player is a strategy name or an object with take_upcard, take_discard, "
                            f"discard and knock methods, got {type(item).__name__}")
    return resolved[0], resolved[1]


def run_identity(players: Sequence[PlayerSpec]) -> dict[str, Any]:
    """What identifies the players of a run: ``players``, their names; and when a Python strategy
    plays, ``python_players``, each seat's :class:`PythonOrigin` as a dict (``None`` for a built-in).

    >>> run_identity(["simple", "greedy"])
    {'players': ['simple', 'greedy']}
    """
    identity: dict[str, Any] = {"players": [player_name(player) for player in players]}
    if has_python(players):
        identity["python_players"] = [None if isinstance(player, str) else python_origin(player).to_dict()
                                      for player in players]
    return identity


def stored_player(name: str, origin: object, seat: int) -> PlayerSpec:
    """The player of ``seat`` of a stored run, from its name and its origin as :func:`run_identity`
    stored them: a built-in strategy, or a Python strategy loaded again from its file or module and
    checked to be the one that played. ``InputError`` says why one cannot be.
    """
    if origin is None:
        try:
            return player_of(name)
        except InputError:
            raise InputError(f"player {seat} {name!r} is no built-in strategy: a Python strategy, which this run "
                             "directory does not say how to load (it was written before runs stored that)") from None
    if not isinstance(origin, Mapping) or not isinstance(origin.get("class"), str):
        raise InputError(f"player {seat} {name!r}: the run directory's description of it is damaged ({origin!r})")
    spec = origin.get("spec")
    if not isinstance(spec, str):
        raise InputError(f"player {seat} {name!r} is a Python strategy ({origin['class']}) that was handed over as an "
                         "object, not named as file.py:Class or module:Class, so it cannot be loaded again")
    player = player_of(spec)
    if python_origin(player).source != origin.get("source_sha256"):
        raise InputError(f"player {seat} {name!r}: the source of {spec} has changed since the run, so it would not "
                         "play the same hands")
    return player


def has_python(players: Iterable[PlayerSpec]) -> bool:
    """Whether any player is a Python strategy (which runs on the slow path)."""
    return any(not isinstance(player, str) for player in players)
