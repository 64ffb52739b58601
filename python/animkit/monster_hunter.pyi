import os
from typing import Any, Optional, Sequence, Union

from ._play import Trace

_Path = Union[str, os.PathLike[str]]

def play(scenario: Union[str, bytes, os.PathLike[str], dict[str, Any]],
         base: Optional[_Path] = None, threads: int = 0) -> Trace: ...
def sample(skeleton: _Path, pack: _Path, frame: float = 0.0, entry: Optional[int] = None,
           clip: Optional[int] = None, game: str = "", parts: Sequence[int] = (),
           em: Optional[int] = None) -> dict[str, Any]: ...
