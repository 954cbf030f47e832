"""Import path kept for users: `xpu_passes.pipeline` is `xpu_passes.integration.pipeline` (the same
module object)."""

import sys

from xpu_passes.integration import pipeline as _pipeline

sys.modules[__name__] = _pipeline
