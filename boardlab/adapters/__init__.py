"""Adapters to other game-AI libraries: :mod:`.openspiel` (extra ``boardlab[openspiel]``) and
:mod:`.pettingzoo` (extra ``boardlab[pettingzoo]``).

They see games only through the protocol of :mod:`boardlab.core` (``boardlab.load``, states,
views and each game's :meth:`~boardlab.core.Game.action_encoding` and
:meth:`~boardlab.core.Game.observation_encoding`), so a new game gets both for free.
Each adapter is imported on its own, so neither library is needed for the other.
"""
