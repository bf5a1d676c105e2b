"""Tests of ginsim.gin.studies."""
