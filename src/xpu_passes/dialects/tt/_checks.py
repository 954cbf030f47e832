"""Verifier helpers shared by the `tt` op modules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects.builtin import IntAttr, TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from xpu_passes.dialects.traits import EmitError, encoding
from xpu_passes.dialects.tt.types import PointerType


def _check(cond: bool, message: str | Callable[[], str], plain: bool = False) -> None:
    # A callable message is only formatted on failure: printing types is slow. `plain`: triton
    # emits this one with emitError (no op prefix).
    if not cond:
        raise (EmitError if plain else VerifyException)(message if isinstance(message, str) else message())


def _numel(t: TensorType) -> int:
    n = 1
    for d in t.get_shape():
        n *= d
    return n


def _inferred(shape: Sequence[int], elem: Attribute, src_enc: Attribute | None, out: Attribute | None,
              result: Attribute) -> Attribute:
    """The inferred result type; where the layout cannot be inferred here, the result's own."""
    if src_enc is None:
        return TensorType(elem, shape)
    if out is None:
        enc = encoding(result)
        return TensorType(elem, shape, enc) if enc is not None else TensorType(elem, shape)
    return TensorType(elem, shape, out)


def _bits(t: Attribute) -> int:
    if isinstance(t, PointerType):
        return 64
    width = getattr(t, "width", None)
    return width.data if isinstance(width, IntAttr) else cast(int, getattr(t, "bitwidth", 0))
