"""What the plain step runs of a sweep, and what it leaves to the slow step.

The plain `python -m pytest` checks every behaviour once and quickly (the goal is under 20 s
on two cores); `python -m pytest -m slow` runs the rest of each sweep: the other rulesets of a
search, the other formats of a golden, a property test's many examples. The README's test
command and CI run both steps, so nothing here is left untested: it is only tested later.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import pytest
from _pytest.mark import ParameterSet
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import SearchStrategy

T = TypeVar("T")


def sweep(
    values: Iterable[T],
    *,
    plain: int | Callable[[T], bool] = 1,
    ids: Callable[[T], str] | None = None,
    unpack: bool = False,
) -> list[ParameterSet]:
    """`values` as parameters: the first `plain` (or those `plain` accepts) in the plain
    step, the rest in the slow one; `unpack` spreads each tuple over several argnames."""
    params: list[ParameterSet] = []
    for i, value in enumerate(values):
        quick = plain(value) if callable(plain) else i < plain
        marks: Any = () if quick else pytest.mark.slow
        args: tuple[Any, ...] = tuple(value) if unpack else (value,)  # type: ignore[arg-type]
        params.append(pytest.param(*args, id=None if ids is None else ids(value), marks=marks))
    return params


def examples(plain: int, thorough: int) -> list[ParameterSet]:
    """A property test's number of examples: `plain` in the plain step, `thorough` in the
    slow one (the test builds its `@given` inside with `max_examples` set to it)."""
    return [
        pytest.param(plain, id="plain"),
        pytest.param(thorough, id="thorough", marks=pytest.mark.slow),
    ]


def given_tiered(
    *, plain: int, thorough: int, **strategies: SearchStrategy[Any]
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """`@given(**strategies)` run twice: with `plain` examples in the plain step and with
    `thorough` in the slow one (instead of `@settings(max_examples=...)` and `@given`).
    The test's other arguments (parametrize, fixtures) pass through to it."""

    tiers = examples(plain, thorough)

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(test)
        rest = [p for name, p in signature.parameters.items() if name not in strategies]

        def run(examples: int, **kwargs: Any) -> None:
            check = settings(
                max_examples=examples,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
            )(given(**strategies)(test))
            check(**kwargs)

        run.__name__, run.__qualname__ = test.__name__, test.__qualname__
        run.__doc__, run.__module__ = test.__doc__, test.__module__
        examples_arg = inspect.Parameter("examples", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        run.__signature__ = signature.replace(parameters=[examples_arg, *rest])  # type: ignore[attr-defined]
        marked: Callable[..., None] = pytest.mark.parametrize("examples", tiers)(run)
        return marked

    return decorate


def covering(
    cases: Iterable[tuple[Any, ...]],
    variants: Iterable[Any],
    *,
    ids: Callable[[tuple[Any, ...], Any], str] | None = None,
) -> list[ParameterSet]:
    """Every case with every variant (a format, a language), as `(*case, variant)`: in the
    plain step each case once, with the variants taken in turn (so every case and every
    variant are checked there), and every other pair in the slow one."""
    chosen = list(variants)
    params: list[ParameterSet] = []
    for i, case in enumerate(cases):
        for j, variant in enumerate(chosen):
            marks: Any = () if j == i % len(chosen) else pytest.mark.slow
            name = None if ids is None else ids(case, variant)
            params.append(pytest.param(*case, variant, id=name, marks=marks))
    return params
