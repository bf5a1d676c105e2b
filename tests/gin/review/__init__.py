"""Tests of ginsim.gin.review."""
