"""Asheron's Call: the motion interpreter driven by movement messages (`animkit play`)."""

from ._play import engine_player

play = engine_player("asherons_call")
