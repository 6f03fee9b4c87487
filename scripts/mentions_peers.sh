#!/usr/bin/env bash
# Runs the generative-NER projects' OWN scorer code against the mentions presets, on the noisy
# outputs of HIPE-2022 and brat gold that tests/it/families/mentions.rs writes (its
# each_preset_equals_its_projects_scorer_on_noisy_outputs_of_{real,brat}_gold tests; run with
# ../shared). Compares P, R, F1 and the counts bit for bit (scripts/mentions_peers.py).
#
#   PEERS_DIR=/path/to/peers scripts/mentions_peers.sh
#
# PEERS_DIR holds the projects' files at the commits docs/generative.md names ("Checked
# against the projects' own code"), laid out as in their repositories:
#   universal-ner/src/eval/evaluate.py        github.com/universal-ner/universal-ner
#   GoLLIE/src/tasks/utils_typing.py          github.com/hitz-zentroa/GoLLIE
#   GoLLIE/src/tasks/utils_scorer.py
#   InstructUIE/src/evaluation/evaluator.py   github.com/BeyonderXX/InstructUIE
# (a clone of each repository will do). The project never vendors them, and CI has no copy:
# this script is not part of .ci/run. Without PEERS_DIR it skips with a notice. PYTHON picks
# the interpreter (default python3; 3.12 or older, with typing_extensions, for GoLLIE's code).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
xc_init mentions_peers
if [ -z "${PEERS_DIR:-}" ]; then
    echo "mentions_peers: skipped: PEERS_DIR is unset (a directory with the projects' scorer files; see the head of this script)"
    exit 0
fi
for f in universal-ner/src/eval/evaluate.py GoLLIE/src/tasks/utils_typing.py \
    GoLLIE/src/tasks/utils_scorer.py InstructUIE/src/evaluation/evaluator.py; do
    [ -f "$PEERS_DIR/$f" ] || { echo "mentions_peers: $PEERS_DIR/$f is missing" >&2; exit 1; }
done
"${PYTHON:-python3}" -c "import typing_extensions" 2>/dev/null || {
    echo "mentions_peers: GoLLIE's utils_scorer.py imports typing_extensions: pip install typing_extensions" >&2
    exit 1
}
# the two preset tests' outputs: HIPE-2022 test sets, and the brat example project
dirs=("$target/tmp/mentions-presets" "$target/tmp/mentions-presets-brat")
for d in "${dirs[@]}"; do
    ls "$d"/*-gold.jsonl >/dev/null 2>&1 ||
        xc_skip "$d absent (run \`cargo test --release --test it -- families::mentions::each_preset\` with ../shared first)"
done
xc_binary
status=0
for d in "${dirs[@]}"; do
    "${PYTHON:-python3}" scripts/mentions_peers.py "$PEERS_DIR" "$bin" "$d" || status=1
done
exit $status
