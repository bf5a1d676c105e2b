"""Tests of gincore."""
