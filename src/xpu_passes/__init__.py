"""xpu-passes: MLIR passes over Triton GPU IR for Intel GPUs, hosted on xDSL."""

from xpu_passes.registry import register_pass

__version__ = "0.1.0"

__all__ = ["__version__", "register_pass"]
