"""Running the ``ginsim`` command line inside the tests."""
from __future__ import annotations

import re

from click.testing import CliRunner

from ginsim.cli import main


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Run ``ginsim ARGS`` (with ``input`` on stdin): its exit status, stdout and stderr."""
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def unwrapped(text: str) -> str:
    """``text`` with its title lines (what was played, what produced a table), wrapped to 80 columns
    with their further lines indented by two spaces, each on one line again."""
    return re.sub(r"(?m)^(\S[^\n]*)\n  (?=\S)", r"\1 ", re.sub(r"(?m)^(\S[^\n]*)\n  (?=\S)", r"\1 ", text))
