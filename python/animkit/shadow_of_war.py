"""Shadow of War: the pose job's player, the clip keyword hash and tables."""

from ._animkit import shadow_of_war as _sow
from ._play import engine_player

play = engine_player("shadow_of_war")
keyword_hash = _sow.keyword_hash
keywords = _sow.keywords
