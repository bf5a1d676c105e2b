"""The package's layers: data flows one way, from the CLI through the games to the run layer.

The game-independent run layer (chunks, pools, Dask, the store, stream keys, intervals, rule fields,
card text) knows no game; each game package knows the run layer and not the other game; a package built on
one game (the learning environments on Gin, and training on them) knows that game and the run layer (and the
packages it is declared to stand on), and no game knows it; only
the game registry, the CLI and the package's front page see both games. Read from the source, so a stray import
fails here before it becomes a cycle.

Inside Gin, three sub-packages in layers: ``review`` (records, analysis, hints, play) builds on ``studies``
(simulations, summaries, tournaments, equity, exact enumeration, plots), which builds on ``game`` (rules,
moves, strategies, the open state, the played hand); and one module, ``ginsim.gin.game.native``, is the
only one in ginsim that imports the native engine's face ``gincore.engine`` (``ginsim.rummy.native`` classic
Rummy's, ``gincore.rummy``).

No module imports another's private names: a name ``_x`` is its module's own, and a module ``_x`` its
package's (the compiled ``gincore._engine``, ``_exact`` and ``_rummy`` are reached through ``gincore``'s
public faces ``gincore.engine``, ``gincore.exact`` and ``gincore.rummy``).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "ginsim"
CORE = "ginsim.core"
"""The game-independent layer: every module in it, and the version."""
GAMES = ("ginsim.gin", "ginsim.rummy")
ABOVE_THE_GAMES = {"ginsim", "ginsim.games"}
FRONT_PACKAGES = ("ginsim.cli", "ginsim.web")
"""Packages above the games, with every module in them (the command line, one module per command family; the
browser game)."""
ON_A_GAME = {"ginsim.env": "ginsim.gin", "ginsim.learn": "ginsim.gin"}  # a package built on one game: that game
ON_A_PACKAGE = {"ginsim.learn": ("ginsim.env",)}
"""Packages on a game that also stand on others on the same game (training on the learning environments)."""
GIN_LAYERS = ("ginsim.gin.game", "ginsim.gin.studies", "ginsim.gin.review")
"""Gin's sub-packages, each importing only those before it."""
DEPRECATED_ALIASES = {"ginsim.gin.runs"}
"""Old module paths kept for one release, each the same modules under a new name (no code of their own)."""
NATIVE_BOUNDARIES = {"gincore.engine": "ginsim.gin.game.native", "gincore.rummy": "ginsim.rummy.native"}
"""Each native engine's face, and the one module of ginsim that imports it."""
PACKAGES = SOURCE.parent
"""Where both packages' sources are, ``gincore`` and ``ginsim``."""


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Every ginsim module and the ginsim modules it imports (at any depth of its code)."""
    graph: dict[str, set[str]] = {}
    for path in SOURCE.rglob("*.py"):
        name = module_name(path)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ginsim"):
                # ``from ginsim.core import text`` imports the module ginsim.core.text; ``from ginsim import Rules``
                # the package's front page.
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    found.add(submodule if submodule in MODULES else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name.startswith("ginsim"))
        graph[name] = {target for target in found if target in MODULES} - {name}
    return graph


def above_the_games(module: str) -> bool:
    return module in ABOVE_THE_GAMES or any(module == package or module.startswith(f"{package}.")
                                            for package in FRONT_PACKAGES)


def built_on(module: str) -> str | None:
    """The package built on one game that holds ``module``, if any."""
    return next((package for package in ON_A_GAME if module == package or module.startswith(f"{package}.")), None)


def game_of(module: str) -> str | None:
    return next((game for game in GAMES if module == game or module.startswith(f"{game}.")), None)


MODULES = {module_name(path) for path in SOURCE.rglob("*.py")}
RUN_LAYER = {name for name in MODULES if name == CORE or name.startswith(f"{CORE}.")} | {"ginsim._version"}
GRAPH = imports()


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in GRAPH
                if name not in RUN_LAYER and not above_the_games(name) and game_of(name) is None
                and built_on(name) is None]
    assert not unplaced, f"modules in no layer: {unplaced}"


@pytest.mark.parametrize("module", sorted(RUN_LAYER))
def test_the_run_layer_knows_no_game(module: str) -> None:
    assert GRAPH[module] <= RUN_LAYER, f"{module} imports {sorted(GRAPH[module] - RUN_LAYER)}"


@pytest.mark.parametrize("module", sorted(name for name in GRAPH if game_of(name)))
def test_a_game_knows_only_itself_and_the_run_layer(module: str) -> None:
    game = game_of(module)
    foreign = {target for target in GRAPH[module] if target not in RUN_LAYER and game_of(target) != game}
    assert not foreign, f"{module} imports {sorted(foreign)}"


@pytest.mark.parametrize("module", sorted(name for name in GRAPH if built_on(name)))
def test_a_package_on_a_game_knows_only_that_game(module: str) -> None:
    package = built_on(module)
    assert package is not None
    allowed = {target for target in GRAPH[module]
               if target in RUN_LAYER or game_of(target) == ON_A_GAME[package] or built_on(target) == package
               or built_on(target) in ON_A_PACKAGE.get(package, ())}
    assert GRAPH[module] == allowed, f"{module} imports {sorted(GRAPH[module] - allowed)}"
    users = sorted(name for name, targets in GRAPH.items() if game_of(name) and module in targets)
    assert not users, f"the games import {module}: {users}"


def test_no_import_cycle() -> None:
    # A package imports its own modules; a module importing its package's front page is the cycle.
    edges = {name: {target for target in targets if not name.startswith(f"{target}.")}
             for name, targets in GRAPH.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(name):] + (name,)))
        if name in done:
            return
        for target in sorted(edges[name]):
            visit(target, (*path, name))
        done.add(name)

    for name in sorted(edges):
        visit(name, ())


def gin_layer(module: str) -> int | None:
    """The index in ``GIN_LAYERS`` of the sub-package holding ``module``, if any."""
    return next((index for index, package in enumerate(GIN_LAYERS)
                 if module == package or module.startswith(f"{package}.")), None)


def test_every_gin_module_is_in_a_layer() -> None:
    loose = sorted(name for name in GRAPH if name.startswith("ginsim.gin.") and name not in GIN_LAYERS
                   and gin_layer(name) is None and name not in DEPRECATED_ALIASES)
    assert not loose, f"Gin modules in no sub-package (game, studies or review): {loose}"


@pytest.mark.parametrize("module", sorted(name for name in GRAPH if gin_layer(name) is not None))
def test_gin_layers_import_only_the_layers_below(module: str) -> None:
    layer = gin_layer(module)
    assert layer is not None
    above = sorted(target for target in GRAPH[module]
                   if (gin_layer(target) or 0) > layer or target == "ginsim.gin")
    assert not above, f"{module} ({GIN_LAYERS[layer]}) imports {above}"


def imported(path: Path) -> set[str]:
    """Every module or name of ``gincore`` or ``ginsim`` the module at ``path`` imports, at any depth of its
    code, as a dotted path (``from gincore import exact`` imports ``gincore.exact``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("gincore", "ginsim")):
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(("gincore", "ginsim")))
    return found


def native_imports(path: Path, face: str) -> bool:
    """Whether the module at ``path`` imports the native engine's ``face`` (or what stands behind it)."""
    behind = face.replace(".", "._", 1)
    return any(name == dotted or name.startswith(f"{dotted}.") for name in imported(path) for dotted in (face, behind))


@pytest.mark.parametrize("face", sorted(NATIVE_BOUNDARIES))
def test_one_module_speaks_to_each_native_engine(face: str) -> None:
    importers = sorted(module_name(path) for path in SOURCE.rglob("*.py") if native_imports(path, face))
    assert importers == [NATIVE_BOUNDARIES[face]], f"modules importing {face}: {importers}"


def test_the_boundary_check_sees_every_form_of_import(tmp_path: Path) -> None:
    for text in ("from gincore.engine import Engine", "from gincore import engine", "from gincore._engine import X",
                 "import gincore._engine as native", "def f():\n    from gincore.engine import X\n"):
        (tmp_path / "m.py").write_text(text)
        assert native_imports(tmp_path / "m.py", "gincore.engine"), text
    (tmp_path / "m.py").write_text("from gincore import parse_cards\nfrom gincore.errors import InputError")
    assert not native_imports(tmp_path / "m.py", "gincore.engine")


def private_imports(path: Path, root: Path = PACKAGES) -> list[str]:
    """The private names of other modules that the module at ``path`` (under ``root``) imports: a name ``_x``
    belongs to its module, a module ``_x`` to its package, and only they and what they hold may import it
    (dunder names are nobody's secret)."""
    parts = path.relative_to(root).with_suffix("").parts
    package = ".".join(parts[:-1])
    found = []
    for name in sorted(imported(path)):
        steps = name.split(".")
        owners = [".".join(steps[:depth]) for depth, step in enumerate(steps)
                  if step.startswith("_") and not step.endswith("__")]
        if any(not (package == owner or package.startswith(f"{owner}.")) for owner in owners):
            found.append(name)
    return found


@pytest.mark.parametrize("path", sorted(PACKAGES.rglob("*.py")), ids=lambda path: str(path.relative_to(PACKAGES)))
def test_no_module_imports_another_modules_private_names(path: Path) -> None:
    assert not private_imports(path), f"{path.relative_to(PACKAGES)} imports {private_imports(path)}"


def test_the_private_check_sees_every_form_of_import(tmp_path: Path) -> None:
    module = tmp_path / "ginsim" / "gin" / "m.py"
    module.parent.mkdir(parents=True)
    for text in ("from gincore import _exact", "from gincore._engine import Engine", "import gincore._rummy",
                 "from ginsim.gin.studies.plot import _figure", "def f():\n    from ginsim.core import _x\n",
                 "from ginsim.gin._m import _helper"):
        module.write_text(text)
        assert private_imports(module, tmp_path), text
    module.write_text("from gincore.engine import Engine\nfrom ginsim import __version__\n"
                      "from ginsim.gin._m import name\nfrom ginsim.gin import _m")  # its own package's
    assert not private_imports(module, tmp_path)
