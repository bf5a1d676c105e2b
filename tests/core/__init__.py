"""Tests of ginsim.core."""
