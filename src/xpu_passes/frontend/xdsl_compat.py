"""Fixes to xDSL's reading of MLIR text, applied once when the front end is imported.

The only monkeypatches of xDSL in the project:
- xDSL 0.74 reads a hexadecimal element of a float `dense<...>` literal
  (`dense<0xFF800000> : tensor<64xf32>`, how MLIR prints -inf) as an integer and
  converts its value, giving 4.29e9 instead of -inf. MLIR reads the bit pattern.
- Its string-literal regex nests quantifiers (`(?:[^"]+|...)*`), so an unterminated
  string (a truncated file) backtracks exponentially: the lexer hangs. The same
  language without the nesting matches in linear time.
"""

from __future__ import annotations

import re
import struct
from typing import Any

from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.parser import AttrParser
from xdsl.utils.mlir_lexer import MLIRLexer

_FORMATS: dict[type, tuple[str, int]] = {Float16Type: ("<e", 2), Float32Type: ("<f", 4), Float64Type: ("<d", 8)}

_Element = AttrParser._TensorLiteralElement  # type: ignore[attr-defined]
_original_to_type = _Element.to_type


def _bits_to_float(bits: int, type: AnyFloat) -> float | None:
    if isinstance(type, BFloat16Type):
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0]
    fmt = _FORMATS.get(type.__class__)
    if fmt is None:
        return None
    return struct.unpack(fmt[0], bits.to_bytes(fmt[1], "little"))[0]


def _to_type(self: Any, parser: AttrParser, type: Any) -> Any:
    if isinstance(type, AnyFloat) and self.span.text.lower().startswith("0x") and isinstance(self.value, int):
        value = _bits_to_float(self.value, type)
        if value is not None:
            return value
    return _original_to_type(self, parser, type)


_Element.to_type = _to_type

MLIRLexer._unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')
