"""The GPU job's script: it counts the cuda koans that passed against those the course has,
and on a machine without a GPU it runs to the end saying so for every step."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gpu_check

REPO = Path(__file__).resolve().parents[2]

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="answers.28_cuda_async_and_sync.test_01_the_queue_and_events" name="test_a"/>
<testcase classname="answers.28_cuda_async_and_sync.test_01_the_queue_and_events" name="test_b">
  <skipped message="needs a CUDA GPU"/></testcase>
<testcase classname="answers.29_cuda_caching_allocator.test_01_allocated_bytes" name="test_c">
  <failure message="AssertionError: 512 != 1024">...</failure></testcase>
</testsuite></testsuites>
"""


def test_a_skipped_or_failed_cuda_koan_makes_the_count_fail(tmp_path: Path) -> None:
    junit = tmp_path / "r.xml"
    junit.write_text(JUNIT)
    passed, other = gpu_check.passed_in(junit)
    assert passed == {"answers/28_cuda_async_and_sync/test_01_the_queue_and_events.py::test_a"}
    expected = ["answers/28_cuda_async_and_sync/test_01_the_queue_and_events.py::test_a",
                "answers/28_cuda_async_and_sync/test_01_the_queue_and_events.py::test_b",
                "answers/29_cuda_caching_allocator/test_01_allocated_bytes.py::test_c",
                "answers/29_cuda_caching_allocator/test_01_allocated_bytes.py::test_never_run"]
    verdict = gpu_check.count_verdict(expected, passed, other)
    assert (verdict["ok"], verdict["passed"], verdict["expected"]) == (False, 1, 4)
    assert verdict["not_passed"][expected[1]].startswith("skipped")
    assert verdict["not_passed"][expected[2]].startswith("failure: AssertionError")
    assert verdict["not_passed"][expected[3]] == "not run at all"
    assert gpu_check.count_verdict(expected[:1], passed, other)["ok"] is True


def test_every_cuda_koan_of_the_course_is_counted_from_the_source() -> None:
    found = gpu_check.cuda_koans(REPO)
    assert len(found) >= 40
    assert all(n.split("/")[1] in gpu_check.CUDA_TOPICS for n in found)
    assert not [n for n in found if "/test_00_" in n]  # the CPU koans of 27-29 are not cuda


def test_without_a_gpu_every_step_says_so_and_a_summary_is_written(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(REPO / "tools" / "gpu_check.py"), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=600, check=False)
    summary = json.loads((tmp_path / "summary.json").read_text())
    if summary["gpu"]:  # on a GPU machine this test proves nothing more than the job does
        return
    assert run.returncode == 0, run.stdout + run.stderr
    assert [s["result"] for s in summary["steps"]] == [gpu_check.NO_GPU] * 6
    assert summary["cuda_koans"] == len(gpu_check.cuda_koans(REPO))
    assert "skipped: no CUDA GPU visible" in run.stdout
