"""PyTorch's DataLoader prepares batches in worker processes.

With `num_workers=n`, a `DataLoader` starts n worker processes (through `multiprocessing`),
each with its own interpreter and its own GIL, and each holding a copy of the dataset. The
main process hands out indices, each worker loads its items, and the results come back
pickled through queues, while the main process is free to feed the model.
"""

import multiprocessing
import os

import pytest

torch = pytest.importorskip("torch", reason="this koan needs PyTorch (pip install torch)")
from torch.utils.data import DataLoader, Dataset, get_worker_info  # noqa: E402


class WhoLoadsWhat(Dataset):
    """Item i is the id of the worker that loaded it and the process id that worker runs in."""

    def __len__(self):
        return 6

    def __getitem__(self, index):
        return get_worker_info().id, os.getpid()


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="the workers are forked here, so that they inherit the dataset class defined in "
    "this file; Windows cannot fork",
)
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_what_a_dataloader_hands_to_its_workers():
    """With `batch_size=None` every item is a batch of its own. The loader hands the batches
    out to its workers in turn, one after the other, and yields them back in the order of the
    indices, whichever worker was quicker. The workers are forked (started by spawn or
    forkserver, they would import this file afresh to find the dataset's class). Which worker
    loaded each item, and how many different processes took part, counting this one?"""
    loader = DataLoader(
        WhoLoadsWhat(), batch_size=None, num_workers=2, multiprocessing_context="fork"
    )
    rows = list(loader)
    workers = [worker for worker, _ in rows]
    processes = {pid for _, pid in rows} | {os.getpid()}
    assert (workers, len(processes)) == ([0, 1, 0, 1, 0, 1], 3)
