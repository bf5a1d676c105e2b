__version__ = "0.1.0"
DISTRIBUTION = "gin-rummy-sim"
"""The name on the package index (``ginsim`` there is another project's): it installs the import packages
``gincore`` and ``ginsim`` and the ``ginsim`` command."""


def install_command(extra: str) -> str:
    """How to install an extra, by the distribution's name and from a clone of the repository."""
    return f"pip install '{DISTRIBUTION}[{extra}]' (in a clone: pip install '.[{extra}]')"
