"""Studies built on the game: seeded runs of hands and matches, their summaries, tournaments and ratings,
match equity, exact enumeration of every hand, and plots. Each knows the game (:mod:`ginsim.gin.game`)
and the game-independent run layer (:mod:`ginsim.core.execution`, :mod:`ginsim.core.store`), never the review of
played games.

>>> from ginsim.gin.game.rules import Rules
>>> from ginsim.gin.studies.simulate import simulate
>>> len(simulate(Rules(), "simple,simple", hands=10, seed=1, workers=1))
10
"""
