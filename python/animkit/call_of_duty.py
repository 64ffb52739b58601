"""Call of Duty: United Offensive animation trees: load one as the stock loader does."""

from ._animkit import call_of_duty as _cod

load_tree = _cod.load_tree
