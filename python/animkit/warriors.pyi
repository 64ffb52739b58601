import os
from typing import Any, Optional, Union

from ._play import Trace

def play(scenario: Union[str, bytes, os.PathLike[str], dict[str, Any]],
         base: Optional[Union[str, os.PathLike[str]]] = None, threads: int = 0) -> Trace: ...
