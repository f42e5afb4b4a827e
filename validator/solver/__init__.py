"""The solver: the best game on a known dice file, proven where it can be, and what each
decision of a record cost. Pure (no I/O); works on the engine's states and actions."""

from validator.solver.analysis import Analysis, RoundAnalysis, analyze
from validator.solver.search import Progress, Search, Solution, par, solve

__all__ = ["Analysis", "Progress", "RoundAnalysis", "Search", "Solution", "analyze", "par", "solve"]
