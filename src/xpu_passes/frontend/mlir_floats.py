"""Float literals as MLIR prints them (AsmPrinter's printFloatValue over APFloat::toString).

1. Six significant digits in exponent form (`1.000000e+00`, `-2.500000e-01`) if that
   reads back to the same value of the type.
2. Else APFloat's default form: the type's natural number of significant digits
   (bf16 4, f16 5, f32 9, f64 17), trailing zeros dropped, plain unless the exponent is
   far from the digits (`0.0883883476`, `9.99999974E-6`), if it has a `.`.
3. Else (and for inf/nan) the bits in hexadecimal: `0x7FC00000`.
APFloat makes its digits from the exact binary value, first dropping whole powers of
ten by truncation, then rounding half up on the next digit; Python's formatting rounds
correctly, which differs in the last digit (`9.997550e-02` for the f16 nearest 0.1).
xDSL's printer uses Python's formatting, and `%g` in case 2.
"""

from __future__ import annotations

import math
from typing import Any

_NATURAL_DIGITS = {"bf16": 4, "f16": 5, "f32": 9, "f64": 17}  # 2 + precision * 59 / 196


def _digits(value: float, precision: int) -> tuple[str, int]:
    """APFloat's decimal digits of |value| (most significant first) and the power of ten
    of the last one, for `precision` significant digits (toStringImpl, AdjustToPrecision)."""
    num, den = abs(value).as_integer_ratio()
    exp = -(den.bit_length() - 1)  # an integer has exp 0 (APFloat shifts it back)
    num *= 5**-exp  # N * 2^-e == N * 5^e * 10^-e
    bits, required = num.bit_length(), (precision * 196 + 58) // 59
    if bits > required and (tens := (bits - required) * 59 // 196):
        exp += tens
        num //= 10**tens  # truncation, as APFloat divides
    text = str(num)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    if len(stripped) > precision:
        cut = len(stripped) - precision
        exp += cut
        kept = stripped[:precision]
        if stripped[precision] >= "5":  # round half up
            kept = str(int(kept) + 1)
            if len(kept) > precision:  # carried through: 99.. -> 1
                return "1", exp + precision
        stripped = kept.rstrip("0")
        exp += len(kept) - len(stripped)
    return stripped, exp


def _exponent_form(sign: str, digits: str, exp: int, decimals: int | None) -> str:
    e = exp + len(digits) - 1
    if decimals is None:  # TruncateZero: `1.5E+10`, `1.0E-7`
        return f"{sign}{digits[0]}.{digits[1:] or '0'}E{'+' if e >= 0 else '-'}{abs(e)}"
    frac = digits[1:].ljust(decimals, "0")
    return f"{sign}{digits[0]}.{frac}e{'+' if e >= 0 else '-'}{abs(e):02d}"


def _default_form(sign: str, digits: str, exp: int, precision: int, padding: int = 3) -> str:
    n = len(digits)
    if exp >= 0:
        scientific = exp > padding or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > padding
    if scientific:
        return _exponent_form(sign, digits, exp, None)
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"


def _reads_back(text: str, value: float, type: Any) -> bool:
    try:
        return type.pack((float(text),)) == type.pack((value,))
    except (OverflowError, ValueError):
        return False


def float_text(value: float, type: Any) -> str:
    """The literal MLIR prints for `value` of float type `type`."""
    if not (math.isnan(value) or math.isinf(value)):
        sign = "-" if math.copysign(1.0, value) < 0 else ""
        if value == 0:
            return f"{sign}0.000000e+00"
        text = _exponent_form(sign, *_digits(value, 6), decimals=6)
        if _reads_back(text, value, type):
            return text
        precision = _NATURAL_DIGITS.get(getattr(type, "name", ""))
        if precision is not None:
            text = _default_form(sign, *_digits(value, precision), precision)
            if "." in text:
                return text
    return "0x" + type.pack((value,))[::-1].hex().upper()
