"""Third-party Triton kernel libraries, imported unchanged, and the launches their wrappers make.

One module per library: `PACKAGE` (its distribution name) and `launches(recorder)`, which calls the
library's own Python entry points on small CPU tensors under `capture.capturing` and `fake_xpu.pvc_device`.
"""

from __future__ import annotations

LIBS = ("liger", "flag_gems", "gemlite", "fla")  # the order of a run: fla (slowest to compile) last
