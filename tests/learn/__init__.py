"""Tests of ginsim.learn."""
