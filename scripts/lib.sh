# Shared preamble of the cross-check scripts (sourced, not run):
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#   xc_init NAME                 # cd to the repository; sets root, shared, target (absolute)
#   xc_need_shared DIR...        # each ../shared/DIR must exist, else skip
#   xc_have_shared DIR           # true when ../shared/DIR exists; else a notice (a failure
#                                # under CI) and false: the check runs without it
#   xc_venv DIR CHECK PKG...     # $target/DIR with PKG installed unless `python -c CHECK` passes;
#                                # sets venv; skips when they cannot be installed
#   xc_binary                    # sets bin: $FAIRSCORE, or the release binary built here
#
# Skipping says why and exits 0 on a developer's machine; under CI (CI or
# FAIRSCORE_REQUIRE_SHARED set) a check that cannot run is a failure (exit 1), never a silent
# pass.

xc_init() {
    xc_name="$1"
    root="$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)"
    cd "$root" || exit 1
    shared="$root/../shared"
    target="${CARGO_TARGET_DIR:-target}"
    case "$target" in /*) ;; *) target="$root/$target" ;; esac
}

xc_skip() {
    if [ -n "${CI:-}" ] || [ -n "${FAIRSCORE_REQUIRE_SHARED:-}" ]; then
        echo "$xc_name: $1 (required: CI or FAIRSCORE_REQUIRE_SHARED is set)" >&2
        exit 1
    fi
    echo "$xc_name: skipped: $1"
    exit 0
}

xc_need_shared() {
    local d
    for d in "$@"; do
        [ -e "$shared/$d" ] || xc_skip "../shared/$d is absent"
    done
}

xc_have_shared() {
    [ -e "$shared/$1" ] && return 0
    if [ -n "${CI:-}" ] || [ -n "${FAIRSCORE_REQUIRE_SHARED:-}" ]; then
        echo "$xc_name: ../shared/$1 is absent (required: CI or FAIRSCORE_REQUIRE_SHARED is set)" >&2
        exit 1
    fi
    echo "$xc_name: ../shared/$1 is absent: checking without it"
    return 1
}

xc_venv() {
    local dir="$1" check="$2"
    shift 2
    venv="$target/$dir"
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null; then
        return 0
    fi
    echo "$xc_name: installing $* into $venv" >&2
    { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } \
        || xc_skip "python3 -m venv $venv failed"
    "$venv/bin/pip" install -q --disable-pip-version-check "$@" \
        && "$venv/bin/python" -c "$check" 2>/dev/null \
        || xc_skip "$* could not be installed"
}

xc_binary() {
    if [ -n "${FAIRSCORE:-}" ]; then
        bin="$FAIRSCORE"
    else
        CARGO_TARGET_DIR="$target" cargo build --release --bin fairscore -q || exit 1
        bin="$target/release/fairscore"
    fi
}
