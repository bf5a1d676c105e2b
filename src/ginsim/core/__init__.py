"""The game-independent layer: what every game and study stands on, knowing no game.

:mod:`~ginsim.core.execution` (the executor: chunks on processes, Dask or threads, ``RunOptions``, run
identities), :mod:`~ginsim.core.store` (run directories and every claimed directory),
:mod:`~ginsim.core.streams` (stream keys and every derived seed), :mod:`~ginsim.core.fields` (validated
rule fields), :mod:`~ginsim.core.checks` (input checks), :mod:`~ginsim.core.text` (card and meld text),
:mod:`~ginsim.core.comparison` (two runs compared) and :mod:`~ginsim.core.intervals` (every interval).
``tests/test_architecture.py`` holds it to importing nothing above it.

>>> from ginsim.core.streams import stream_key
>>> stream_key(1) == stream_key(1)
True
"""
