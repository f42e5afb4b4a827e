"""The test run's own machinery (tests/conftest.py): each xdist worker rewrites and caches
its share of the test modules before collecting; plain tests search in pure Python."""

from __future__ import annotations

import marshal
import os
import types
from pathlib import Path

import pytest
from conftest import rewrite_modules


def _names(code: types.CodeType) -> set[str]:
    found = {*code.co_names, *code.co_varnames}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def test_rewriting_ahead_caches_rewritten_asserts_and_leaves_a_broken_module_to_collecting(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    """A module that does not compile stops the rewriting without an error (collecting then
    reports it, naming the file; raised here, it was an INTERNALERROR of the worker), and a
    module before it is cached with its asserts rewritten."""
    good = tmp_path / "test_a.py"
    good.write_text("def test_one() -> None:\n    x = 1\n    assert x == 2\n")
    broken = tmp_path / "test_b.py"
    broken.write_text("def broken(:\n")
    rewrite_modules(pytestconfig, [good, broken])
    (pyc,) = (tmp_path / "__pycache__").glob("test_a.*pytest*.pyc")
    assert any(n.startswith("@py_assert") for n in _names(marshal.loads(pyc.read_bytes()[16:])))
    assert [p.name for p in (tmp_path / "__pycache__").iterdir()] == [pyc.name]


def test_a_pytest_without_these_internals_leaves_the_rewriting_to_collecting(
    tmp_path: Path, pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rewriting ahead uses pytest's private functions: where a later pytest moved one,
    nothing is cached ahead and nothing fails (collecting rewrites as it always does)."""
    from _pytest.assertion import rewrite

    monkeypatch.delattr(rewrite, "_rewrite_test")
    module = tmp_path / "test_a.py"
    module.write_text("def test_one() -> None:\n    assert 1\n")
    rewrite_modules(pytestconfig, [module])
    assert not (tmp_path / "__pycache__").exists()


def test_a_plain_test_searches_in_pure_python() -> None:
    """conftest.py names the solver's switch without importing it: the name is the
    solver's, so no plain test loads numba or compiles the core."""
    from validator.solver import search

    assert os.environ.get(search.CORE_ENV) == "python"
