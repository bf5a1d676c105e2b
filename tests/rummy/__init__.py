"""Tests of ginsim.rummy."""
