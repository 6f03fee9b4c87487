#!/usr/bin/env python3
"""Emulates Codabench on a competition bundle and one result submission (docs/codabench.md,
"Checking it"): what the platform refuses or misreads when the bundle is uploaded, and what
its compute worker makes of the scoring program and the submission.

    python3 scripts/codabench_emulate.py BUNDLE.zip SUBMISSION.zip WORKDIR

Prints one JSON object: `violations` (every rule of Codabench the bundle or the run breaks,
one line each; empty when all is well), `facts` (what Codabench stores from
competition.yaml), and the scoring run (`exit_code`, `stdout`, `stderr`, `scores`,
`output_files`, `output_dir`). Exit status 0 unless the emulation itself fails.

Written from a reading of codalab/codabench (not copied from it); the rules, with where they
are in its code:

Upload (src/apps/competitions/tasks.py `unpack_competition`, unpackers/v2.py,
base_unpacker.py, utils.py, the models and the DRF serializers):
- the bundle is unpacked with `ZipFile.extractall`; competition.yaml read with `yaml.load`
  (PyYAML's full loader: an unquoted `2026-03-01 12:00:00` is a datetime);
- `version` 2; `title`, `image`, `terms`, `pages`, `tasks`, `phases`, `leaderboards` there;
  each page and the terms a non-empty file, the image a file;
- lengths of the model fields (Django CharField max_length, enforced by the serializers):
  competition title 256, docker_image 128, task name 256, phase name 256, leaderboard title
  64 and key 36, column title 36 and key 36; column keys and indexes unique; `sorting` desc
  or asc; `submission_rule` one of Leaderboard.SUBMISSION_RULES (default `Add`);
- a task: `index` (unique) and `scoring_program`; its files exist;
- a phase: `tasks` naming tasks; `start`, `end` through `get_datetime`, which turns any
  `datetime.date` into midnight of that day -- and a YAML datetime *is* a date, so an
  unquoted date-time loses its time of day. Here a date read otherwise than as written (its
  text parsed as a date-time) is a violation; so is an end not after the start;
- a task folder is zipped by `zip_if_directory` (`shutil.make_archive`: directories first,
  sorted, then files).

Scores (src/apps/api/views/submissions.py `upload_submission_scores`, leaderboards/models.py):
each value becomes a `SubmissionScore.score`, a DecimalField(max_digits=20,
decimal_places=10): PostgreSQL numeric(20,10), so a value must be a finite number with at
most 10 digits before the point. A column key of the leaderboard missing from scores.json
gets no score.

Worker (compute_worker/compute_worker.py):
- a result submission runs twice. Prediction: the participant's zip is the "program",
  fetched by `_get_bundle`, which extracts it and, when an entry's name has a `/`, moves the
  contents of the first such entry's top folder up one level (the folder is removed); with
  no metadata file the folder is copied to the output, `metadata` is written there, and the
  output zipped with `make_archive`. Scoring: that zip is fetched into `input/res`, again by
  `_get_bundle` (so the first folder, in sorted order, is unwrapped once more); the
  reference data into `input/ref` the same way; the scoring program into `program`, where
  only a folder holding `metadata`/`metadata.yaml` is unwrapped. Extraction drops file
  modes (no executable bit);
- `metadata.yaml` (else `metadata`) is read with YAML; its `command` has `$input`,
  `$output`, `$program`, ... replaced as text, then is split on single spaces
  (`command.split(' ')`; an older worker used docker-py, which splits with `shlex`) and run
  in the competition's image with the working directory `/app/program`, the input at
  `/app/input`, the output at `/app/output`. Here the program runs on this machine: the
  folders are laid out as program/, input/ and output/ side by side, `/app/...` in the
  command's words replaced by them;
- then: `output/metadata` must not exist; scores from `output/scores.json` (`json.load`);
  with `enable_detailed_results`, `output/detailed_results.html` is uploaded.
"""

import datetime
import decimal
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile

import yaml

SUBMISSION_RULES = [
    "Add",
    "Add_And_Delete",
    "Add_And_Delete_Multiple",
    "Force_Last",
    "Force_Latest_Multiple",
    "Force_Best",
]
METADATA_FILES = ("metadata", "metadata.yaml")


def get_datetime(field):
    """Codabench's `unpackers/utils.get_datetime`, time zone left out."""
    if not field:
        return None
    if isinstance(field, datetime.date):
        # A datetime is a date too: midnight of its day.
        return datetime.datetime.combine(field, datetime.time())
    return datetime.datetime.fromisoformat(str(field).strip())


def written_value(yaml_text, key):
    """The text of the first `key:` value in the YAML text, quotes removed."""
    m = re.search(r"^\s+%s:\s*(.*?)\s*$" % re.escape(key), yaml_text, re.M)
    if not m:
        return None
    return m.group(1).strip("\"'")


def get_bundle(zip_path, dest, scoring_program=False):
    """The worker's `_get_bundle` after the download: extract, then unwrap one folder."""
    with zipfile.ZipFile(zip_path) as z:
        parent = None
        for name in z.namelist():
            if "/" not in name:
                continue
            if scoring_program:
                if os.path.basename(name) in METADATA_FILES:
                    parent = name.split("/")[0]
                    break
            else:
                parent = name.split("/")[0]
                break
        z.extractall(dest)
    if parent:
        folder = os.path.join(dest, parent)
        for f in os.listdir(folder):
            os.rename(os.path.join(folder, f), os.path.join(dest, f))
        os.rmdir(folder)


def make_archive(folder, zip_base):
    """`shutil.make_archive(zip_base, 'zip', folder)`, as Codabench zips folders."""
    return shutil.make_archive(zip_base, "zip", folder)


def unpack(bundle, root, v):
    """The upload: returns (competition.yaml as loaded, facts)."""
    with zipfile.ZipFile(bundle) as z:
        z.extractall(root)
    text = open(os.path.join(root, "competition.yaml"), encoding="utf-8").read()
    y = yaml.load(text, Loader=yaml.FullLoader)
    facts = {}
    if str(y.get("version", "1")) != "2":
        v.append("competition.yaml: version is not 2")
    for key in ["title", "image", "terms", "pages", "tasks", "phases", "leaderboards"]:
        if y.get(key) is None:
            v.append(f"competition.yaml: no {key}")

    def length(what, value, most):
        if value is not None and len(str(value)) > most:
            v.append(f"{what}: {len(str(value))} characters, Codabench takes at most {most}: {value}")

    def exists(what, rel, nonempty=False):
        p = os.path.join(root, str(rel))
        if not os.path.exists(p):
            v.append(f"{what}: {rel} is not in the bundle")
        elif nonempty and os.path.isfile(p) and os.path.getsize(p) == 0:
            v.append(f"{what}: {rel} is empty")

    length("competition title", y.get("title"), 256)
    length("docker_image", y.get("docker_image"), 128)
    exists("image", y.get("image"))
    exists("terms", y.get("terms"), nonempty=True)
    for page in y.get("pages") or []:
        exists("page", page.get("file"), nonempty=True)
    facts["docker_image"] = y.get("docker_image", "codalab/codalab-legacy:py37")
    for k in ["enable_detailed_results"]:
        facts[k] = y.get(k, False)
    for k in ["show_detailed_results_in_leaderboard", "show_detailed_results_in_submission_panel"]:
        facts[k] = y.get(k, True)
    tasks = {}
    for t in y.get("tasks") or []:
        if "index" not in t:
            v.append(f"task {t.get('name')}: no index")
            continue
        if t["index"] in tasks:
            v.append(f"task index {t['index']} given twice")
        tasks[t["index"]] = t
        length("task name", t.get("name"), 256)
        if "scoring_program" not in t:
            v.append(f"task {t.get('name')}: no scoring_program")
        for f in ["scoring_program", "reference_data", "ingestion_program", "input_data"]:
            if f in t:
                exists(f"task {f}", t[f])
    phases = sorted(y.get("phases") or [], key=lambda p: p.get("index", 0))
    facts["phases"] = []
    for p in phases:
        length("phase name", p.get("name"), 256)
        if not p.get("tasks") or any(i not in tasks for i in p["tasks"]):
            v.append(f"phase {p.get('name')}: tasks missing or unknown")
        seen = {}
        for key in ["start", "end"]:
            value = p.get(key)
            if value is None:
                if key == "start":
                    v.append(f"phase {p.get('name')}: no start")
                continue
            read = get_datetime(value)
            written = get_datetime(written_value(text, key))
            if read != written:
                v.append(
                    f"phase {p.get('name')}: {key} written {written_value(text, key)!r} is read "
                    f"as {read} ({type(value).__name__} in YAML; quote it)"
                )
            seen[key] = read
        if "start" in seen and "end" in seen and seen["end"] <= seen["start"]:
            v.append(f"phase {p.get('name')}: end not after start")
        for f in ["public_data", "starting_kit"]:
            if f in p:
                exists(f"phase {f}", p[f])
        facts["phases"].append(
            {k: (str(seen[k]) if k in seen else None) for k in ["start", "end"]}
            | {"public_data": p.get("public_data"), "starting_kit": p.get("starting_kit")}
        )
    facts["leaderboards"] = []
    for lb in y.get("leaderboards") or []:
        length("leaderboard title", lb.get("title"), 64)
        length("leaderboard key", lb.get("key"), 36)
        rule = lb.get("submission_rule", "Add")
        if rule not in SUBMISSION_RULES:
            v.append(f"leaderboard {lb.get('key')}: submission_rule {rule!r} is none of {SUBMISSION_RULES}")
        cols = lb.get("columns") or []
        if not cols:
            v.append(f"leaderboard {lb.get('key')}: no column")
        for c in cols:
            length("column title", c.get("title"), 36)
            length("column key", c.get("key"), 36)
            if c.get("sorting", "desc") not in ("desc", "asc"):
                v.append(f"column {c.get('key')}: sorting {c.get('sorting')!r}")
            if not isinstance(c.get("precision", 2), int):
                v.append(f"column {c.get('key')}: precision not a whole number")
        keys = [c.get("key") for c in cols]
        if len(set(keys)) != len(keys):
            v.append(f"leaderboard {lb.get('key')}: column keys not unique")
        indexes = [c.get("index") for c in cols]
        if len(set(indexes)) != len(indexes):
            v.append(f"leaderboard {lb.get('key')}: column indexes not unique")
        facts["leaderboards"].append(
            {"key": lb.get("key"), "submission_rule": rule, "columns": [
                {"key": c.get("key"), "title": c.get("title"), "sorting": c.get("sorting", "desc")}
                for c in cols]}
        )
    return y, tasks, facts


def fits_numeric_20_10(x):
    """Whether PostgreSQL stores `x` in numeric(20,10): rounded to 10 decimals, under 10^10."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    if isinstance(x, float) and not math.isfinite(x):
        return False
    try:
        d = decimal.Decimal(repr(x)).quantize(decimal.Decimal(1).scaleb(-10))
    except decimal.InvalidOperation:  # more digits than the context holds
        return False
    return abs(d) < decimal.Decimal(10) ** 10


def score(work, root, y, tasks, submission, v):
    """The worker: prediction step of the result submission, then the scoring step."""
    phase = sorted(y["phases"], key=lambda p: p.get("index", 0))[0]
    task = tasks[phase["tasks"][0]]
    run = os.path.join(work, "run")
    program, inp, out = (os.path.join(run, d) for d in ("program", "input", "output"))
    # Codabench zips the task's folders when the bundle is uploaded; the worker fetches them.
    get_bundle(make_archive(os.path.join(root, task["scoring_program"]), os.path.join(work, "program")),
               program, scoring_program=True)
    if "reference_data" in task:
        get_bundle(make_archive(os.path.join(root, task["reference_data"]), os.path.join(work, "ref")),
                   os.path.join(inp, "ref"))
    # Prediction step: the submission is the program; without metadata it is copied to the
    # output, which gets the worker's metadata file and is zipped as the prediction result.
    pred = os.path.join(work, "prediction")
    get_bundle(submission, os.path.join(pred, "program"))
    shutil.copytree(os.path.join(pred, "program"), os.path.join(pred, "output"))
    with open(os.path.join(pred, "output", "metadata"), "w") as f:
        f.write(yaml.dump({"exitCode": None, "elapsedTime": None}, default_flow_style=False))
    get_bundle(make_archive(os.path.join(pred, "output"), os.path.join(work, "prediction_result")),
               os.path.join(inp, "res"))
    os.makedirs(out, exist_ok=True)
    meta = None
    for name in METADATA_FILES[::-1]:
        p = os.path.join(program, name)
        if os.path.exists(p):
            meta = yaml.load(open(p).read(), Loader=yaml.FullLoader)
            break
    command = meta.get("command") if isinstance(meta, dict) else None
    result = {"exit_code": None, "stdout": "", "stderr": "", "scores": None, "output_files": [],
              "output_dir": out, "input_res": sorted(
                  os.path.relpath(os.path.join(d, f), os.path.join(inp, "res"))
                  for d, _, fs in os.walk(os.path.join(inp, "res")) for f in fs)}
    if not command:
        v.append("scoring program: no command in metadata.yaml")
        return result
    for var, rep in [("$input", "/app/input"), ("$output", "/app/output"), ("$program", "/app/program"),
                     ("$ingestion_program", "/app/program"), ("$hidden", "/app/input/ref"),
                     ("$shared", "/app/shared"), ("$submission_program", "/app/ingested_program"),
                     ("$tmp", "/app/output"), ("$predictions", "/app/input/res")]:
        command = command.replace(var, rep)
    words = command.split(" ")
    if words != shlex.split(command):
        v.append(f"scoring program: the command splits otherwise on spaces (worker) than with "
                 f"shlex (docker-py): {words} / {shlex.split(command)}")
    local = [w.replace("/app/program", program).replace("/app/input", inp).replace("/app/output", out)
             for w in words]
    p = subprocess.run(local, cwd=program, capture_output=True)
    result["exit_code"] = p.returncode
    result["stdout"] = p.stdout.decode("utf-8", "replace")
    result["stderr"] = p.stderr.decode("utf-8", "replace")
    result["output_files"] = sorted(
        os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(out) for f in fs)
    if p.returncode != 0:
        v.append(f"scoring program: exit status {p.returncode}")
    if os.path.exists(os.path.join(out, "metadata")):
        v.append("scoring program: wrote output/metadata, the worker's file")
    scores_path = os.path.join(out, "scores.json")
    if not os.path.exists(scores_path):
        v.append("scoring program: no scores.json")
        return result
    try:
        scores = json.load(open(scores_path))
    except ValueError as e:
        v.append(f"scores.json: not JSON: {e}")
        return result
    result["scores"] = scores
    for lb in y["leaderboards"]:
        for c in lb["columns"]:
            if c["key"] not in scores:
                v.append(f"scores.json: no value for the column {c['key']}")
            elif not fits_numeric_20_10(scores[c["key"]]):
                v.append(f"scores.json: {c['key']} = {scores[c['key']]!r} does not fit numeric(20,10)")
    if y.get("enable_detailed_results") and not os.path.exists(os.path.join(out, "detailed_results.html")):
        v.append("scoring program: no detailed_results.html")
    return result


def main():
    bundle, submission, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    root = os.path.join(work, "bundle")
    violations = []
    y, tasks, facts = unpack(bundle, root, violations)
    result = score(work, root, y, tasks, submission, violations)
    json.dump({"violations": violations, "facts": facts, **result}, sys.stdout, indent=1, default=str)


if __name__ == "__main__":
    main()
