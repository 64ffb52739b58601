"""The Warriors (PS2): the task-stack player (`animkit play` with "engine": "warriors")."""

from ._play import engine_player

play = engine_player("warriors")
