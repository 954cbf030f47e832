"""Our passes inside the real Intel Triton compile: the plugin, pipelines mixing native and our
passes, the text round trip into triton's module, triton-xpu's native passes and the oracle."""
