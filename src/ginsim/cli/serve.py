"""``ginsim serve``: the game in the browser (play, review, your games, runs) on this machine.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(serve_command, ["--host", "0.0.0.0"])
>>> result.exit_code, "0.0.0.0 is not a loopback address: add --public" in result.output
(2, True)
"""
from __future__ import annotations

import errno
import ipaddress
import json
import os
import signal
import socket
import webbrowser
from pathlib import Path
from typing import Any

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


@click.command(name="serve")
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="The port to listen on  [default: a free one]")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Only a loopback address unless --public is given too.")
@click.option("--public", is_flag=True,
              help="Allow a --host that is not a loopback address (anyone who can reach it can play and read "
                   "the runs folder).")
@click.option("--open", "open_browser", is_flag=True, help="Open the play page in a browser.")
@click.option("--db", default=None, metavar="FILE|URL",
              help="The games database: an SQLite file, or a postgresql://user:password@host/name address for "
                   "a site that several machines serve  [default: games.sqlite3 in your data directory]")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Server processes sharing the port and the database: any of them serves any game.")
@click.option("--runs", type=click.Path(file_okay=False, exists=True, path_type=Path), default=None,
              help="A folder of run and sweep directories to show on the runs page (nothing outside it is read).")
def serve_command(port: int, host: str, public: bool, open_browser: bool, db: str | None, workers: int,
                  runs: Path | None) -> None:
    """Play Gin Rummy in the browser against any built-in strategy, review your games, browse runs.

    The server listens on 127.0.0.1 (this machine only) and prints the address to open. Every move
    is written to the games database before it is answered, so a restart, or a process killed
    outright, loses no answered move, and any of --workers processes can serve any game. The
    players' cookies are signed with a secret kept in the database (or given in the environment
    variable GINSIM_SECRET). Ctrl-C or SIGTERM stops it within a few seconds.

    \b
    Examples:
      ginsim serve --open
      ginsim serve --port 8000 --runs runs/
      ginsim serve --host 0.0.0.0 --public --port 8000 --workers 2
      ginsim serve --port 8000 --workers 4 --db postgresql://gin@localhost/gin
    """
    try:
        import uvicorn

        from ginsim.web.protocol import TimedH11Protocol
        from ginsim.web.server import LOOPBACK_HOSTS, SETTINGS_VARIABLE, app
    except ImportError as error:
        raise click.UsageError(f"ginsim serve needs the web extra ({error.name} is missing): "
                               f"{install_command('web')}") from None
    if not _loopback(host) and not public:
        raise click.BadParameter(f"{host} is not a loopback address: add --public to serve the network "
                                 "(anyone who reaches it can play and read --runs)", param_hint="--host")
    # Answer only requests addressed to this machine unless serving the network (DNS rebinding); --public
    # on a loopback address changes nothing.
    settings: dict[str, Any] = {
        "book": db, "runs": None if runs is None else str(runs), "secret": os.environ.get("GINSIM_SECRET"),
        "hosts": None if public and not _loopback(host) else [*LOOPBACK_HOSTS, host]}
    if public and _loopback(host):
        click.echo(f"Note: {host} is a loopback address: --public changes nothing, only this machine can play.",
                   err=True)
    try:
        web = app(**settings)  # checks the database and the runs folder, and makes the secret, once
        listening = _listen(host, port)
    except InputError as error:
        raise click.UsageError(str(error)) from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{listening.getsockname()[1]}/"
    click.echo(f"Serving the game at {url}  (Ctrl-C stops it)"
               + (f" with {workers} processes" if workers > 1 else ""))
    if not _loopback(host):
        click.echo(f"Warning: {host} is reachable from the network: anyone who can reach it can play here"
                   + (f" and read {runs}" if runs else "") + ".", err=True)
    if open_browser:
        webbrowser.open(url)
    common: dict[str, Any] = {"log_level": "warning", "access_log": False, "lifespan": "on", "http": TimedH11Protocol,
              "timeout_graceful_shutdown": 3, "timeout_keep_alive": 5}
    if workers == 1:
        server = uvicorn.Server(uvicorn.Config(web, **common))
        # uvicorn shuts down gracefully on Ctrl-C or SIGTERM, then sends the signal again to the handler it
        # found: SIGTERM's too is then an interrupt, so that both end here.
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            server.run(sockets=[listening])
        except KeyboardInterrupt:
            pass
    else:
        from uvicorn.supervisors import Multiprocess
        web.state.server.book.close()  # each process opens its own
        os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
        config = uvicorn.Config("ginsim.web.server:from_environment", factory=True, workers=workers, **common)
        # The supervisor stops its processes on Ctrl-C or SIGTERM and starts again any that dies.
        Multiprocess(config, sockets=[listening]).run()
    click.echo("Stopped; every answered move is saved.")


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a taken port is said in one line before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen(2048)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} on {host} is taken (by another server?): choose another --port, "
                             "or leave it out for a free one") from None
        raise InputError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    listening.set_inheritable(True)
    return listening
