"""The ``ginsim`` commands of the documentation as a reader copies them, and whether each parses
against the command line's real options.

The Markdown pages are checked as written (``tests/docs/test_docs_pages.py``); the built HTML pages are
checked as shown, after Sphinx and its extensions have rendered them (``docs/conf.py`` runs
:func:`html_problems` on every page once the build is done: a command that does not parse is a
warning, an error under ``sphinx-build -W``). So an option turned into an en dash (``–rules``) or a
quote turned curly fails the build.
"""
from __future__ import annotations

import os
import re
import shlex
import tempfile
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

import click

__all__ = ["commands_in_html", "commands_in_lines", "html_problems", "line_problems", "problem"]


SHELLS = ("highlight-bash", "highlight-shell", "highlight-console", "highlight-sh")
"""The code blocks of shell commands (a ``text`` block shows output, which may start with "ginsim")."""


class _Lines(HTMLParser):
    """The text of a page's shell code blocks and line blocks (where the command line's examples are),
    line by line, as a browser shows it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._depth = 0  # inside a shell block's <pre> or a line block's <div class="line">
        self._shell = False  # inside a shell code block
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if self._depth:
            self._depth += tag == "div" or tag == "pre"
        elif (tag == "pre" and self._shell) or (tag == "div" and "line" in classes):
            self._depth = 1
        elif tag == "div" and any(name.startswith("highlight-") for name in classes):
            self._shell = any(name in SHELLS for name in classes)

    def handle_endtag(self, tag: str) -> None:
        if self._depth and tag in ("div", "pre"):
            self._depth -= 1
            if not self._depth:
                self.lines += "".join(self._text).splitlines()
                self._text = []

    def handle_data(self, data: str) -> None:
        if self._depth:
            self._text.append(data)


def commands_in_lines(lines: Iterable[str]) -> list[str]:
    """Every ``ginsim`` command of shell lines as the shell reads them: a line ending in ``\\`` goes on
    with the next; comments and the other commands of a line (after ``;``) apart."""
    return _read(lines)[0]


def commands_in_html(html: str) -> list[str]:
    """Every ``ginsim`` command of a page's code and line blocks, its continued lines joined."""
    return commands_in_lines(_html_lines(html))


def _html_lines(html: str) -> list[str]:
    parser = _Lines()
    parser.feed(html)
    return parser.lines


def _read(lines: Iterable[str]) -> tuple[list[str], list[str]]:
    """The commands of the lines, and ``command: why`` for each command followed by a line of options
    alone: a continuation lost on the way to the page (a reader copying both lines runs the first
    without them, and the second fails)."""
    commands: list[str] = []
    orphans: list[str] = []
    pending, after_command = "", False
    for line in lines:
        text = line.strip().removeprefix("$ ")
        if pending:
            text, pending = f"{pending} {text.removeprefix('> ')}", ""  # a console's continuation prompt
        elif after_command and text.startswith("-"):
            orphans.append(f"{commands[-1]}: the next line, {text!r}, is not joined to it (a lost \\ continuation)")
        if text.endswith("\\"):
            pending = text[:-1].rstrip()
            continue
        after_command = False
        for command in text.split("#")[0].split(";"):
            if command.strip().startswith("ginsim ") and "[OPTIONS]" not in command:  # not a usage line
                commands.append(command.strip())
                after_command = True
    return commands, orphans


def problem(command: str) -> str | None:
    """Why ``command`` does not parse against the real options (None when it does). It is parsed in an
    empty folder where the run directories and the strategy files it names exist, as a reader's
    would after the commands before it; nothing is run."""
    from ginsim.cli import main

    words = shlex.split(command)[1:]
    if ">" in words:  # a shell redirection of the output, not part of the command
        words = words[:words.index(">")]
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            for word in words:
                if word.startswith("runs/"):
                    Path(word).mkdir(parents=True, exist_ok=True)
                for module, name in re.findall(r"(\w+)\.py:(\w+)", word):  # a strategy of one's own
                    Path(f"{module}.py").write_text(
                        f"from ginsim import Strategy\n\n\nclass {name}(Strategy):\n    name = 'mine'\n")
            leaf: click.Command = main
            while isinstance(leaf, click.Group) and words and words[0] in leaf.commands:
                leaf, words = leaf.commands[words[0]], words[1:]
            if isinstance(leaf, click.Group):
                return "it names no command"
            leaf.make_context(leaf.name or "ginsim", words)
        except click.ClickException as error:
            return error.format_message()
        finally:
            os.chdir(here)
    return None


def line_problems(lines: Iterable[str]) -> list[str]:
    """``command: why`` for every command of shell lines (their continued lines joined) that does not
    parse, or that a line of its options follows without a continuation: the first line alone parses
    when the options it lost are optional (``--out runs/okla``), so only the lost line tells."""
    commands, orphans = _read(lines)
    return orphans + [f"{command}: {why}" for command in commands if (why := problem(command)) is not None]


def html_problems(html: str) -> list[str]:
    """``command: why`` for every command of a built page that does not parse, or that a line of its
    options follows without a continuation."""
    return line_problems(_html_lines(html))
