"""Running the ``ginsim`` command line inside the tests."""
from __future__ import annotations

from click.testing import CliRunner

from ginsim.cli import main


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Run ``ginsim ARGS`` (with ``input`` on stdin): its exit status, stdout and stderr."""
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr
