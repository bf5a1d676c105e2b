"""Reference implementations the tests hold the package to: the brute-force hand oracle (``oracle``,
independent of gincore) and the replayers of traced hands of both games (``gin_replay``,
``rummy_replay``), each written from docs/rules.md rather than from the engine's code."""
