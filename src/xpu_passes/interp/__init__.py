"""A reference interpreter of TTIR/TTGIR on NumPy, and translation validation on it.

`run_kernel(module, args, grid)` runs a kernel over a launch grid on NumPy
buffers (Triton's semantics for masks, block pointers, `tt.dot`, reductions and
`scf` control flow; layouts ignored). `validate(before, after, inputs)` runs two
versions of a kernel on the same inputs and reports the first differing element.
"""

from xpu_passes.interp import ops_arith as _ops_arith  # noqa: F401  (each registers its ops' handlers)
from xpu_passes.interp import ops_cast as _ops_cast  # noqa: F401
from xpu_passes.interp import ops_tensor as _ops_tensor  # noqa: F401
from xpu_passes.interp import atomics as _atomics  # noqa: F401
from xpu_passes.interp.core import InterpError, Interpreter, pick_function, run_kernel
from xpu_passes.interp.types import round_bf16
from xpu_passes.interp.validate import Inputs, Mismatch, Result, random_inputs, validate, validate_spec

__all__ = [
    "InterpError",
    "Inputs",
    "Interpreter",
    "Mismatch",
    "Result",
    "pick_function",
    "random_inputs",
    "round_bf16",
    "run_kernel",
    "validate",
    "validate_spec",
]
