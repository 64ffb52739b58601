import os
from typing import Any, Optional, Sequence, Union

_Path = Union[str, os.PathLike[str]]

def load_tree(path: _Path, refs: Sequence[str] = (), anim_check: bool = False,
              keep_going: bool = False, assets: Optional[_Path] = None,
              manifest: Optional[_Path] = None, dot: bool = False) -> dict[str, Any]: ...
