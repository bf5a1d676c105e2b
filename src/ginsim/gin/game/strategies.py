"""Strategies: the native ones by name, and the ``Strategy`` protocol for players written in Python.

Native strategies are played inside ``gincore`` without the GIL; a name may carry parameters
(``threshold(knock_at=5)``, or ``threshold:5`` for short; they are declared in :mod:`ginsim.gin.game.specs`).
Any object with the methods of :class:`Strategy` plays through
the same hand loop on a slower path that calls it with a read-only :class:`View` of what its player
may see — never the opponent's hand or the stock.

>>> describe("gin")
'Never knocks: plays on until gin (threshold:0).'

A player, built-in or Python, is made a :class:`~ginsim.gin.game.players.Player` by
:mod:`ginsim.gin.game.players`; this module is the authoring API and the adapter that calls a Python
strategy from the engine.

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

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import inspect
import pickle
import re
import sys
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Final, Protocol, cast, runtime_checkable

import numpy as np

import gincore
from gincore.errors import InputError, StrategyError
from ginsim.core.checks import as_integer
from ginsim.gin.game.specs import (
    SPECS,
    STRATEGIES,
    Parameter,
    StrategySpec,
    describe,
)

__all__ = [
    "SPECS",
    "STRATEGIES",
    "Parameter",
    "PythonAdapter",
    "Strategy",
    "StrategyError",
    "StrategyProtocol",
    "StrategySpec",
    "View",
    "describe",
    "in_some_meld",
    "load_python",
    "python_origin",
]

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
    :func:`load_python` (an absolute ``path/file.py:Name``, or ``module:Name``), ``None`` when it was
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
"""The origin of every strategy class loaded by :func:`load_python`, by class."""


def python_origin(player: object) -> PythonOrigin:
    """The origin of a Python strategy (see :class:`PythonOrigin`).

    >>> python_origin(load_python("ginsim.gin.game.strategies:Strategy")).spec
    'ginsim.gin.game.strategies:Strategy'
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
    defaults filled in; of any other strategy object, of its attributes when a run first met it (it
    keeps no record of its arguments, and its attributes may change as it plays); ``None`` when there
    were none. The arguments are written out canonically (a set in sorted order, a dict by sorted
    keys) so that the hash is the same in every process; an object that has no such form is hashed by
    its ``repr``: an address in it only makes two equal instances look different, which refuses a
    resume rather than mixing two runs."""
    if not isinstance(player, Strategy):
        return _first_attributes_hash(player)
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
    return _canonical_hash(described, type(player).__name__)


MAX_ARGUMENT_DEPTH: Final = 100
"""How deeply a strategy's arguments may nest (lists in lists ...) for a run to identify it."""

_FIRST_SEEN: Final[weakref.WeakKeyDictionary[Any, str | None]] = weakref.WeakKeyDictionary()
"""The hash of the attributes of each strategy object that is no :class:`Strategy`, when first met."""


def _first_attributes_hash(player: object) -> str | None:
    with contextlib.suppress(KeyError, TypeError):  # TypeError: an object no weak reference can hold
        return _FIRST_SEEN[player]
    attributes = _attributes(player)
    digest = None if attributes is None else _canonical_hash(attributes, type(player).__name__)
    with contextlib.suppress(TypeError):
        _FIRST_SEEN[player] = digest
    return digest


def _canonical_hash(value: object, owner: str) -> str:
    text = "\n".join(_canonical(value, MAX_ARGUMENT_DEPTH, owner))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _attributes(player: object) -> dict[str, Any] | None:
    """The attributes an object holds (``__dict__`` and slots), ``None`` when it holds none."""
    found = getattr(player, "__dict__", None)
    attributes = dict(found) if isinstance(found, Mapping) else {}
    for name in getattr(type(player), "__slots__", ()):
        if isinstance(name, str) and hasattr(player, name):
            attributes[name] = getattr(player, name)
    return attributes or None


def _canonical(value: object, depth: int, owner: str) -> Iterator[str]:
    """``value`` written out as lines that do not depend on the process (hash seeds, addresses of
    containers): scalars by type and ``repr``, containers item by item, sets and dict keys sorted."""
    if depth < 0:
        raise InputError(f"strategy {owner}: its arguments are nested more than {MAX_ARGUMENT_DEPTH} deep")
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        yield f"{type(value).__name__} {value!r}"
    elif isinstance(value, (list, tuple)):
        yield f"{type(value).__name__} {len(value)}"
        for item in value:
            yield from _canonical(item, depth - 1, owner)
    elif isinstance(value, (set, frozenset)):
        items = sorted("\n".join(_canonical(item, depth - 1, owner)) for item in value)
        yield f"{type(value).__name__} {len(items)}"
        yield from items
    elif isinstance(value, Mapping):
        pairs = sorted(("\n".join(_canonical(key, depth - 1, owner)), "\n".join(_canonical(item, depth - 1, owner)))
                       for key, item in value.items())
        yield f"{type(value).__name__} {len(pairs)}"
        for key, item in pairs:
            yield key
            yield item
    elif isinstance(value, np.ndarray):
        digest = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
        yield f"ndarray {value.dtype.str} {value.shape} {digest}"
    else:
        yield from _object_lines(value, depth, owner)


def _object_lines(value: object, depth: int, owner: str) -> Iterator[str]:
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    if isinstance(value, type):
        yield f"class {value.__module__}.{value.__qualname__}"
        return
    if isinstance(value, np.generic):
        yield f"{kind} {value!r}"
        return
    try:
        try:
            line = f"{kind} pickled {hashlib.sha256(pickle.dumps(value, protocol=4)).hexdigest()}"
        except RecursionError:
            raise
        except Exception:  # noqa: BLE001 - any failure of pickling falls back to the repr
            line = f"{kind} {value!r}"
    except RecursionError:
        raise InputError(f"strategy {owner}: its arguments are nested too deeply to identify it") from None
    yield line


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


class PythonAdapter:
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
            return (PythonAdapter, (None, self.name, origin))
        return (PythonAdapter, (self.strategy, self.name))

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
            named = gincore.cards_of(gincore.parse_cards(answer))  # an unknown card is an error of its own
            if len(named) != 1:
                raise StrategyError(f"strategy {self.name!r}: discard must name one card, got {answer!r}")
            return named[0]
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
    player = load_python(origin.spec)
    if player is None or python_origin(player).source != origin.source:
        raise StrategyError(f"strategy {origin.spec!r} changed on disk after the run started: its source is "
                            "not the one the run was started with")
    return player


_PYTHON_SPEC: Final = re.compile(r"(?P<source>[\w.\\/~-]+?(?P<file>\.py)?):(?P<name>[A-Za-z_]\w*)")


def load_python(text: str) -> StrategyProtocol | None:
    """The Python strategy named by ``module:Class`` or ``path/to/file.py:Class`` (a class is built with no
    arguments; an instance is used as it is); ``None`` when ``text`` names no Python strategy (a built-in's
    name, which :mod:`ginsim.gin.game.players` reads). Whatever goes wrong in loading it (no such file, a
    syntax error, an exception at import or in the constructor) is an ``InputError`` naming it.

    >>> load_python("ginsim.gin.game.strategies:Strategy").name
    'python'
    >>> load_python("threshold:7") is None
    True
    >>> load_python("nowhere.py:Bot")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: cannot load strategy 'nowhere.py:Bot': no file nowhere.py
    """
    if not isinstance(text, str):
        raise InputError(f"a strategy is named by text (such as 'simple' or file.py:Class), got {text!r}")
    match = _PYTHON_SPEC.fullmatch(text.strip())
    if match is None or match["source"].lower() in SPECS:
        return None
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
