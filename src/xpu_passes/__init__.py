"""xpu-passes: MLIR passes over Triton GPU IR for Intel GPUs, hosted on xDSL."""

__version__ = "0.1.0"
