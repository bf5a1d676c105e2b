"""Tests of ginsim.gin."""
