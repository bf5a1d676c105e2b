"""The documentation in ``docs/`` stays true: its examples run, its commands parse, its rule tables are
the code's, and every relative link in the docs, the README, the notebooks and the code resolves to a
file and a heading of the repository; nothing points at a document outside it."""
from __future__ import annotations

import doctest
import importlib.util
import json
import re
import shlex
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(path for path in DOCS.glob("*.md"))
LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]+)\)")
RULES_CITATION = re.compile(r"docs/rules\.md#(?P<anchor>[\w-]+)")
OUTSIDE = re.compile(r"RULES\.md|DESIGN\.md|\.\./shared")


def load_docs_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PAGE_COMMANDS = load_docs_module("page_commands")


def slug(heading: str) -> str:
    """The anchor MyST (and GitHub) give a heading."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.DOTALL)
    return {slug(match[1]) for match in re.finditer(r"^#{1,6} (.+)$", text, re.MULTILINE)}


def markdown_sources() -> list[tuple[str, Path, str]]:
    """(name, folder its links start from, Markdown text) of the docs, the README and the notebooks."""
    sources = [(str(path.relative_to(ROOT)), path.parent, path.read_text()) for path in [*PAGES, ROOT / "README.md"]]
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        text = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
        sources.append((str(notebook.relative_to(ROOT)), notebook.parent, text))
    return sources


@pytest.mark.parametrize("page", [path for path in PAGES if ">>> " in path.read_text()], ids=lambda path: path.name)
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", ["rules.md", "strategies.md"])
def test_the_generated_tables_are_the_codes(page: str) -> None:
    tables = load_docs_module("rules_tables")
    shown = tables.page_tables((DOCS / page).read_text())
    assert set(shown) == set(tables.tables(page))
    for name, table in tables.tables(page).items():
        assert shown[name] == table, f"docs/{page}'s {name} table is out of date: run python docs/rules_tables.py"


def help_examples(words: tuple[str, ...]) -> list[str]:
    """The lines of the Examples of ``ginsim WORDS --help`` (which docs/cli.md shows), as printed."""
    from tests.cli_runner import invoke

    lines = invoke(*words, "--help")[1].splitlines()
    start = next((number for number, line in enumerate(lines) if line.strip() == "Examples:"), len(lines))
    shown = []
    for line in lines[start + 1:]:
        if line.strip() and not line.startswith(" "):
            break
        shown.append(line)
    return shown


def shell_blocks() -> list[tuple[str, list[str]]]:
    """(where, lines) of every shell example: the docs' and the README's bash, sh, shell and console
    blocks, and every command's help Examples."""
    from tests.cli.test_cli_width import command_paths

    found = []
    for path in [*PAGES, ROOT / "README.md"]:
        for number, block in enumerate(re.findall(r"```(?:bash|sh|shell|console)\n(.*?)```", path.read_text(),
                                                  flags=re.DOTALL)):
            found.append((f"{path.name}#{number}", block.splitlines()))
    for words in command_paths():
        if examples := help_examples(words):
            found.append((" ".join(("ginsim", *words, "--help")), examples))
    return found


def command_examples() -> list[str]:
    return [command for _, lines in shell_blocks() for command in PAGE_COMMANDS.commands_in_lines(lines)]


@pytest.mark.parametrize("command", command_examples())
def test_command_examples_parse(command: str) -> None:
    """Each ``ginsim ...`` line of a shell example names a command and options that exist, with valid
    values (the run directories it reads made empty first); a command continued over lines is read
    joined, as the shell reads it."""
    assert PAGE_COMMANDS.problem(command) is None


@pytest.mark.parametrize("where, lines", [pytest.param(*block, id=block[0]) for block in shell_blocks()])
def test_no_example_loses_a_continuation(where: str, lines: list[str]) -> None:
    """A command whose continuation was lost parses on its first line when the options it lost are
    optional; the line of options left alone after it is what tells (the Markdown checker missed it)."""
    assert PAGE_COMMANDS.line_problems(lines) == []


def test_a_continued_line_is_checked_whole() -> None:
    lost = ["ginsim run --rules oklahoma --hands 1000", "  --out runs/okla"]
    assert PAGE_COMMANDS.line_problems(lost) == [
        "ginsim run --rules oklahoma --hands 1000: the next line, '--out runs/okla', is not joined to it "
        "(a lost \\ continuation)"]
    assert PAGE_COMMANDS.line_problems([f"{lost[0]} \\", lost[1]]) == []
    hidden = ["$ ginsim run --rules oklahoma --hands 1000 \\", "> --out runs/okla --plto rates.png"]
    assert PAGE_COMMANDS.commands_in_lines(hidden) == ["ginsim run --rules oklahoma --hands 1000 --out runs/okla "
                                                       "--plto rates.png"]
    [why] = PAGE_COMMANDS.line_problems(hidden)
    assert "No such option" in why and "--plto" in why
    assert "ginsim run --rules oklahoma --players simple,simple --hands 1000000 --out runs/okla" in \
        PAGE_COMMANDS.commands_in_lines(help_examples(("run",)))


def test_a_command_mangled_on_its_way_to_the_page_is_caught() -> None:
    page = ('<div class="highlight-bash notranslate"><pre>ginsim run \u2013rules oklahoma --hands 10\n'
            'ginsim hand \u201c7H 8H 9H 9C 9S 9D 2S 3S 4S KD\u201d\nginsim rules   # fine\n'
            'ginsim run --hands 10 \\\n  --seed 3</pre></div>'
            '<div class="highlight-text notranslate"><pre>ginsim 0.1.0 | standard rules</pre></div>'
            '<div class="line-block"><div class="line">ginsim replay --seed 0 --hand 42</div></div>')
    assert PAGE_COMMANDS.commands_in_html(page) == [
        "ginsim run \u2013rules oklahoma --hands 10", "ginsim hand \u201c7H 8H 9H 9C 9S 9D 2S 3S 4S KD\u201d",
        "ginsim rules", "ginsim run --hands 10 --seed 3", "ginsim replay --seed 0 --hand 42"]
    assert [problem.split(":")[0] for problem in PAGE_COMMANDS.html_problems(page)] == [
        "ginsim run \u2013rules oklahoma --hands 10", "ginsim hand \u201c7H 8H 9H 9C 9S 9D 2S 3S 4S KD\u201d"]
    # sphinx-click's line blocks, a continued line nested under the command: its backslash kept or lost
    kept = ('<div class="line-block"><div class="line">ginsim run --hands 10 \\</div>'
            '<div class="line-block"><div class="line">--seed 3</div></div></div>')
    assert PAGE_COMMANDS.commands_in_html(kept) == ["ginsim run --hands 10 --seed 3"]
    assert PAGE_COMMANDS.html_problems(kept) == []
    lost = kept.replace(" \\<", "<")
    assert PAGE_COMMANDS.commands_in_html(lost) == ["ginsim run --hands 10"]
    assert PAGE_COMMANDS.html_problems(lost) == [
        "ginsim run --hands 10: the next line, '--seed 3', is not joined to it (a lost \\ continuation)"]


def test_the_built_command_line_page_copies(tmp_path: Path) -> None:
    """The command line page as Sphinx renders it (with the docs' own configuration): every example
    copied from it parses, and no option became an en dash."""
    pytest.importorskip("sphinx_click")
    pytest.importorskip("sphinx_design")
    from sphinx.cmd.build import build_main

    source = tmp_path / "source"
    source.mkdir()
    for name in ("conf.py", "page_commands.py", "cli.md"):
        (source / name).write_text((DOCS / name).read_text())
    (source / "index.md").write_text("# Pages\n\n```{toctree}\ncli\n```\n")
    assert build_main(["-q", "-b", "html", str(source), str(tmp_path / "html")]) == 0
    page = (tmp_path / "html" / "cli.html").read_text()
    assert len(PAGE_COMMANDS.commands_in_html(page)) > 20
    # an example of the run command's help, continued on a second line (sphinx-click's line block)
    assert "ginsim run --rules oklahoma --players simple,simple --hands 1000000 --out runs/okla" in \
        PAGE_COMMANDS.commands_in_html(page)
    assert PAGE_COMMANDS.html_problems(page) == [] and "\u2013rules" not in page and "\u2013hands" not in page


@pytest.mark.parametrize("name, folder, text",
                         [pytest.param(*source, id=source[0]) for source in markdown_sources()])
def test_relative_links_resolve(name: str, folder: Path, text: str) -> None:
    for match in LINK.finditer(text):
        target = match["target"]
        if re.match(r"[a-z]+:", target):
            continue  # a web address: not checked without the network
        file_part, _, anchor = target.partition("#")
        path = (folder / file_part).resolve() if file_part else None
        assert path is None or path.exists(), f"{name}: {target} is no file of the repository"
        if anchor:
            assert anchor in anchors(path or ROOT / name), f"{name}: {target} names no heading"


def repository_files() -> list[Path]:
    skip = {".git", ".venv", "_build", "build", "jupyter_execute", "__pycache__", ".pytest_cache", ".mypy_cache",
            ".ruff_cache", ".hypothesis", ".benchmarks", "runs"}
    suffixes = {".py", ".pyx", ".pxd", ".pyi", ".md", ".ipynb", ".toml", ".cfg", ".txt"}
    return sorted(path for path in ROOT.rglob("*") if path.is_file() and not path.is_symlink()
                  and path.suffix in suffixes
                  and not skip & set(path.relative_to(ROOT).parts) and "egg-info" not in str(path)
                  and path != Path(__file__))


def test_rule_citations_name_headings_of_the_rules_page() -> None:
    headings = anchors(DOCS / "rules.md")
    for path in repository_files():
        for match in RULES_CITATION.finditer(path.read_text()):
            assert match["anchor"] in headings, f"{path.relative_to(ROOT)} cites docs/rules.md#{match['anchor']}"


def test_nothing_cites_a_document_outside_the_repository() -> None:
    citing = {str(path.relative_to(ROOT)) for path in repository_files() if OUTSIDE.search(path.read_text())}
    assert not citing, f"cite docs/rules.md#... instead: {sorted(citing)}"


@pytest.mark.parametrize("path", [*PAGES, ROOT / "README.md"], ids=lambda path: path.name)
def test_every_run_a_page_reads_is_made_on_it_first(path: Path) -> None:
    """A reader who runs a page's commands in order never meets a run directory no command made."""
    made: set[str] = set()
    for block in re.findall(r"```bash\n(.*?)```", path.read_text(), flags=re.DOTALL):
        for line in block.splitlines():
            for command in line.split("#")[0].split(";"):
                if not command.strip().startswith("ginsim "):  # another program's line (python -c "a; b")
                    continue
                words = shlex.split(command)
                if "--out" in words:
                    made.add(words[words.index("--out") + 1])
                read = [word for word in words[1:] if word.startswith("runs/")] if "--out" not in words else []
                assert set(read) <= made, f"{path.name}: {command.strip()!r} reads a run no earlier command made"
