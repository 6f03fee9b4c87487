"""`fairscore.mentions`: the mentions family on lists in memory (docs/generative.md), against the
same records in files (`fairscore.family("mentions", …)`, the CLI's reading) and against the
independent re-implementation of each project's scorer (oracles/mentions_oracle.py)."""

import json
import random

import pytest

import fairscore
from oracles import mentions_oracle as oracle

WORDS = ["Paris", "Anna", "Berlin", "Acme", "Rome", "Nile", "Otto", "Lyon", "Oslo", "Kiev", "Bern", "Tarn"]
TYPES = ["LOC", "ORG", "PER"]


def make_gold(n, rng):
    units = []
    for i in range(n):
        ents = []
        for _ in range(rng.randint(0, 4)):
            ents.append({"text": f"{rng.choice(WORDS)} {rng.choice(WORDS)}", "type": rng.choice(TYPES)})
        words = ["In", "the", "year"] + [e["text"] for e in ents] + ["met", "."]
        units.append({"id": f"u{i}", "text": " ".join(words), "entities": ents})
    return units


def noisy(u, rng):
    out = []
    for e in u["entities"]:
        if rng.random() < 0.1:
            continue
        t, ty = e["text"], e["type"]
        k = rng.randrange(8)
        if k == 0:
            t = t.upper()
        elif k == 1:
            t = "the " + t
        elif k == 2:
            ty = rng.choice(TYPES)
        elif k == 3:
            out.append((t, ty))
        out.append((t, ty))
    if rng.random() < 0.15:
        out.append(("Zorglub", rng.choice(TYPES)))
    if rng.random() < 0.05:
        out.append(("Mars", "PLANET"))
    return out


def damage(s, rng):
    k = rng.randrange(20)
    if k == 0:
        return s[: len(s) // 2]
    if k == 1:
        return "Sure: " + s
    return s


def runs(gold, seed):
    """Each preset's records (in its answer format) and the default's, from the same noise."""
    rng = random.Random(seed)
    uni, gol, iuie, own = [], [], [], []
    for u in gold:
        ms = noisy(u, rng)
        for q in TYPES:
            items = [t for t, ty in ms if ty == q]
            uni.append({"id": u["id"], "type": q, "output": damage(json.dumps(items), rng)})
        calls = ", ".join(f"{ty}(span={json.dumps(t)})" for t, ty in ms)
        gol.append({"id": u["id"], "output": damage(f"[{calls}]", rng)})
        iuie.append({"id": u["id"], "output": damage("; ".join(f"{ty}: {t}" for t, ty in ms), rng)})
        if rng.random() < 0.5:
            own.append({"id": u["id"], "entities": [[t, ty] for t, ty in ms]})
        else:
            own.append({"id": u["id"], "output": damage(json.dumps([[t, ty] for t, ty in ms]), rng)})
    return {"universalner": uni, "gollie": gol, "instructuie": iuie, None: own}


def write_jsonl(path, rows):
    # Compact, as serde_json writes a value: the files' hashes are those of the records in memory.
    path.write_text("".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows), encoding="utf-8")


def micro(r):
    return r["tables"][0]["rows"][0]["scores"]


def test_in_memory_equals_the_files_and_each_projects_scorer(tmp_path):
    gold = make_gold(300, random.Random(5))
    g = tmp_path / "gold.jsonl"
    write_jsonl(g, gold)
    for preset, preds in runs(gold, 11).items():
        p = tmp_path / f"{preset}.jsonl"
        write_jsonl(p, preds)
        kw = {"preset": preset} if preset else {}
        mem = fairscore.mentions(gold, preds, **kw)
        files = fairscore.family("mentions", g, p, **kw)
        # The same dict, signature included: the records hash as the files written compactly.
        assert mem == files, preset
        s = micro(mem)
        want = {
            "universalner": oracle.universalner,
            "gollie": oracle.gollie,
            "instructuie": oracle.instructuie,
            None: oracle.fairscore,
        }[preset](gold, preds)
        assert s["TP"] == want["TP"], preset
        if preset is None:
            assert (s["FP"], s["FN"]) == (want["FP"], want["FN"])
            diag = {r["key"]["measure"]: r["scores"]["n"] for r in mem["tables"][1]["rows"]}
            for k in ("malformed", "prose", "duplicates", "hallucinated", "out_of_schema"):
                assert diag[k] == want[k], k
                assert want[k] > 0, f"no {k} to count"
        else:
            assert s["TP"] + s["FP"] == want["npred"], preset
            assert s["TP"] + s["FN"] == want["ngold"], preset
            for k in ("P", "R", "F1"):
                assert s[k] == want[k], (preset, k)  # bit for bit
        assert s["TP"] > 50 and s["FP"] > 10 and s["FN"] > 10, (preset, s)


def test_lists_strings_and_dicts_are_the_same_records():
    gold = [
        {"id": "1", "text": "Barack Obama was born in Hawaii.", "entities": [["Barack Obama", "PER"], ["Hawaii", "LOC"]]},
        {"id": "2", "text": "The UN met in New York.", "entities": [["UN", "ORG"], ["New York", "LOC"]]},
    ]
    as_dicts = [
        {"id": "1", "entities": [["barack obama", "PER"], ["Hawaii", "LOC"]]},
        {"id": "2", "output": "ORG: UN; LOC: New York; PER: Mars"},
    ]
    # Without ids the records pair with the gold's units by order.
    as_lists = [[["barack obama", "PER"], {"text": "Hawaii", "label": "LOC"}], "ORG: UN; LOC: New York; PER: Mars"]
    a = fairscore.mentions(gold, as_dicts)
    b = fairscore.mentions(gold, as_lists)
    assert a["tables"] == b["tables"]
    # Counted by hand: barack obama is not the gold's string (whitespace normalisation),
    # Mars is no gold entity.
    assert (micro(a)["TP"], micro(a)["FP"], micro(a)["FN"]) == (3, 2, 1)
    assert micro(fairscore.mentions(gold, as_lists, normalize="case"))["TP"] == 4
    # Gold as entity lists (no text, ids "1", "2"): the same string matching.
    bare = [[["Barack Obama", "PER"], ["Hawaii", "LOC"]], [["UN", "ORG"], ["New York", "LOC"]]]
    assert fairscore.mentions(bare, as_dicts)["tables"][0] == a["tables"][0]
    # Aligned with offsets, and the signature names every choice.
    c = fairscore.mentions(gold, as_lists, preset="gollie", align="fuzzy")
    assert "|preset:gollie|" in c["signature"] and "|align:fuzzy|" in c["signature"]


def test_bad_records_and_values_are_errors_naming_the_item():
    gold = [{"id": "1", "text": "Anna sings", "entities": [["Anna", "PER"]]}]
    with pytest.raises(fairscore.InputError) as e:
        fairscore.mentions(gold, [{"id": "1", "entities": []}, {"id": "2"}])
    assert e.value.file == "predictions" and e.value.line == 2
    with pytest.raises(fairscore.InputError) as e:
        fairscore.mentions([gold[0], 7], [[], []])
    assert e.value.file == "gold" and e.value.line == 2
    with pytest.raises(TypeError):
        fairscore.mentions(gold, [[object()]])
    with pytest.raises(TypeError):
        fairscore.mentions(gold, "Anna")
    with pytest.raises(fairscore.UsageError):
        fairscore.mentions(gold, [[]], match="bag")
    with pytest.raises(fairscore.UsageError):
        fairscore.mentions(gold, [[]], preset="nobody")


def test_a_generative_run_is_a_run_of_spans_by_its_options(tmp_path):
    """`fairscore.family("spans"|"fair"|"muc", gold, run, align=…)`: the run's strings placed on
    the gold's texts (docs/generative.md, "Aligned runs in the span families"); a string found
    nowhere is a false positive, counted in the warning."""
    g, r = tmp_path / "gold.jsonl", tmp_path / "run.jsonl"
    g.write_text(json.dumps({"id": "s1", "text": "Anna met Otto in Paris.",
                             "entities": [["Anna", "PER"], ["Otto", "PER"], ["Paris", "LOC"]]}) + "\n")
    r.write_text(json.dumps({"id": "s1", "output": "PER: anna; PER: Otto; LOC: Mars"}) + "\n")
    res = fairscore.family("spans", str(g), str(r), align="case", parser="pairs")
    strict = next(t for t in res["tables"] if t["name"] == "strict")
    row = next(x["scores"] for x in strict["rows"] if x["key"]["label"] == "ALL")
    # anna and Otto placed (ignoring case), Mars found nowhere: TP 2, FP 1, FN 1 (Paris).
    assert (row["TP"], row["FP"], row["FN"]) == (2, 1, 1)
    assert any(" 1 unaligned" in w for w in res["warnings"])
    assert "|run-format:mentions|" in res["signature"]
    for fam in ("fair", "muc"):
        assert fairscore.family(fam, str(g), str(r), align="case", parser="pairs")["tables"]
    with pytest.raises(fairscore.UsageError):
        fairscore.family("spans", str(g), str(r), align="fuzzy", align_threshold="2")


@pytest.mark.parametrize("unordered", [set, frozenset])
def test_unordered_collections_are_refused(unordered):
    """Records pair with the units by order, and a set's order changes with PYTHONHASHSEED:
    a set or frozenset of units or of records is a TypeError, never scored in some order."""
    gold = [(("Anna", "PER"),), (("Otto", "PER"),)]
    answers = ["PER: Anna", "PER: Otto"]
    with pytest.raises(TypeError, match="order"):
        fairscore.mentions(unordered(gold), answers)
    with pytest.raises(TypeError, match="order"):
        fairscore.mentions(gold, unordered(answers))
    # The same items in a list or a tuple are scored.
    assert micro(fairscore.mentions(gold, tuple(answers)))["TP"] == 2
