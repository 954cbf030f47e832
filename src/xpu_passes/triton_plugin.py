"""Import path kept for users: `xpu_passes.triton_plugin` is `xpu_passes.integration.plugin` (the
same module object, so its state and functions are one)."""

import sys

from xpu_passes.integration import plugin as _plugin

sys.modules[__name__] = _plugin
