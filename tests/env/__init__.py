"""Tests of ginsim.env."""
