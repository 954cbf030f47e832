"""corpus/stress.py: which failures of triton's front end are made again (CPython's ast.parse race)."""

from __future__ import annotations

import pytest

from xpu_passes.corpus import stress

RACE = "AST constructor recursion depth mismatch (before=36, after=31)"


def _raised(error: BaseException, wrapped_in: type[Exception] | None) -> BaseException:
    try:
        try:
            raise error
        except BaseException as e:
            if wrapped_in is None:
                raise
            raise wrapped_in("at 5:12: x = x - tl.max(x, axis=0)") from e
    except BaseException as e:  # noqa: BLE001 (returned)
        return e


@pytest.mark.parametrize("wrapped_in", [None, RuntimeError])
def test_the_ast_race_is_recognized_also_inside_a_compilation_error(wrapped_in: type[Exception] | None) -> None:
    """Seen in threads (CPython 3.11.7): triton's code generator wraps the SystemError a nested JIT
    function's parse raised in a CompilationError, which was not made again."""
    assert stress._ast_race(_raised(SystemError(RACE), wrapped_in))


@pytest.mark.parametrize("error", [SystemError("another"), ValueError(RACE), AttributeError("'NoneType'")])
def test_other_failures_are_not_the_race(error: Exception) -> None:
    assert not stress._ast_race(_raised(error, RuntimeError)) and not stress._ast_race(error)
