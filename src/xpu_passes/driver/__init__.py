"""`xpu-opt`, the triton-opt-style driver: command line, input chunks, native segments,
`-verify-diagnostics` and its start-up cache."""
