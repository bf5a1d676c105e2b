"""ginsim: seeded Gin Rummy simulations on the native gincore engine."""
from __future__ import annotations

from ginsim._version import __version__

__all__ = ["__version__"]
