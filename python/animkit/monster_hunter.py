"""Monster Hunter (MHFU / MHP3rd): the per-part entry player and a pose at a frame."""

from ._animkit import monster_hunter as _mh
from ._play import engine_player

play = engine_player("monster_hunter")
sample = _mh.sample
