"""Played games looked at again: the game record (its notation, read and written as JSON, and its replay),
the analysis of every decision and its text, hints while playing, and play in the terminal. It builds on
the game (:mod:`ginsim.gin.game`) and the runs (:mod:`ginsim.gin.studies`).

>>> from ginsim import Rules, play_hand
>>> from ginsim.gin.review.replay import GameRecord
>>> GameRecord.of_hand(play_hand(Rules(), "simple,simple", seed=1, index=0)).players
('simple', 'simple')
"""
