"""Shared helpers: ../shared (skipped locally, required under CI), the release CLI binary,
HIPE TSV files read as tag lists."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def required() -> bool:
    """Under CI (CI or FAIRSCORE_REQUIRE_SHARED set, as .ci/run does) data must be present."""
    return any(os.environ.get(v, "") not in ("", "false") for v in ("CI", "FAIRSCORE_REQUIRE_SHARED"))


def shared_data(test: str) -> Path:
    """`../shared/data` beside the repository; skips (locally) or fails (under CI) when absent."""
    d = REPO.parent / "shared" / "data"
    if d.is_dir():
        return d
    if required():
        pytest.fail(f"{test}: ../shared is absent but required here (CI or FAIRSCORE_REQUIRE_SHARED is set)")
    pytest.skip(f"{test}: skipped: ../shared absent")


def cli_binary() -> Path:
    """The release binary: $FAIRSCORE_BIN, else ${CARGO_TARGET_DIR:-target}/release/fairscore."""
    if os.environ.get("FAIRSCORE_BIN"):
        return Path(os.environ["FAIRSCORE_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    return target / "release" / "fairscore"


@pytest.fixture(scope="session")
def fairscore_cli():
    """Runs the CLI; fails when it cannot be found (scripts/python_tests.sh builds it)."""
    exe = cli_binary()
    if not exe.is_file():
        pytest.fail(f"the fairscore binary {exe} is missing: run `cargo build --release` first")

    def run(*args, check=True):
        p = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"fairscore {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
        return p

    return run


def cell(doc, table: str, key, column: str):
    """The value of `column` in the row keyed `key` (a list of the key's values, in order) of
    the table named `table` of a result-table document (`fairscore evaluate --json`)."""
    t = next(t for t in doc["tables"] if t["name"] == table)
    row = next(r for r in t["rows"] if list(r["key"].values()) == list(key))
    return row["scores"][column]


def hipe_tag_lists(path: Path, column: str = "NE-COARSE-LIT"):
    """One list of tags per document of a HIPE TSV file (`_`, `-` and empty cells are `O`)."""
    docs, cur, col = [], [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        if line.startswith("#"):
            if "document_id" in line:
                if cur:
                    docs.append(cur)
                cur = []
            continue
        cells = line.split("\t")
        if cells[0] == "TOKEN":
            col = cells.index(column)
            continue
        tag = cells[col] if col is not None and col < len(cells) else "O"
        cur.append("O" if tag in ("_", "-", "") else tag)
    if cur:
        docs.append(cur)
    return docs


def nerc_runs(data: Path):
    """(run, gold) of every HIPE-2022 NERC run (bundles 1-4) in ../shared."""
    out = []
    for run in sorted((data / "hipe2022" / "submissions").glob("*.tsv")):
        parts = run.stem.split("_")
        if len(parts) != 5 or parts[1] == "bundle5":
            continue
        gold = data / "hipe2022" / "gold" / f"HIPE-2022-v2.1-{parts[2]}-test-{parts[3]}.tsv"
        if gold.is_file():
            out.append((run, gold))
    return out
