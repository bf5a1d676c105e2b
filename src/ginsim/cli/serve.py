"""``ginsim serve``: the game in the browser (play, review, your games, runs) on this machine.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(serve_command, ["--host", "0.0.0.0"])
>>> result.exit_code, "0.0.0.0 is not a loopback address: add --public" in result.output
(2, True)
"""
from __future__ import annotations

import ipaddress
import signal
import socket
import webbrowser
from pathlib import Path

import click

from gincore.errors import InputError
from ginsim._version import install_command

__all__ = ["serve_command"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


@click.command(name="serve")
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="The port to listen on  [default: a free one]")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Only a loopback address unless --public is given too.")
@click.option("--public", is_flag=True,
              help="Allow a --host that is not a loopback address (anyone who can reach it can play and read "
                   "the runs folder).")
@click.option("--open", "open_browser", is_flag=True, help="Open the play page in a browser.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The games database  [default: games.sqlite3 in your data directory]")
@click.option("--runs", type=click.Path(file_okay=False, exists=True, path_type=Path), default=None,
              help="A folder of run and sweep directories to show on the runs page (nothing outside it is read).")
def serve_command(port: int, host: str, public: bool, open_browser: bool, db: Path | None, runs: Path | None) -> None:
    """Play Gin Rummy in the browser against any built-in strategy, review your games, browse runs.

    The server listens on 127.0.0.1 (this machine only) and prints the address to open. Every game
    is kept in an SQLite database, so a restart loses no finished game and resumes the unfinished
    ones. Ctrl-C stops it.

    \b
    Examples:
      ginsim serve --open
      ginsim serve --port 8000 --runs runs/
      ginsim serve --host 0.0.0.0 --public --port 8000
    """
    try:
        import uvicorn

        from ginsim.web import app
        from ginsim.web.server import LOOPBACK_HOSTS
    except ImportError as error:
        raise click.UsageError(f"ginsim serve needs the web extra ({error.name} is missing): "
                               f"{install_command('web')}") from None
    if not _loopback(host) and not public:
        raise click.BadParameter(f"{host} is not a loopback address: add --public to serve the network "
                                 "(anyone who reaches it can play and read --runs)", param_hint="--host")
    try:
        # Answer only requests addressed to this machine unless told to serve the network (DNS rebinding).
        web = app(db, runs, hosts=None if public else (*LOOPBACK_HOSTS, host))
        chosen = port or _free_port(host)
    except InputError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot listen on {host}: {error.strerror}") from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{chosen}/"
    click.echo(f"Serving the game at {url}  (Ctrl-C stops it)")
    if not _loopback(host):
        click.echo(f"Warning: {host} is reachable from the network: anyone who can reach it can play here"
                   + (f" and read {runs}" if runs else "") + ".", err=True)
    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(web, host=host, port=chosen, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    # uvicorn shuts down gracefully on Ctrl-C or SIGTERM, then sends the signal again to the handler it
    # found: SIGTERM's too is then an interrupt, so that both end here, with the games saved.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    except OSError as error:
        raise click.UsageError(f"cannot listen on {host}:{chosen}: {error.strerror}") from None
    click.echo("Stopped; every game is saved.")
