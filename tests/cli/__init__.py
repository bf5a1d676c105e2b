"""Tests of ginsim.cli."""
