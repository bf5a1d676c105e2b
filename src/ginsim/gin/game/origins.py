"""Python strategies loaded from their text (``module:Class``, ``path/file.py:Class``) and identified in a
run: the class, the text that loads it again, the hash of its source and of its arguments.

>>> load_python("ginsim.gin.game.strategies:Strategy").name
'python'
"""
from __future__ import annotations

import contextlib
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
from typing import Any, Final, cast

import numpy as np

from gincore.errors import InputError
from ginsim.gin.game.specs import SPECS
from ginsim.gin.game.strategies import Strategy, StrategyProtocol

__all__ = ["MAX_ARGUMENT_DEPTH", "PythonOrigin", "load_python", "loaded_origin", "python_origin"]


@dataclass(frozen=True)
class PythonOrigin:
    """What identifies a Python strategy in a run, and how to load it again.

    ``cls`` is its class (``module.qualname``); ``spec`` the text that loads it again with
    :func:`load_python` (an absolute ``path/file.py:Name``, or ``module:Name``), ``None`` when it was
    handed over as an object (a notebook's class, an instance built with arguments); ``source`` the
    SHA-256 of its source file (of its class's source when there is no file; ``None`` when neither
    can be read); ``arguments`` the SHA-256 of the arguments a :class:`~ginsim.gin.game.strategies.Strategy`
    was built with (``None`` when it was built with none, or is not a
    :class:`~ginsim.gin.game.strategies.Strategy`).
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
    """The SHA-256 of the arguments a :class:`~ginsim.gin.game.strategies.Strategy` was built with, by parameter
    name with the defaults filled in; of any other strategy object, of its attributes when a run first met it (it
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
"""The hash of the attributes of each strategy object that is no :class:`~ginsim.gin.game.strategies.Strategy`,
when first met."""


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


def loaded_origin(kind: type) -> PythonOrigin | None:
    """The origin of a strategy class loaded by :func:`load_python`, if it was."""
    return _LOADED.get(kind)
