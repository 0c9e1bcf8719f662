"""Which GPU a tensor lands on, and what NumPy can see of it.

`"cuda"` alone is a request for whichever GPU is current; a tensor always records the concrete
index it was given. Data never crosses between host and device by itself: every move is an
explicit copy.
"""

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "how a tensor picks its GPU, and that NumPy cannot view GPU memory",
        allow_module_level=True,
    )


def test_a_bare_cuda_device_resolves_to_the_current_gpu():
    """Asking for `device="cuda"` does not name a GPU: torch fills in the current device of the
    calling thread. Until `torch.cuda.set_device` or a `with torch.cuda.device(...)` block says
    otherwise, that is the first GPU the process can see, whatever physical slot it sits in:
    device numbers count from the start of the visible list. A device prints as its backend, a
    colon and its index."""
    x = torch.ones(1, device="cuda")
    assert str(x.device) == "cuda:0"  # the current device, resolved at allocation


def test_numpy_cannot_view_gpu_memory():
    """`Tensor.numpy()` returns an array that shares the tensor's memory, and NumPy can only
    address host memory. For a GPU tensor there is nothing to share: copy it to the host
    first, with `.cpu()`."""
    x = torch.ones(3, device="cuda")
    with pytest.raises(TypeError):
        x.numpy()
