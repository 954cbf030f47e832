"""A PVC device for libraries that ask torch or triton which GPU they run on, with none present.

Inside `pvc_device()`: triton's active driver answers as triton-xpu's would for one tile of a
Data Center GPU Max 1550 (target, device 0, its properties) and `torch.xpu` says an XPU is there
(name, properties, device count, device contexts as no-ops), so that libraries choose their XPU
branches (block sizes, warps, grf mode) at import and at launch. Tensors stay on the CPU; launches
are captured (capture.py), never run. Everything is restored on exit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

NAME = "Intel(R) Data Center GPU Max 1550"
# One tile of PVC 1550: 64 Xe cores of 8 EUs, 128 KB of SLM per work-group, sub-groups of 16/32.
PROPERTIES = dict(
    max_shared_mem=128 * 1024, multiprocessor_count=512, max_num_sub_groups=64, sub_group_sizes=[16, 32],
    max_work_group_size=1024, has_fp64=True, has_subgroup_matrix_multiply_accumulate=True,
    has_subgroup_matrix_multiply_accumulate_tensor_float32=False, has_subgroup_2d_block_io=True,
    max_clock_rate=1600, max_mem_bus_width=4096, device_arch="pvc",
)
TORCH_PROPERTIES = SimpleNamespace(
    name=NAME, platform_name="Intel(R) oneAPI Unified Runtime over Level-Zero", type="gpu",
    total_memory=64 * 2**30, max_compute_units=512, multi_processor_count=64, gpu_eu_count=512, gpu_subslice_count=64,
    max_work_group_size=1024, max_num_sub_groups=64, sub_group_sizes=[16, 32], has_fp16=True,
    has_fp64=True, has_atomic64=True, driver_version="1.3", version="12.60.7",
)


class FakeDriver:
    """The parts of triton-xpu's XPUDriver that libraries read outside a launch."""

    def __init__(self) -> None:
        from xpu_passes.integration import oracle

        self._target = oracle.pvc_target()
        self.utils = SimpleNamespace(get_device_properties=lambda device=0: dict(PROPERTIES))

    def get_current_target(self) -> Any:
        return self._target

    def get_current_device(self) -> int:
        return 0

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    def get_active_torch_device(self) -> Any:
        import torch

        return torch.device("cpu")

    def get_device_interface(self) -> Any:
        import torch

        return torch.xpu

    def is_active(self) -> bool:
        return True

    def get_benchmarker(self) -> Any:
        return lambda fn, quantiles=None, **kw: [0.0, 0.0, 0.0] if quantiles else 0.0

    def get_empty_cache_for_benchmark(self) -> Any:
        import torch

        return torch.empty(0)


@contextlib.contextmanager
def pvc_device() -> Iterator[FakeDriver]:
    import torch
    from triton.runtime import driver

    fake = FakeDriver()
    xpu = torch.xpu
    patches: dict[str, Any] = dict(
        is_available=lambda: True, device_count=lambda: 1, current_device=lambda: 0,
        get_device_name=lambda device=None: NAME, get_device_properties=lambda device=None: TORCH_PROPERTIES,
        get_device_capability=lambda device=None: {"architecture": 0}, set_device=lambda device: None,
        synchronize=lambda device=None: None, device=lambda device=None: contextlib.nullcontext(),
        is_bf16_supported=lambda *a, **k: True,
    )
    saved = {k: getattr(xpu, k) for k in patches if hasattr(xpu, k)}
    saved_active = driver.active
    for k, v in patches.items():
        setattr(xpu, k, v)
    driver.set_active(fake)
    try:
        yield fake
    finally:
        driver.active = saved_active
        for k in patches:
            if k in saved:
                setattr(xpu, k, saved[k])
            else:
                delattr(xpu, k)
