#!/usr/bin/env python3
"""Cross-checks `fairscore muc` against an independent implementation of the MUC-7 token
judgement (docs/muc.md) on every HIPE-2022 run in ../shared: per-type and overall counts must be
equal. Standard library only.

    scripts/muc_crosscheck.py [FAIRSCORE_BINARY]

The binary defaults to target/release/fairscore (or $CARGO_TARGET_DIR/release/fairscore).
Exit status 0 when every run agrees, 1 on a difference; without ../shared it skips (exit 0), or
fails (exit 1) when CI is set.
"""
import collections
import json
import os
import pathlib
import subprocess
import sys
import tempfile

KINDS = ["correct", "incorrect", "partial", "missing", "spurious"]
# The muc family table's columns of those judgements (docs/muc.md).
COLUMNS = ["COR", "INC", "PAR", "MIS", "SPU"]


def read(path):
    """Documents of NE-COARSE-LIT tags, read as fairscore reads HIPE (upper-cased, IOBES as IOB)."""
    docs, cur, col = [], None, None
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            line = line.rstrip("\n").rstrip("\r")
            if i == 0:
                col = line.lstrip("\ufeff").split("\t").index("NE-COARSE-LIT")
                continue
            if line.startswith("#"):
                if "document_id" in line:
                    cur = []
                    docs.append(cur)
                continue
            if not line.strip():
                continue
            if cur is None:
                cur = []
                docs.append(cur)
            cells = line.split("\t")
            tag = (cells[col] if len(cells) > col else "_").upper()
            if tag[:2] == "S-":
                tag = "B-" + tag[2:]
            elif tag[:2] == "E-":
                tag = "I-" + tag[2:]
            cur.append(tag)
    return docs


def entities(tags):
    out, cur = [], None
    for i, t in enumerate(tags):
        if t == "O":
            if cur:
                out.append(cur)
            cur = None
            continue
        ty = t[2:]
        if cur is None:
            cur = [ty, i, i]
        elif cur[0] != ty or t.startswith("B"):
            out.append(cur)
            cur = [ty, i, i]
        else:
            cur[2] = i
    if cur:
        out.append(cur)
    return [e for e in out if e[0]]


def judge(gold_docs, run_docs):
    if len(run_docs) == 1 and len(gold_docs) > 1:
        flat, run_docs, pos = run_docs[0], [], 0
        for d in gold_docs:
            run_docs.append(flat[pos:pos + len(d)])
            pos += len(d)
    counts = collections.defaultdict(collections.Counter)
    for gd, rd in zip(gold_docs, run_docs):
        ge, re_ = entities(gd), entities(rd)
        n = len(gd)
        ga, ra = [None] * n, [None] * n
        for k, e in enumerate(ge):
            for i in range(e[1], e[2] + 1):
                ga[i] = k
        for k, e in enumerate(re_):
            for i in range(e[1], e[2] + 1):
                ra[i] = k
        both = [i for i in range(n) if ga[i] is not None and ra[i] is not None]
        g_over, r_over = {ga[i] for i in both}, {ra[i] for i in both}
        for i in range(n):
            a, b = ga[i], ra[i]
            if a is None and b is None:
                continue
            if a is not None and b is not None:
                j, ty = ("correct" if ge[a][0] == re_[b][0] else "incorrect"), ge[a][0]
            elif a is not None:
                j, ty = ("partial" if a in g_over else "missing"), ge[a][0]
            else:
                j, ty = ("partial" if b in r_over else "spurious"), re_[b][0]
            counts[ty][j] += 1
    return {t: [c[k] for k in KINDS] for t, c in counts.items()}


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    data = root.parent / "shared" / "data" / "hipe2022"
    if not data.is_dir():
        print("muc_crosscheck: ../shared absent", file=sys.stderr)
        return 1 if os.environ.get("CI") else 0
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    binary = sys.argv[1] if len(sys.argv) > 1 else str(target / "release" / "fairscore")
    ok, bad = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "muc.json"
        for run in sorted((data / "submissions").glob("*.tsv")):
            parts = run.stem.split("_")
            gold = data / "gold" / f"HIPE-2022-v2.1-{parts[2]}-test-{parts[3]}.tsv"
            subprocess.run(
                [binary, "muc", "--ref", str(gold), "--pred", str(run), "--json", str(out)],
                check=True, capture_output=True)
            table = next(t for t in json.loads(out.read_text())["tables"] if t["name"] == "muc")
            ours = {r["key"]["label"]: [r["scores"][c] for c in COLUMNS]
                    for r in table["rows"] if r["key"]["label"] not in ("ALL", "macro")}
            theirs = judge(read(gold), read(run))
            if ours == theirs:
                ok += 1
            else:
                bad += 1
                print(f"DIFF {run.name}: fairscore {ours} vs independent {theirs}")
    print(f"muc_crosscheck: {ok} runs agree, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
