"""What torch.compile writes for a GPU: Triton kernels of its own, and calls into cuBLAS.

Inductor, torch.compile's default backend, turns the captured graph into Python source code
and kernels. For a CUDA device it writes its kernels in Triton, a Python-embedded language
for GPU kernels that Triton compiles to machine code for the GPU; matrix products it leaves,
by default, to the vendor library that eager mode already calls. `run_and_get_code` (from
`torch._inductor.utils`) runs a compiled function and returns the source code Inductor wrote.
"""

import os
import shutil
import sysconfig

import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.cuda, pytest.mark.slow]

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "that torch.compile writes Triton kernels for the GPU and calls cuBLAS for products",
        allow_module_level=True,
    )


def triton_can_build_its_c_helpers():
    """Triton builds small C extensions of its own (at least its CUDA driver helpers) with the
    system's C compiler and Python's headers, the first time it runs."""
    compiler = os.environ.get("CC") or shutil.which("gcc") or shutil.which("clang")
    scheme = sysconfig.get_default_scheme()
    scheme = "posix_prefix" if scheme == "posix_local" else scheme
    headers = os.path.join(sysconfig.get_paths(scheme=scheme)["include"], "Python.h")
    return compiler is not None and os.path.exists(headers)


def test_inductor_writes_its_own_kernels_and_leaves_the_product_to_the_library():
    """`torch.relu(x @ w) * 2` is a matrix product followed by two elementwise steps. Inductor
    fuses the elementwise steps into one kernel of its own, written in Triton and marked with
    Triton's decorator, and calls the library for the product through its table of external
    kernels. Which of the three markers appear in the code it wrote?"""
    if not triton_can_build_its_c_helpers():
        pytest.skip("Triton needs a C compiler (gcc, clang or $CC) and Python's headers "
                    "(Python.h) to build its C helpers, and one of them is missing here")
    from torch._inductor.utils import run_and_get_code

    def step(x, w):
        return torch.relu(x @ w) * 2

    x, w = torch.randn(256, 256, device="cuda"), torch.randn(256, 256, device="cuda")
    with torch._inductor.config.patch(compile_threads=1):
        _, sources = run_and_get_code(torch.compile(step), x, w)
    code = "\n".join(sources)
    markers = ("@triton.jit", "cpp_fused", "extern_kernels.mm")
    assert [marker for marker in markers if marker in code] == ["@triton.jit", "extern_kernels.mm"]  # one Triton kernel, one call to cuBLAS; no C++ kernel on a GPU
