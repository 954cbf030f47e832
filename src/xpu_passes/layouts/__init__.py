"""Layout algebra: layouts as linear maps, placement equality, convert_layout SLM scratch.

`to_linear(layout, shape)` turns a TTGIR layout attribute into a `LinearLayout`
(register, lane, warp -> tensor coordinates); the queries below are built on it.
`propagation` (how layouts flow through ops) lives beside it.
"""

from xpu_passes.layouts.encodings import LayoutError, elems_per_thread, from_linear, same_placement, to_linear
from xpu_passes.layouts.linear import LinearLayout
from xpu_passes.layouts.scratch import convert_scratch_bytes, module_scratch_bytes, needs_slm

__all__ = [
    "LayoutError",
    "LinearLayout",
    "convert_scratch_bytes",
    "elems_per_thread",
    "from_linear",
    "module_scratch_bytes",
    "needs_slm",
    "same_placement",
    "to_linear",
]
