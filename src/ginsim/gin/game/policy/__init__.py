"""Policies, in one place below the environments and training: what a player sees as numbers
(:mod:`~ginsim.gin.game.policy.observations`), a policy file (:mod:`~ginsim.gin.game.policy.file`), the
networks the native ``learned`` strategy plays (:mod:`~ginsim.gin.game.policy.learned`), a policy as a
Python strategy (:mod:`~ginsim.gin.game.policy.strategy`) and the PyTorch network that training fits and
writes as a policy file (:mod:`~ginsim.gin.game.policy.network`, the only one that imports PyTorch).

The package imports none of its modules, so that reading a policy file never loads PyTorch:

>>> from ginsim.gin.game.policy.observations import LAYOUTS
>>> "compact" in LAYOUTS
True
"""
