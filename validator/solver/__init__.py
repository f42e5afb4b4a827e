"""The solver: the best game on a known dice file, and what each decision of a record cost."""

# Proven where it can be. Pure (no I/O); works on the engine's states and actions. The one
# exception is `core`, the compiled search, which may run numba's first compilation in
# another process (`core.Warmup`).

from validator.solver.analysis import Analysis, RoundAnalysis, analyze
from validator.solver.search import (
    Progress,
    Search,
    Solution,
    fast_core_installed,
    fast_core_note,
    solve,
)

__all__ = [
    "Analysis",
    "Progress",
    "RoundAnalysis",
    "Search",
    "Solution",
    "analyze",
    "fast_core_installed",
    "fast_core_note",
    "solve",
]
