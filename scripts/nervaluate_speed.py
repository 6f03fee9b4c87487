"""fairscore.nervaluate's speed on about 100k entities: ``Evaluator(...).evaluate()`` on 1,400
tag lists of 400 tags (102,171 gold, 144,957 predicted entities; best of 3) and on one document
of 20,000 overlapping span dicts a side. Run in an environment with fairscore installed
(scripts/python_tests.sh's venv); docs/nervaluate.md gives the figures."""

import random, time, sys
from fairscore.nervaluate import Evaluator
rng = random.Random(7)
TYPES = ["PER", "LOC", "ORG", "MISC"]
def doc(n):
    out, i = [], 0
    while i < n:
        if rng.random() < 0.25:
            t = rng.choice(TYPES); k = rng.randint(1, 4)
            out += ["B-" + t] + ["I-" + t] * (k - 1); i += k
        else:
            out.append("O"); i += 1
    return out[:n]
def noisy(d):
    out = list(d)
    for i in range(len(out)):
        if rng.random() < 0.1:
            out[i] = rng.choice(["O", "B-PER", "I-PER", "B-LOC", "I-ORG"])
    return out
true = [doc(400) for _ in range(1400)]
pred = [noisy(d) for d in true]
ev = Evaluator(true, pred, TYPES, loader="list")
n = sum(len(d) for d in ev.true)
best = min((lambda t0: (ev.evaluate(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(3))
print(f"tags: {n} gold entities, {sum(len(d) for d in ev.pred)} predicted: evaluate {best:.3f} s")
# span dicts, overlapping, one large document
spans = lambda m: [[{"label": rng.choice(TYPES), "start": (s := rng.randint(0, 200000)), "end": s + rng.randint(0, 5)} for _ in range(m)]]
ev2 = Evaluator(spans(20000), spans(20000), TYPES, loader="dict")
t0 = time.perf_counter(); r = ev2.evaluate(); t = time.perf_counter() - t0
print(f"dicts: one document of 20000 overlapping spans a side: evaluate {t:.3f} s", r["overall"]["ent_type"].correct)
