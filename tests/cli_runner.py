"""Running the ``ginsim`` command line inside the tests."""
from __future__ import annotations

import re
import signal

from click.testing import CliRunner

from ginsim.cli import main


def ctrl_c_as_from_a_terminal() -> None:
    """``preexec_fn`` of a child process the test sends Ctrl-C: SIGINT with its default action, even where
    the suite was started with SIGINT ignored (a shell's background job), which a child would inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Run ``ginsim ARGS`` (with ``input`` on stdin): its exit status, stdout and stderr."""
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(args: list[str], message: str) -> str:
    """Run ``ginsim ARGS`` and check that it is refused as every mistake is: exit status 2, nothing on
    stdout, one line on stderr naming ``message`` and no traceback; that line."""
    code, out, err = invoke(*args)
    assert code == 2, (code, out, err)
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err
    return err


def unwrapped(text: str) -> str:
    """``text`` with its title lines (what was played, what produced a table), wrapped to 80 columns
    with their further lines indented by two spaces, each on one line again."""
    return re.sub(r"(?m)^(\S[^\n]*)\n  (?=\S)", r"\1 ", re.sub(r"(?m)^(\S[^\n]*)\n  (?=\S)", r"\1 ", text))
