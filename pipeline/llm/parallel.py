"""Independent LLM calls of a stage (sections, paragraphs, translations) run at once, up to
the endpoint's slots; results come back in the items' order, so output does not depend on
which call finished first."""

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
Progress = Callable[[int, int], None]


def ordered_map(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    workers: int,
    progress: Progress | None = None,
) -> list[Result]:
    """`[work(item) for item in items]` on up to `workers` threads. After a failure no new
    item starts; the failure of the earliest item is raised once the running ones end.

    Daemon threads, not a pool: Ctrl-C in the main thread must not wait on calls in flight
    (the embedded server is stopped on the way out, which ends them)."""
    total = len(items)
    results: list = [None] * total
    failures: dict[int, BaseException] = {}
    lock, state = threading.Lock(), {"next": 0, "done": 0}

    def take() -> int | None:
        with lock:
            if failures or state["next"] >= total:
                return None
            state["next"] += 1
            return state["next"] - 1

    def finished(index: int, error: BaseException | None) -> None:
        with lock:
            if error is not None:
                failures[index] = error
            state["done"] += 1
            done = state["done"]
        if progress and error is None:
            progress(done, total)

    def loop() -> None:
        while (index := take()) is not None:
            try:
                results[index] = work(items[index])
            except BaseException as err:  # re-raised in the caller's thread
                finished(index, err)
            else:
                finished(index, None)

    if workers <= 1 or total <= 1:
        loop()
    else:
        threads = [threading.Thread(target=loop, daemon=True) for _ in range(min(workers, total))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if failures:
        raise failures[min(failures)]
    return results
