"""The game of Gin Rummy: its rules and presets, the moves, the strategies and their parameters, the
open game state, the played hand and its result, and the one module (:mod:`ginsim.gin.game.native`)
that speaks to the native engine: it builds engines, lowers rules and strategies to native settings and
re-exports the native names the rest of ginsim uses. Nothing here knows the runs or the review of games
built on it.

>>> from ginsim.gin.game.state import GameState
>>> from ginsim.gin.game.rules import Rules
>>> GameState.deal(Rules(), seed=1).legal_actions()
[104, 105]
"""
