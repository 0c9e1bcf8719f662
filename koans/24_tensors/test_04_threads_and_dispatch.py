"""Every PyTorch operation is one call from Python into ATen, PyTorch's C++ tensor library, which
dispatches on device and dtype to a kernel: its own vectorised loops, or a library PyTorch was
built with, such as MKL for matrix products. Large kernels are split over an intra-op thread
pool. A `torch.device` is only a name until a tensor is put there."""

import os
import platform
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="the tensor koans need PyTorch (pip install torch)")
F = torch.nn.functional

x86_wheel = pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64")
    or not (torch.backends.mkl.is_available() and torch.backends.openmp.is_available()),
    reason="the x86-64 wheels of PyTorch are built with MKL, oneDNN and OpenMP; this build is "
    "not (macOS and ARM wheels use other BLAS libraries and thread pools)",
)


def aten_calls(func):
    """Run func under the autograd profiler; return {ATen operator name: number of calls}."""
    with torch.autograd.profiler.profile() as prof:
        func()
    return {event.key: event.count for event in prof.key_averages()}


def build_settings():
    """The "Build settings" line of `torch.__config__.show()`, as {name: value}."""
    line = next(row for row in torch.__config__.show().splitlines() if "Build settings:" in row)
    items = line.split("Build settings:", 1)[1].split(",")
    return dict(item.strip().split("=", 1) for item in items if "=" in item)


def parallel_info():
    """`torch.__config__.parallel_info()` as {setting: value}, numbers read as ints."""
    info = {}
    for row in torch.__config__.parallel_info().splitlines():
        name, sep, value = row.strip().rpartition(" : ")
        if not sep:
            name, sep, value = row.strip().partition(": ")
        if sep:
            value = value.strip()
            info[name.strip()] = int(value) if value.isdigit() else value
    return info


@x86_wheel
def test_torch_names_the_libraries_it_was_built_with():
    """`torch.__config__.show()` reports how this PyTorch was built. Its "Build settings" line
    names the library behind BLAS (matrix products: `aten::mm` ends in a call such as
    `sgemm`), and says whether oneDNN (formerly MKL-DNN: convolutions and fused CPU kernels)
    and OpenMP (the thread pool) were compiled in. The x86-64 wheels are built for Intel and
    AMD CPUs alike, with Intel's math libraries."""
    settings = build_settings()
    built = (
        settings["BLAS_INFO"],
        settings["USE_MKLDNN"] in ("ON", "1"),
        settings["USE_OPENMP"] in ("ON", "1"),
    )
    assert built == __


@x86_wheel
def test_what_set_num_threads_sets():
    """One large operation (a matmul, a big elementwise kernel) may be split across the threads
    of ATen's intra-op pool, whose size `torch.set_num_threads` sets. ATen hands much of its
    work to libraries that keep thread counts of their own. `parallel_info()` reports which
    parallel backend ATen was built with, and what each library's thread count now is."""
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(3)
        info = parallel_info()
    finally:
        torch.set_num_threads(before)
    reported = (
        info["ATen parallel backend"],
        info["omp_get_max_threads()"],
        info["mkl_get_max_threads()"],
    )
    assert reported == __


def test_an_operator_on_tensors_dispatches_to_a_named_aten_operator():
    """`a + b` calls `Tensor.__add__`, which crosses into C++ and dispatches to ATen's addition
    operator. The profiler records each ATen operator by its namespaced name, with how often it
    ran."""
    a, b = torch.ones(4), torch.ones(4)
    assert aten_calls(lambda: a + b) == __


def test_an_aten_kernel_loops_over_the_elements_itself():
    """The dispatcher picks a kernel once per call, and the kernel then runs the loop over the
    elements in C++, vectorised and possibly on several threads. Count the multiplication
    operator's calls for tensors of three sizes."""
    tensors = [torch.ones(n) for n in (10, 1000, 10**6)]
    assert [aten_calls(lambda t=t: t * t)["aten::mul"] for t in tensors] == __


def test_a_python_loop_over_tensors_goes_through_the_dispatcher():
    """Iterating over a tensor asks ATen to `unbind` it into 0-d views, one `select` for each
    element; each `*` between two 0-d tensors is then a full trip through the dispatcher.
    Count the calls of each operator for the loop below."""
    x, y = torch.ones(50), torch.ones(50)
    calls = aten_calls(lambda: [a * b for a, b in zip(x, y, strict=True)])
    counts = (calls["aten::unbind"], calls["aten::select"], calls["aten::mul"])
    assert counts == __


def test_matmul_picks_a_kernel_by_the_dimensions_of_its_operands():
    """`@` dispatches to ATen's matmul, a composite operator that looks at the operands'
    dimensions and calls the matching BLAS-shaped operator: matrix times matrix, matrix times
    vector, or vector times vector (an inner product)."""
    m, v = torch.ones(3, 3), torch.ones(3)
    kernels = {"aten::mm", "aten::mv", "aten::dot", "aten::bmm"}
    chosen = [
        next(op for op in aten_calls(product) if op in kernels)
        for product in (lambda: m @ m, lambda: m @ v, lambda: v @ v)
    ]
    assert chosen == __


def test_attention_as_a_formula_or_as_one_operator():
    """Attention is softmax(q kᵀ / √d) v. Written out, that is two batched matrix products around
    a softmax, each an ATen call that writes its whole result to memory.
    `F.scaled_dot_product_attention` is one operator that picks a kernel for its inputs: on the
    CPU, for 4-D (batch, heads, sequence, head size) inputs, a fused FlashAttention-style kernel
    (`aten::_scaled_dot_product_flash_attention_for_cpu`) that works through the keys block by
    block and keeps the softmax's running sums to itself. That kernel is written for 4-D inputs
    only, and the same call with the batch axis left out must get its answer some other way.
    Which of the two pieces does each of the three versions dispatch?"""
    q = k = v = torch.ones(1, 2, 16, 8)
    unbatched = q[0]  # (heads, sequence, head size)
    pieces = {"aten::bmm", "aten::softmax"}
    formula = aten_calls(lambda: torch.softmax(q @ k.transpose(-2, -1) / 8**0.5, dim=-1) @ v)
    three_d = aten_calls(lambda: F.scaled_dot_product_attention(unbatched, unbatched, unbatched))
    four_d = aten_calls(lambda: F.scaled_dot_product_attention(q, k, v))
    seen = [sorted(pieces & calls.keys()) for calls in (formula, three_d, four_d)]
    assert seen == __


@pytest.mark.slow
@pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64")
    or torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"),
    reason="the cap below is AVX2, which only means something on an x86-64 CPU that has it",
)
def test_aten_chooses_its_simd_kernels_when_it_loads():
    """ATen compiles its CPU kernels several times, as portable code and for wider SIMD
    instruction sets, and when it loads it picks one set by asking the CPU what it supports;
    `get_cpu_capability()` names the set in use, as the instruction set is usually written.
    The choice is made once per process, so only a fresh interpreter can show another one:
    here one started with the environment variable `ATEN_CPU_CAPABILITY`, which caps the
    choice, on a CPU that has at least the capped set."""
    code = "import torch; print(torch.backends.cpu.get_cpu_capability())"
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "avx2"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert done.stdout.strip() == __


def test_a_device_object_is_only_a_name():
    """`torch.device("cuda:1")` parses a string into a device type and an index. It touches no
    GPU, so it works on a machine without one and does not start CUDA."""
    before = torch.cuda.is_initialized()
    device = torch.device("cuda:1")
    assert (device.type, device.index) == __
    assert torch.cuda.is_initialized() == before


def test_a_device_named_without_an_index():
    """A CUDA device named without an index does not pick one: the index is settled only when a
    tensor is actually placed there, from `torch.cuda.current_device()`."""
    assert torch.device("cuda").index == __


def test_an_unknown_device_type_is_rejected_when_parsed():
    """The device string is checked against the device types PyTorch knows (cpu, cuda, mps,
    meta, ...) as soon as the `torch.device` is built, on any machine; "gpu" is not one of
    them. The check is made in PyTorch's C++ core, not in Python."""
    with pytest.raises(___):
        torch.device("gpu")
