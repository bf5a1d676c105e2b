"""Tests of ginsim.gin.game."""
