"""The test suite compiles strict: a failure of our plugin is an error, not a quiet native fallback.

Set before any test imports the plugin, and inherited by the interpreters tests start.
Tests of the default (fallback) behaviour pass `strict=False` explicitly.
"""

import os

os.environ["XPU_PASSES_STRICT"] = "1"
