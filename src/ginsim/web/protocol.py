"""The HTTP connection of ``ginsim serve``: uvicorn's HTTP/1.1 protocol with a deadline for each request.

A connection that has begun a request must send all of it, headers and body, within
:data:`REQUEST_SECONDS`; else it is closed. So a client that opens connections and sends a request slowly,
or half of one and then nothing (a half-open connection), cannot hold the server's connections; a stopping
server closes at once the connections whose request is still arriving. An idle connection between
requests is closed by uvicorn's keep-alive timeout.

>>> import uvicorn
>>> config = uvicorn.Config("ginsim.web.server:from_environment", http=TimedH11Protocol)
>>> config.http is TimedH11Protocol, TimedH11Protocol.deadline_seconds
(True, 15.0)
"""
from __future__ import annotations

import asyncio
from typing import Any, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["REQUEST_SECONDS", "TimedH11Protocol"]

REQUEST_SECONDS: Final = 15.0
"""The most seconds a client may take to send one request, from its first byte (or the connection's
opening) to its last."""


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request does not arrive whole in time."""

    deadline_seconds: float = REQUEST_SECONDS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the whole request is in (or the connection is closing)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self._disarm()
        super().on_response_complete()

    def shutdown(self) -> None:
        """A stopping server closes at once a connection whose request is still arriving: nothing was
        answered on it, and waiting for the rest would hold the stop up."""
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self.transport.close()
            return
        super().shutdown()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.deadline_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, *_: Any) -> None:
        self._deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.logger.warning("a request took more than %.0f s to arrive: its connection is closed",
                                self.deadline_seconds)
            self.transport.close()
