import threading
import time

import pytest

from pipeline.llm.parallel import ordered_map


def test_results_keep_the_items_order_whichever_call_ends_first():
    def slow_for_small(n: int) -> int:
        time.sleep(0.05 * (5 - n))
        return n * n

    progress = []
    assert ordered_map(slow_for_small, [1, 2, 3, 4], 4, lambda d, t: progress.append((d, t))) == [
        1,
        4,
        9,
        16,
    ]
    assert [d for d, _ in progress] == [1, 2, 3, 4] and {t for _, t in progress} == {4}


def test_up_to_workers_calls_run_at_once():
    running, peak, lock = [0], [0], threading.Lock()

    def work(_):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1

    ordered_map(work, list(range(8)), 3)
    assert peak[0] == 3
    ordered_map(work, list(range(4)), 1)
    assert peak[0] == 3  # one worker: in the caller's thread, one at a time


def test_the_earliest_failure_is_raised_and_no_new_item_starts():
    started = []

    def fail_on_two(n: int) -> int:
        started.append(n)
        if n == 2:
            raise ValueError("two")
        return n

    with pytest.raises(ValueError, match="two"):
        ordered_map(fail_on_two, list(range(20)), 2)
    assert len(started) < 20
