"""The test suite of gincore and ginsim (a package, so its modules import ``tests.reference``)."""
