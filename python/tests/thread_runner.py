"""Python threads that call the library at once (test_threads.py, test_shared_scene_threads.py)."""

import threading


def run_in_threads(threads, calls, work, together=False):
    """work(i) run `calls` times on thread i, for i in 0 … threads - 1; the results by i, each a
    list of `calls` results. together: the threads wait at a barrier first, so that all of them
    are inside the library at once. An exception in a thread (which would otherwise be lost) fails
    the caller's test."""
    results = [None] * threads
    errors = []
    start = threading.Barrier(threads) if together else None

    def body(i):
        try:
            if start is not None:
                start.wait()
            results[i] = [work(i) for _ in range(calls)]
        except Exception as e:  # reported below
            errors.append(e)

    running = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()
    assert not errors, errors
    return results
