"""The solver's compiled core: the depth-first branch and bound of `search.Search.dfs`
and the compact rules of `position.Game`, compiled with numba.

It is the same algorithm on the same positions, action codes, table entries and bound,
written for numba's nopython mode: ints and numpy arrays only, the transposition table
an open-addressing hash table in two arrays, the children of each ply in a preallocated
work array. The compact model is not restated: `compact` compiles position.py's own
functions (`position.COMPACT_RULES`: the walks, the region the burglar can still reach,
the rows that can circle; and `position.children`, each child written into the work
array by `put_child`).
`search.Search` uses it when numba imports (see `available`) and keeps the pure-Python
`dfs` as the reference; tests check that both give the same values.

Importing this module imports numba (about half a second) and the first call compiles
(tens of seconds; the machine code is then cached on disk, `cache=True`), so only the
solver imports it, and only when a search needs more than its pure-Python first round.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FunctionType
from typing import Literal, TypeVar

import numpy as np
from numba import njit

from validator.engine.board import FIELDS
from validator.engine.rules import MAX_RINGS
from validator.solver import position
from validator.solver.position import (
    _TRANSPOSE_ROW,
    FIELD_VALUE,
    MAX_CROSSES,
    NOWHERE,
    P_EXACT_DEPTH,
    P_IN_A_ROW,
    P_IN_AND_OUT,
    P_N,
    P_PASS_LIMIT,
    P_READ_DICE,
    P_SYMMETRY,
    PASS,
    TRANSPOSE_FIELD,
    Game,
)

# --- constants, frozen into the compiled code -----------------------------------------

_VAL = np.array(FIELD_VALUE, dtype=np.int64)
_TROW = np.array(_TRANSPOSE_ROW, dtype=np.int64)
_TFIELD = np.array(TRANSPOSE_FIELD, dtype=np.int64)

# The search's shared counters, one int64 array `S`: read and written by the search
# thread, read (and STOP set) by the thread that waits for it.
S_NODES, S_BEST, S_STOP, S_ROOT_UPPER, S_LINE_LEN, S_TT_COUNT, S_TT_LIMIT, S_NODE_LIMIT = range(8)
S_SETTLED, S_CHOICES, S_STOPPED_AT, S_AIM = 8, 9, 10, 11
S_SIZE = 12

# Columns of the work array `W[ply, child, column]`.
W_CODE, W_GAIN, W_TAKEN, W_POS, W_PC, W_RINGS, W_END, W_EST, W_ORDER = range(9)
W_COLUMNS = 9
MAX_CHILDREN = 256
"""A ring, and per cross-out (at most 6) at most 36 moves, an escape and a leave."""

_PROBES = 32
_EMPTY = 0
_R = TypeVar("_R")


# --- the compact rules -------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


_COMPACT: dict[str, object] = {
    **vars(position),
    "NEIGH": np.array(position.NEIGH, dtype=np.int64),
    "NCOUNT": np.array(position.NCOUNT, dtype=np.int64),
    "FIELD_VALUE": _VAL,
    "TRANSPOSE_FIELD": _TFIELD,
    "_TRANSPOSE_ROW": _TROW,
    "popcount": _popcount,
}
"""The globals the compiled rules see: position.py's own, with its flat tables as arrays
and (once compiled) its functions as their compiled forms."""


def compact(function: Callable[..., _R]) -> Callable[..., _R]:
    """A function of the compact model (`position.COMPACT_RULES`) compiled: the very code
    the pure-Python search runs, whose calls to the model's other functions go to their
    compiled forms (those are compiled first)."""
    clone = FunctionType(function.__code__, _COMPACT, function.__name__)
    clone.__qualname__, clone.__module__ = function.__qualname__, function.__module__
    compiled: Callable[..., _R] = njit(cache=True, nogil=True)(clone)
    _COMPACT[function.__name__] = compiled
    return compiled


def forget_stale_code(cache: Path, source: bytes) -> None:
    """Drop machine code in numba's on-disk `cache` that holds compiled code of another
    file when `source` (position.py's and this module's) changed since it was compiled.
    numba checks a cached function against its own file only: this module's functions
    hold the compiled compact rules of position.py, and position.py's `children`, compiled
    here, holds this module's `put_child`. Without this, an edited rule would go on
    running in its old form. (The other functions of position.py numba checks itself.)"""
    stamp = cache / "core.position-sha256"
    digest = hashlib.sha256(source).hexdigest()
    try:
        if stamp.is_file() and stamp.read_text(encoding="ascii") == digest:
            return
        for old in (*cache.glob("core.*.nb[ic]"), *cache.glob("position.children-*.nb[ic]")):
            old.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except (OSError, UnicodeDecodeError):
        pass  # a read-only install: numba cannot write its cache there either


forget_stale_code(
    Path(__file__).parent / "__pycache__",
    Path(position.__file__).read_bytes() + Path(__file__).read_bytes(),
)

_ends_from, walk_ends, _exit_from, can_exit, reachable, count_live_rows = (
    compact(f) for f in position.COMPACT_RULES
)


@njit(cache=True, nogil=True)
def put_child(
    out: np.ndarray,
    count: int,
    code: int,
    gain: int,
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    end: bool,
) -> int:
    """`position.put_child` for the compiled `children`: one child into `out[count]`
    (W_END 1 when it ends the game); returns how many `out` holds."""
    out[count, W_CODE] = code
    out[count, W_GAIN] = gain
    out[count, W_TAKEN] = taken
    out[count, W_POS] = pos
    out[count, W_PC] = pc
    out[count, W_RINGS] = rings
    out[count, W_END] = 1 if end else 0
    return count + 1


# The compiled walks themselves (no cache to consult) and the writer into the work array.
_COMPACT.update(ends_of=walk_ends, exits_of=can_exit, put_child=put_child)
children = compact(position.children)
"""`position.children` compiled: the children into `out[i, W_CODE..W_END]`."""
best_fields = compact(position.best_fields)
_COMPACT["best_fields_of"] = best_fields
estimate = compact(position.estimate)
compact(position.transpose)  # for table_key
_transpose_code = compact(position.transpose_code)
table_key = compact(position.table_key)


@njit(cache=True, nogil=True)
def live_rows(taken: int, pc: int, row: int, P: np.ndarray, RM: np.ndarray) -> int:
    """`Game.live_rows`: the dice rows from `row` on that can still circle (capped)."""
    return count_live_rows(
        taken, pc, row, P[P_N], P[P_IN_A_ROW], P[P_PASS_LIMIT], P[P_READ_DICE], RM
    )


@njit(cache=True, nogil=True)
def make_key(
    taken: int, pos: int, pc: int, rings: int, row: int, P: np.ndarray
) -> tuple[int, bool]:
    """`position.table_key`, plus one so that no key is the empty slot's 0."""
    key, flipped = table_key(taken, pos, pc, rings, row, P[P_PASS_LIMIT], P[P_SYMMETRY] != 0)
    return key + 1, flipped


@njit(cache=True, nogil=True)
def _hash(key: int) -> int:
    """The table's hash of a key (Fibonacci hashing, wrapping, then a fold)."""
    h = key * -7046029254386353131  # 0x9E3779B97F4A7C15
    return h ^ ((h >> 29) & 0x7FFFFFFFF)


@njit(cache=True, nogil=True)
def _slot(keys: np.ndarray, key: int) -> int:
    """The slot holding `key`, or -1 - (the first empty slot on its probe sequence).
    The table is never more than 3/4 full, so there always is one."""
    mask: int = keys.shape[0] - 1
    h = _hash(key)
    i = 0
    while True:
        s = (h + i) & mask
        k = keys[s]
        if k == key:
            return s
        if k == _EMPTY:
            return -1 - s
        i += 1


@njit(cache=True, nogil=True)
def _store(
    keys: np.ndarray, vals: np.ndarray, S: np.ndarray, key: int, value: int, code: int, exact: bool
) -> None:
    """Write an entry: over its key's, else in the first empty slot while the table is
    below its limit (so, until it is full, every entry is kept, as in the pure-Python
    table: the search does not depend on the table's size), else over an upper bound
    kept for another position within the first probes. Exact entries are never
    overwritten by another position's: the best line is read from them (an exact
    entry's best child was stored before it)."""
    entry = ((value << 14 | code) << 1) | (1 if exact else 0)
    mask: int = keys.shape[0] - 1
    h = _hash(key)
    victim = -1
    i = 0
    while True:
        s = (h + i) & mask
        k = keys[s]
        if k == key:
            vals[s] = entry
            return
        if k == _EMPTY:
            if S[S_TT_COUNT] < S[S_TT_LIMIT]:
                keys[s] = key
                vals[s] = entry
                S[S_TT_COUNT] += 1
                return
            break
        if victim < 0 and i < _PROBES and not vals[s] & 1:
            victim = s
        i += 1
    # Lookups stop at the first empty slot, and a victim always lies before it.
    if victim >= 0:
        keys[victim] = key
        vals[victim] = entry


@njit(cache=True, nogil=True)
def rehash(keys: np.ndarray, vals: np.ndarray, new_keys: np.ndarray, new_vals: np.ndarray) -> None:
    """Move every entry into a larger (empty) table."""
    mask: int = new_keys.shape[0] - 1
    for j in range(keys.shape[0]):
        key = keys[j]
        if key == _EMPTY:
            continue
        h = _hash(key)
        i = 0
        while new_keys[(h + i) & mask] != _EMPTY:
            i += 1
        new_keys[(h + i) & mask] = key
        new_vals[(h + i) & mask] = vals[j]


@njit(cache=True, nogil=True)
def lookup(keys: np.ndarray, vals: np.ndarray, key: int) -> int:
    """The table entry of `key`, or -1."""
    s = _slot(keys, key)
    return vals[s] if s >= 0 else -1


@njit(cache=True, nogil=True)
def table_line(
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    P: np.ndarray,
    CF: np.ndarray,
    CD: np.ndarray,
    CC: np.ndarray,
    keys: np.ndarray,
    vals: np.ndarray,
    out: np.ndarray,
    start: int,
) -> int:
    """`Search.table_line` into `out[start:]` (for `_improve`); returns the new length, or
    -1 when an entry on the way is missing (which the table's write-once rule excludes)."""
    k = start
    options = np.zeros((MAX_CHILDREN, W_COLUMNS), dtype=np.int64)
    while row < P[P_N]:
        key, flipped = make_key(taken, pos, pc, rings, row, P)
        entry = lookup(keys, vals, key)
        if entry < 0 or not entry & 1:
            return -1
        code = (entry >> 1) & 0x3FFF
        if flipped:
            code = _transpose_code(code)
        out[k] = code
        k += 1
        # The position after it, as `children` makes it (`Game.child`).
        count = children(taken, pos, pc, rings, row, P, CF, CD, CC, options)
        i = 0
        while i < count and options[i, W_CODE] != code:
            i += 1
        if i == count:
            return -1
        if options[i, W_END]:
            break
        taken, pos = options[i, W_TAKEN], options[i, W_POS]
        pc, rings = options[i, W_PC], options[i, W_RINGS]
        row += 1
    return k


@njit(cache=True, nogil=True)
def _improve(
    total: int,
    depth: int,
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    from_table: bool,
    P: np.ndarray,
    CF: np.ndarray,
    CD: np.ndarray,
    CC: np.ndarray,
    keys: np.ndarray,
    vals: np.ndarray,
    S: np.ndarray,
    path: np.ndarray,
    best: np.ndarray,
) -> None:
    length = depth
    if from_table:
        # Read the table's line aside first: the line found before stays whole if this
        # one cannot be read (which the store rule excludes, but stay safe).
        tail = np.empty(best.shape[0], dtype=np.int64)
        end = table_line(taken, pos, pc, rings, row, P, CF, CD, CC, keys, vals, tail, 0)
        if end < 0 or depth + end > best.shape[0]:
            return
        for i in range(end):
            best[depth + i] = tail[i]
        length = depth + end
    for i in range(depth):
        best[i] = path[i]
    S[S_BEST] = total
    S[S_LINE_LEN] = length


@njit(cache=True, nogil=True, inline="always")
def _rank(
    out: np.ndarray,
    count: int,
    taken: int,
    pc: int,
    row: int,
    region: int,
    depth: int,
    P: np.ndarray,
    VM: np.ndarray,
    RM: np.ndarray,
    keys: np.ndarray,
    vals: np.ndarray,
) -> None:
    """`Search.ranked`: each child's estimate of what it adds (`W_EST`), and the children
    in `W_ORDER`, most promising first."""
    shallow = depth < P[P_EXACT_DEPTH]
    # As in Python: every child but a forced reroll's has the same pass count, and the
    # rows that can circle, counted on this position's fields, are at least the child's.
    next_pc = pc + 1 if out[0, W_CODE] == PASS else (0 if P[P_IN_A_ROW] else pc)
    live_next = live_rows(taken, next_pc, row + 1, P, RM)
    for i in range(count):
        gain = out[i, W_GAIN]
        if out[i, W_END]:
            out[i, W_EST] = gain
        else:
            ct = out[i, W_TAKEN]
            cp = out[i, W_POS]
            child_region = region & ~ct
            live = live_next
            if shallow:
                child_region = reachable(ct, cp, P[P_IN_AND_OUT])
                live = live_rows(ct, out[i, W_PC], row + 1, P, RM)
            bound = estimate(child_region, ct, cp, live, P, VM)
            if shallow:
                ckey, _ = make_key(ct, cp, out[i, W_PC], out[i, W_RINGS], row + 1, P)
                known = lookup(keys, vals, ckey)
                if known >= 0:
                    bound = min(bound, known >> 15)
            out[i, W_EST] = gain + bound
        _insert(out, i)


@njit(cache=True, nogil=True, inline="always")
def _insert(out: np.ndarray, i: int) -> None:
    """Insertion sort of child `i` into `W_ORDER[:i]`, best first: estimate, then gain,
    then code (as Python's sort of `Search.ranked`)."""
    j = i
    while j > 0:
        o = out[j - 1, W_ORDER]
        if out[o, W_EST] != out[i, W_EST]:
            if out[o, W_EST] > out[i, W_EST]:
                break
        elif out[o, W_GAIN] != out[i, W_GAIN]:
            if out[o, W_GAIN] > out[i, W_GAIN]:
                break
        elif out[o, W_CODE] > out[i, W_CODE]:
            break
        out[j, W_ORDER] = o
        j -= 1
    out[j, W_ORDER] = i


@njit(cache=True, nogil=True, inline="always")
def _store_exact(
    out: np.ndarray,
    exact: int,
    exact_code: int,
    exact_child: int,
    row: int,
    key: int,
    flipped: bool,
    P: np.ndarray,
    keys: np.ndarray,
    vals: np.ndarray,
    S: np.ndarray,
) -> None:
    """Store a position's exact value, with its best child's code (`exact_child` in
    `out`, -1 for none). Stored as exact only when its best line can be read on from the
    table: the best child ends the game or holds an exact entry (once the table is full,
    a child's entry may not have been written). Otherwise as a bound: still true."""
    readable = exact_child < 0 or out[exact_child, W_END] != 0
    if not readable:
        ckey, _ = make_key(
            out[exact_child, W_TAKEN],
            out[exact_child, W_POS],
            out[exact_child, W_PC],
            out[exact_child, W_RINGS],
            row + 1,
            P,
        )
        found = lookup(keys, vals, ckey)
        readable = found >= 0 and found & 1 == 1
    if flipped:
        exact_code = _transpose_code(exact_code)
    _store(keys, vals, S, key, exact, exact_code if readable else 0, readable)


@njit(cache=True, nogil=True, inline="always")
def _must_stop(S: np.ndarray) -> bool:
    """Count the position; whether the search must stop here (its node budget spent, or
    stopped from outside), noting where it first saw so."""
    S[S_NODES] += 1
    if S[S_NODES] > S[S_NODE_LIMIT]:
        S[S_STOP] = 1  # the round's node budget, exactly where Search.dfs stops
    if S[S_STOP] != 0:
        if S[S_STOPPED_AT] == 0:
            S[S_STOPPED_AT] = S[S_NODES]
        return True
    return False


@njit(cache=True, nogil=True)
def dfs(
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    base: int,
    ub: int,
    depth: int,
    P: np.ndarray,
    CF: np.ndarray,
    CD: np.ndarray,
    CC: np.ndarray,
    VM: np.ndarray,
    RM: np.ndarray,
    keys: np.ndarray,
    vals: np.ndarray,
    S: np.ndarray,
    path: np.ndarray,
    best: np.ndarray,
    W: np.ndarray,
) -> tuple[int, bool]:
    """`Search.dfs`: the value of a position, exact (True) or an upper bound (False)."""
    if _must_stop(S):
        return ub, False
    key, flipped = make_key(taken, pos, pc, rings, row, P)
    entry = lookup(keys, vals, key)
    if entry >= 0:
        value = entry >> 15
        if entry & 1:
            if base + value > S[S_BEST]:
                _improve(
                    base + value, depth, taken, pos, pc, rings, row, True,
                    P, CF, CD, CC, keys, vals, S, path, best,
                )  # fmt: skip
            return value, True
        ub = min(ub, value)
    # Cut what cannot beat the best game, nor the aim of an aimed round (`Search.aim`).
    cut = max(S[S_BEST], S[S_AIM])
    if ub <= cut - base:
        return ub, False
    region = reachable(taken, pos, P[P_IN_AND_OUT])
    ub = min(ub, estimate(region, taken, pos, live_rows(taken, pc, row, P, RM), P, VM))
    if ub <= cut - base:
        if entry < 0:
            _store(keys, vals, S, key, ub, 0, False)
        return ub, False
    out = W[depth]
    count = children(taken, pos, pc, rings, row, P, CF, CD, CC, out)
    _rank(out, count, taken, pc, row, region, depth, P, VM, RM, keys, vals)
    exact = -1
    exact_code = 0
    exact_child = -1
    upper = -1
    if depth == 0:
        S[S_SETTLED] = 0
        S[S_CHOICES] = count
    for j in range(count):
        i = out[j, W_ORDER]
        est = out[i, W_EST]
        gain = out[i, W_GAIN]
        code = out[i, W_CODE]
        floor = max(max(S[S_BEST], S[S_AIM]) - base, exact)
        if est <= floor:
            if est > exact:
                upper = max(upper, est)
            if depth == 0 and S[S_STOP] == 0:
                S[S_SETTLED] = count
            break
        path[depth] = code
        if out[i, W_END]:
            value = gain
            known_value = True
            if base + gain > S[S_BEST]:
                _improve(
                    base + gain, depth + 1, 0, 0, 0, 0, 0, False,
                    P, CF, CD, CC, keys, vals, S, path, best,
                )  # fmt: skip
        else:
            sub, known_value = dfs(
                out[i, W_TAKEN],
                out[i, W_POS],
                out[i, W_PC],
                out[i, W_RINGS],
                row + 1,
                base + gain,
                est - gain,
                depth + 1,
                P,
                CF,
                CD,
                CC,
                VM,
                RM,
                keys,
                vals,
                S,
                path,
                best,
                W,
            )
            value = gain + sub
        if known_value:
            if value > exact:
                exact = value
                exact_code = code
                exact_child = i
        elif value > upper:
            upper = value
        if depth == 0:
            rest = out[out[j + 1, W_ORDER], W_EST] if j + 1 < count else -1
            S[S_ROOT_UPPER] = base + max(exact, upper, rest)
            if S[S_STOP] == 0:
                S[S_SETTLED] = j + 1
    if exact >= upper:
        _store_exact(out, exact, exact_code, exact_child, row, key, flipped, P, keys, vals, S)
        return exact, True
    result = max(exact, upper)
    if entry < 0 or not entry & 1:
        _store(keys, vals, S, key, result, 0, False)
    return result, False


@njit(cache=True, nogil=True)
def load(
    keys: np.ndarray, vals: np.ndarray, S: np.ndarray, from_keys: np.ndarray, from_vals: np.ndarray
) -> None:
    """Store the entries of a pure-Python table (its keys, without the one added here)."""
    for i in range(from_keys.shape[0]):
        key = from_keys[i] + 1
        s = _slot(keys, key)
        if s >= 0:
            vals[s] = from_vals[i]
            continue
        s = -1 - s
        if S[S_TT_COUNT] < S[S_TT_LIMIT]:
            keys[s] = key
            vals[s] = from_vals[i]
            S[S_TT_COUNT] += 1


@njit(cache=True, nogil=True)
def beam(
    taken: int,
    pos: int,
    pc: int,
    rings: int,
    row: int,
    base: int,
    width: int,
    P: np.ndarray,
    CF: np.ndarray,
    CD: np.ndarray,
    CC: np.ndarray,
    VM: np.ndarray,
    RM: np.ndarray,
    line: np.ndarray,
) -> tuple[int, int, int]:
    """`Search.beam`: keep the `width` most promising positions per row (score so far
    plus half the bound; ties broken by the table's hash of the key, as in Python).
    Returns (best total, length of its line written to `line`, positions weighed), or
    (-1, 0, weighed) when no game ends."""
    n = P[P_N]
    plies = min(n - row, line.shape[0])
    # The layer being expanded (position and total), and for every layer the (parent,
    # code) that reached each of its positions, to read the best line back.
    L = np.zeros((width, 5), dtype=np.int64)
    L[0, 0], L[0, 1], L[0, 2], L[0, 3], L[0, 4] = taken, pos, pc, rings, base
    L_parent = np.zeros((plies + 1, width), dtype=np.int64)
    L_code = np.zeros((plies + 1, width), dtype=np.int64)
    size = 1
    best_total, best_layer, best_index, best_code = -1, -1, -1, 0
    out = np.zeros((MAX_CHILDREN, W_COLUMNS), dtype=np.int64)
    capacity = 1024
    weighed = 0
    C_promise = np.zeros(capacity, dtype=np.int64)
    C_hash = np.zeros(capacity, dtype=np.int64)
    C_data = np.zeros((capacity, 7), dtype=np.int64)
    slots = np.full(2 * capacity, -1, dtype=np.int64)
    slot_keys = np.zeros(2 * capacity, dtype=np.int64)
    for d in range(plies):
        r = row + d
        count = 0
        slots[:] = -1
        for i in range(size):
            now_base = L[i, 4]
            k = children(L[i, 0], L[i, 1], L[i, 2], L[i, 3], r, P, CF, CD, CC, out)
            for c in range(k):
                now = now_base + out[c, W_GAIN]
                if out[c, W_END]:
                    if now > best_total:
                        best_total, best_layer, best_index = now, d, i
                        best_code = out[c, W_CODE]
                    continue
                ct, cp, cpc = out[c, W_TAKEN], out[c, W_POS], out[c, W_PC]
                key, _ = make_key(ct, cp, cpc, out[c, W_RINGS], r + 1, P)
                region = reachable(ct, cp, P[P_IN_AND_OUT])
                live = live_rows(ct, cpc, r + 1, P, RM)
                bound = estimate(region, ct, cp, live, P, VM)
                weighed += 1
                promise = 2 * now + bound  # twice (score so far plus half the bound)
                # The candidate of this key, if any (open addressing, as the table).
                mask = slots.shape[0] - 1
                h = _hash(key)
                s = h & mask
                while slots[s] >= 0 and slot_keys[s] != key:
                    s = (s + 1) & mask
                j = slots[s]
                if j >= 0:
                    if C_promise[j] >= promise:
                        continue
                else:
                    if count == capacity:
                        capacity *= 2
                        grown_promise = np.zeros(capacity, dtype=np.int64)
                        grown_promise[:count] = C_promise[:count]
                        C_promise = grown_promise
                        grown_hash = np.zeros(capacity, dtype=np.int64)
                        grown_hash[:count] = C_hash[:count]
                        C_hash = grown_hash
                        grown_data = np.zeros((capacity, 7), dtype=np.int64)
                        grown_data[:count] = C_data[:count]
                        C_data = grown_data
                        # Rehash into a table twice the new capacity.
                        slots = np.full(2 * capacity, -1, dtype=np.int64)
                        slot_keys = np.zeros(2 * capacity, dtype=np.int64)
                        mask = slots.shape[0] - 1
                        for q in range(count):
                            qk = C_data[q, 6]
                            qs = _hash(qk) & mask
                            while slots[qs] >= 0:
                                qs = (qs + 1) & mask
                            slots[qs] = q
                            slot_keys[qs] = qk
                        s = h & mask
                        while slots[s] >= 0:
                            s = (s + 1) & mask
                    j = count
                    count += 1
                    slots[s] = j
                    slot_keys[s] = key
                C_promise[j] = promise
                C_hash[j] = h
                C_data[j, 0] = ct
                C_data[j, 1] = cp
                C_data[j, 2] = out[c, W_PC]
                C_data[j, 3] = out[c, W_RINGS]
                C_data[j, 4] = now
                C_data[j, 5] = i * 16384 + out[c, W_CODE]
                C_data[j, 6] = key
        if count == 0:
            break
        # Best promise first, ties by the larger hash (a bijection of the key: no two
        # candidates tie on both), the order Python's sort gives.
        by_hash = np.argsort(C_hash[:count])[::-1]
        order = by_hash[np.argsort(-C_promise[:count][by_hash], kind="mergesort")]
        size = min(width, count)
        for q in range(size):
            j = order[q]
            L[q, :] = C_data[j, :5]
            L_parent[d + 1, q] = C_data[j, 5] // 16384
            L_code[d + 1, q] = C_data[j, 5] % 16384
    if best_layer < 0:
        return -1, 0, weighed
    length = best_layer + 1
    line[best_layer] = best_code
    i = best_index
    for d in range(best_layer, 0, -1):
        line[d - 1] = L_code[d, i]
        i = L_parent[d, i]
    return best_total, length, weighed


# --- the Python side ------------------------------------------------------------------


def fits(game: Game) -> bool:
    """Whether a game's keys fit the core's 63-bit table keys."""
    return game.n * game.pass_limit * 4 < 1 << 20


class _Counter:
    """One of a core's counters (`S`), read as an int."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, core: Core, owner: object = None) -> int:
        return int(core.S[self.index])


class Core:
    """The compiled search's arrays for one dice file and ruleset: its parameters, the
    rows' cross-out candidates, the table, the counters and the work array."""

    def __init__(self, game: Game, *, tt_limit: int, symmetry: bool, exact_depth: int) -> None:
        self.game = game
        self.P = np.array(game.P, dtype=np.int64)
        self.P[P_EXACT_DEPTH] = exact_depth
        self.P[P_SYMMETRY] = symmetry
        self.P[P_READ_DICE] = game.read_dice
        n = game.n
        # The rows' candidates as position.py lays them out (at least one row of them).
        self.CF = np.array(game.CF or (0,) * MAX_CROSSES, dtype=np.int64)
        self.CD = np.array(game.CD or (0,) * MAX_CROSSES, dtype=np.int64)
        self.CC = np.array(game.CC or (0,), dtype=np.int64)
        self.RM = np.array(game.row_masks or (0,), dtype=np.int64)
        self.VM = np.array(game.value_masks, dtype=np.int64)
        """The bound's values, `Game.value_masks` (an argument, not a frozen global, so
        that a test can weaken them in a compiled search)."""
        self.tt_limit = tt_limit
        self.max_size = 1 << max(10, (tt_limit * 4 // 3 - 1).bit_length())
        """The table's size at its limit (at most 3/4 full); it starts small and grows
        (`reserve`), which changes only the speed, never the search."""
        self.keys = np.zeros(0, dtype=np.int64)
        self.vals = np.zeros(0, dtype=np.int64)
        self.S = np.zeros(S_SIZE, dtype=np.int64)
        self.reserve(1 << 13)
        # Every ply of a game takes a field or is a pass, and passes are limited.
        # The longest game: every row that is not a pass takes a field or spends a ring
        # (at most 36 + 3 of them), and at most pass_limit passes come between two of
        # them (in a row) or in all (in total). numba does not check bounds: these
        # arrays must hold the deepest search and the longest line.
        plies = min(n, (FIELDS + MAX_RINGS + 1) * (game.pass_limit + 1)) + 2
        self.plies = plies
        self.W = np.zeros((plies, MAX_CHILDREN, W_COLUMNS), dtype=np.int64)
        self.path = np.zeros(plies, dtype=np.int64)
        self.best = np.zeros(plies, dtype=np.int64)

    def reserve(self, entries: int) -> None:
        """Grow the table so that `entries` more keep it at most 3/8 full (short
        probes), up to its size at the limit."""
        wanted = (self.count + max(0, entries)) * 8 // 3
        size = min(self.max_size, 1 << max(10, wanted.bit_length()))
        if size <= self.keys.shape[0]:
            return
        try:
            keys = np.zeros(size, dtype=np.int64)
            vals = np.zeros(size, dtype=np.int64)
        except MemoryError:
            # The machine has less memory free than --memory allows: the table stays at
            # the size it has, and that is now its limit (`full` says when it fills).
            if not self.keys.shape[0]:
                raise  # not even the first small table
            self.max_size = self.keys.shape[0]
            self.tt_limit = min(self.tt_limit, self.max_size * 3 // 4)
            self.S[S_TT_LIMIT] = min(self.S[S_TT_LIMIT], self.tt_limit)
            return
        if self.keys.shape[0]:
            rehash(self.keys, self.vals, keys, vals)
        self.keys, self.vals = keys, vals
        self.S[S_TT_LIMIT] = min(self.tt_limit, size * 3 // 4)

    count = _Counter(S_TT_COUNT)
    """Entries in the table."""
    nodes = _Counter(S_NODES)
    root_upper = _Counter(S_ROOT_UPPER)
    best_total = _Counter(S_BEST)
    stopped_at = _Counter(S_STOPPED_AT)
    """The `nodes` count at which the last `dfs` saw it must stop (0: it did not)."""
    settled = _Counter(S_SETTLED)
    choices = _Counter(S_CHOICES)

    @property
    def full(self) -> bool:
        """Whether the table holds as many entries as it may (`tt_limit`): from then on
        it overwrites upper bounds, and the search depends on its size."""
        return self.count >= self.tt_limit

    def load(self, table: dict[int, int]) -> None:
        """Take over the entries of the pure-Python search's table."""
        self.reserve(len(table))
        if table:
            load(
                self.keys,
                self.vals,
                self.S,
                np.fromiter(table.keys(), dtype=np.int64, count=len(table)),
                np.fromiter(table.values(), dtype=np.int64, count=len(table)),
            )

    def copy_from(self, other: Core) -> None:
        """Take over every entry of another core's table, when they fit below this one's
        limit (else none: part of them could keep an exact value without the best child
        its line is read from). A split search's thread starts from what the search
        learnt before."""
        if other.count > self.tt_limit:
            return  # (Search.start_split decides before)
        used = other.keys != _EMPTY
        self.reserve(other.count)
        if other.count > self.tt_limit:  # reserve met a MemoryError and lowered it
            return
        if other.count:
            # `load` takes keys as the pure-Python table has them, without the one added.
            load(self.keys, self.vals, self.S, other.keys[used] - 1, other.vals[used])

    def clear(self) -> None:
        """Empty the table, back to its smallest size."""
        self.keys = np.zeros(0, dtype=np.int64)
        self.vals = np.zeros(0, dtype=np.int64)
        self.S[S_TT_COUNT] = 0
        self.reserve(1 << 13)

    def key(self, position: tuple[int, int, int, int, int]) -> int:
        taken, pos, pc, rings, row = position
        return int(make_key(taken, pos, pc, rings, row, self.P)[0])

    def entry(self, position: tuple[int, int, int, int, int]) -> int | None:
        found = int(lookup(self.keys, self.vals, self.key(position)))
        return None if found < 0 else found

    def dfs(
        self,
        position: tuple[int, int, int, int, int],
        base: int,
        ub: int,
        best_total: int,
        root_upper: int,
        *,
        node_limit: int | None,
        should_stop: Callable[[], bool],
        poll: float = 0.02,
        prefix: Sequence[int] = (),
        aim: int = -1,
    ) -> tuple[int, bool, bool]:
        """One search from `position` in a thread that releases the GIL, while this
        thread asks `should_stop` every `poll` seconds and stops the search when it says
        so (or on KeyboardInterrupt). The search stops by itself at the first position
        past `node_limit` (this core's `nodes` count; None: the limit `set_node_limit`
        gave, which another thread may lower while it runs). `prefix` is the line from
        the search's root to `position` (its depth: a share of the root's choices starts
        at depth 1), and `aim` the total an aimed round cuts at (`Search.aim`). Returns
        (value, exact, stopped); a better game is then `best_total` and `line()`, from
        the root."""
        S = self.S
        if node_limit is not None:
            S[S_NODE_LIMIT] = node_limit
        # A position stores at most one entry.
        self.reserve(min(int(S[S_NODE_LIMIT]) - self.nodes, self.max_size))
        S[S_BEST] = best_total
        S[S_AIM] = aim
        S[S_ROOT_UPPER] = root_upper
        S[S_STOP] = 0
        S[S_STOPPED_AT] = 0
        S[S_LINE_LEN] = -1
        answer: list[tuple[int, bool]] = []
        taken, pos, pc, rings, row = position
        depth = len(prefix)
        self.path[:depth] = prefix

        def work() -> None:
            answer.append(
                dfs(
                    taken, pos, pc, rings, row, base, ub, depth, self.P, self.CF, self.CD,
                    self.CC, self.VM, self.RM, self.keys, self.vals, S, self.path, self.best,
                    self.W,
                )
            )  # fmt: skip

        worker = threading.Thread(target=work, name="road300-solver", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(poll)
                if worker.is_alive() and should_stop():
                    S[S_STOP] = 1
        finally:
            if worker.is_alive():
                S[S_STOP] = 1
                worker.join()
        value, exact = answer[0]
        return int(value), bool(exact), bool(S[S_STOP])

    def set_node_limit(self, limit: int) -> None:
        """The first position past which `dfs` (started with `node_limit=None`) stops,
        in this core's `nodes` count; the search reads it at every position."""
        self.S[S_NODE_LIMIT] = limit

    def beam(
        self, position: tuple[int, int, int, int, int], base: int, width: int
    ) -> tuple[int, list[int], int]:
        """`Search.beam` compiled: (best total, its line, positions weighed), or (-1, [],
        weighed) if no game ends."""
        line = np.zeros(self.plies, dtype=np.int64)
        taken, pos, pc, rings, row = position
        # The beam keeps (parent, code) for every ply: at most 64 MB of them.
        width = max(1, min(width, (64 << 20) // (16 * self.plies)))
        total, length, weighed = beam(
            taken, pos, pc, rings, row, base, width, self.P, self.CF, self.CD, self.CC,
            self.VM, self.RM, line,
        )  # fmt: skip
        return int(total), [int(c) for c in line[:length]], int(weighed)

    def line(self) -> list[int] | None:
        """The better game the last `dfs` found, as action codes from its root."""
        if self.S[S_LINE_LEN] < 0:
            return None
        return [int(c) for c in self.best[: self.S[S_LINE_LEN]]]


class Warmup:
    """numba compiling the core in another process (`python -m validator.solver.core`),
    once per process and only when its on-disk cache is cold, so that the pure-Python
    search goes on at full speed meanwhile (a first compilation takes several seconds)."""

    process: subprocess.Popen[bytes] | None = None
    failed = False

    @classmethod
    def state(cls) -> Literal["running", "done", "failed"]:
        if cls.failed:
            return "failed"
        if cls.process is None:
            # Run from the folder that holds this package, so that `-m` finds this
            # `validator` and not one in the caller's working directory.
            package_root = Path(__file__).resolve().parent.parent.parent
            try:
                cls.process = subprocess.Popen(
                    [sys.executable, "-m", "validator.solver.core"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    cwd=package_root,
                )
            except OSError:
                cls.failed = True
                return "failed"
        code = cls.process.poll()
        if code is None:
            return "running"
        if code != 0 or not cache_ready():
            cls.failed = True
            return "failed"
        return "done"


def warm_up() -> float:
    """Compile (or load from the on-disk cache) every function called from Python;
    returns the seconds it took."""
    from validator.engine import STANDARD

    started = time.monotonic()
    game = Game([(1, 2, 3), (4, 5, 6)], STANDARD)
    core = Core(game, tt_limit=1 << 16, symmetry=True, exact_depth=6)
    core.load({(1 << 60) + 1: 3})  # a key no position of two rows has
    root = (0, NOWHERE, 0, 0, 0)
    core.dfs(root, 0, 1000, -1, 1000, node_limit=1 << 62, should_stop=lambda: False)
    core.entry(root)
    core.beam(root, 0, 4)
    core.reserve(core.max_size)  # rehash
    return time.monotonic() - started


_ENTRY_POINTS = (dfs, beam, table_line, lookup, make_key, load, rehash)


def cache_ready() -> bool:
    """Whether numba's on-disk cache holds machine code for this source of every entry
    point, so that the first calls load it (a tenth of a second) instead of compiling
    (several seconds). Reads numba's cache index, not a public API: any surprise there
    answers False, which only costs a compilation in another process."""
    try:
        return all(
            bool(function._cache._cache_file._load_index())  # type: ignore[union-attr]
            for function in _ENTRY_POINTS
        )
    except Exception:  # numba internals: False is always safe
        return False


if __name__ == "__main__":
    # `python -m validator.solver.core`: fill the on-disk cache (search.Warmup runs this).
    print(f"compiled in {warm_up():.1f} s")
