"""Ctrl-C interrupts a long call: the library's work runs on a worker thread while the
calling thread, with the GIL released between polls, checks for signals every 50 ms
(`interruptible` in python/src/lib.rs). Before, SIGINT waited until the call returned."""

import os
import signal
import threading
import time

import pytest

import fairscore

TAGS = ["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "O", "B-ORG", "O"]


def _inputs(n):
    row = TAGS * 125  # 1000 tokens a sentence
    return [row] * n, [row[1:] + ["O"]] * n


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_sigint_interrupts_a_long_evaluate():
    # Grow the input until one call takes about a second or more.
    n, full = 50, 0.0
    while True:
        y, p = _inputs(n)
        t = time.perf_counter()
        fairscore.evaluate(y, p)
        full = time.perf_counter() - t
        if full >= 1.0 or n >= 20000:
            break
        n *= 2
    assert full >= 0.5, f"the longest call took only {full:.2f} s: too short to tell"
    timer = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT))
    t = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        fairscore.evaluate(y, p)
    took = time.perf_counter() - t
    timer.join()
    # Interrupted within a poll (50 ms) of the signal, not at the end of the call.
    assert took < 0.1 + full / 2, (took, full)
    # The module still works afterwards.
    r = fairscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]])
    assert r["strict"]["ALL"]["F1"] == 1.0


def test_results_and_errors_still_come_back_through_the_worker():
    r = fairscore.evaluate([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
    assert r["strict"]["ALL"]["correct"] == 0
    assert r["ent_type"]["ALL"]["correct"] == 1
    with pytest.raises(fairscore.UsageError):
        fairscore.evaluate([["B-PER"]], [["B-PER"]], scheme="NOPE")
