"""The GIL is released while the library scores: another Python thread keeps running."""

import random
import sys
import threading
import time

import fairscore


def test_another_thread_runs_during_scoring():
    rnd = random.Random(7)
    tags = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]
    y_true = [[rnd.choice(tags) for _ in range(30)] for _ in range(5000)]
    y_pred = [[t if rnd.random() < 0.9 else rnd.choice(tags) for t in s] for s in y_true]
    count, stop = [0], threading.Event()

    def spin():
        while not stop.is_set():
            count[0] += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.2)  # the thread runs, and its pace with the GIL free
        c0, t0 = count[0], time.perf_counter()
        time.sleep(0.2)
        rate = (count[0] - c0) / (time.perf_counter() - t0)
        c0, t0 = count[0], time.perf_counter()
        fairscore.evaluate(y_true, y_pred)
        during, took = count[0] - c0, time.perf_counter() - t0
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    # Held for the whole call, the GIL would let the thread run for a few switch intervals
    # (milliseconds) at most: about 0.001 of its free pace (measured with a C call holding the
    # GIL); released, it runs for most of the scoring (about 0.45 on a loaded 2-core machine).
    assert took > 0.05, f"scoring took only {took:.3f} s: too short to tell"
    assert during > rate * 0.1 * took, (during, rate, took)
