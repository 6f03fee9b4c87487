#!/usr/bin/env bash
# Screenshot of a leaderboard page in headless Chromium (Debian package `chromium`:
# apt-get update && apt-get install -y chromium).
#
#   scripts/screenshot.sh [PAGE] [OUT.png] [WIDTHxHEIGHT]
#
# PAGE defaults to out/board/index.html; when it is absent the page is made first by scoring
# ../shared/data/hipe2022 with `fairscore leaderboard`.
# Example, phone size: scripts/screenshot.sh out/board/index.html phone.png 390x1600
set -euo pipefail
cd "$(dirname "$0")/.."
page=${1:-out/board/index.html}
png=${2:-docs/leaderboard.png}
size=${3:-1366x2000}
data=../shared/data/hipe2022

if [ ! -f "$page" ]; then
  [ -d "$data" ] || { echo "screenshot: $page absent and $data absent" >&2; exit 2; }
  cargo build --release --quiet
  ./target/release/fairscore leaderboard --quiet \
    --gold-dir "$data/gold" --runs-dir "$data/submissions" --resources "$data/resources" \
    --outdir "$(dirname "$page")"
fi
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "screenshot: no chromium (apt-get install -y chromium)" >&2; exit 2; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
mkdir -p "$(dirname "$png")"
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" \
  --screenshot="$(realpath -m "$png")" --window-size="${size/x/,}" \
  "file://$(realpath "$page")" 2>/dev/null
echo "wrote $png ($size)"
