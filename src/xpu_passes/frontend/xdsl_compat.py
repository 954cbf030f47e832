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


# xDSL's declarative `attr-dict` prints discardable attributes, then properties; MLIR
# prints them as one dictionary sorted by name, as our hand-written ops do
# (`dialects._syntax.print_attr_dict`). The upstream method with the merge sorted.
from xdsl.irdl.declarative_assembly_format import AttrDictDirective  # noqa: E402


def _print_sorted_attr_dict(self: Any, printer: Any, state: Any, op: Any) -> None:
    props = {k: v for k, v in op.properties.items() if k in self.expected_properties}
    if not op.attributes.keys().isdisjoint(props):
        raise ValueError("Cannot print attributes and properties with the same name in a single dictionary")
    op_def = op.get_irdl_definition()
    dictionary = dict(sorted((op.attributes | props).items()))
    defs = {x: op_def.properties[x] for x in self.expected_properties} | op_def.attributes
    skip = self.reserved_attr_names.union(
        n for n, d in defs.items() if d.default_value is not None and dictionary.get(n) == d.default_value
    )
    if printer.print_op_attributes(dictionary, reserved_attr_names=skip, print_keyword=self.with_keyword):
        state.last_was_punctuation = False
        state.should_emit_space = True


AttrDictDirective.print = _print_sorted_attr_dict  # type: ignore[method-assign]
