#!/usr/bin/env bash
# Checks a leaderboard page in headless Chromium at laptop and phone widths: with every
# <details> opened, no table cell (td, th) may lie outside the screen or hold content wider
# than itself, no cell's text may wrap where it should not (below), the page may not scroll
# sideways, and the file must stay under a size bound.
#
#   scripts/page_check.sh PAGE [--max-bytes N] [--widths "1366 390"]
#
# Wrapping. A cell's text is measured in groups meant to share one line: consecutive text
# nodes under the same nearest non-inline element, split at <br> (so a template may put an
# interval on a line of its own with a block element or <br>; SVG text is left out). Lines
# are counted with Range.getClientRects() (rectangles overlapping vertically share a line).
#   - A value cell (the text has a digit and no letters once "of", exponents, NaN, inf and
#     n/a are set aside: 74.52, 0.911–0.952, 74.52 [73.10, 75.90], 3 of 5, 2≈1, 0.0050)
#     fails when any group takes more than one line: "value on N lines".
#   - Any other cell (system names, labels, headers) may wrap at spaces, hyphens,
#     underscores, slashes and other punctuation, but fails when a line break falls between
#     two letters or digits ("broken inside a word"; Chinese and Japanese text excepted),
#     unless that word alone is wider than its whole table, and when it takes three or more
#     lines of fewer than four characters each on average ("N lines of M characters").
#
# A copy of PAGE gets a small script that measures every cell with getBoundingClientRect()
# and Range.getClientRects() and writes the result into the DOM; `chromium --headless
# --dump-dom` prints it. Exit 0 when the page passes, 1 when it does not, 2 on usage errors.
# Without Chromium (Debian package `chromium`: apt-get update && apt-get install -y chromium)
# it prints a notice and exits 0, or fails under CI (CI or FAIRSCORE_REQUIRE_SHARED set). KEEP=1 keeps the working directory (the probed copies).
set -euo pipefail
page=${1:-}
[ -n "$page" ] && [ -f "$page" ] || { echo "page_check: usage: page_check.sh PAGE [--max-bytes N] [--widths \"1366 390\"]" >&2; exit 2; }
shift
max_bytes=$((5 * 1024 * 1024))
widths="1366 390"
while [ $# -gt 0 ]; do
  case "$1" in
    --max-bytes) max_bytes=$2; shift ;;
    --widths) widths=$2; shift ;;
    *) echo "page_check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

size=$(wc -c <"$page")
status=0
if [ "$size" -gt "$max_bytes" ]; then
  echo "page_check: FAIL $page is $size bytes (bound $max_bytes)"
  status=1
else
  echo "page_check: size $size bytes (bound $max_bytes)"
fi

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  # Under CI (CI or FAIRSCORE_REQUIRE_SHARED set, as .ci/run does) the layout must be checked:
  # a missing browser fails instead of skipping.
  for v in "${CI:-}" "${FAIRSCORE_REQUIRE_SHARED:-}"; do
    if [ -n "$v" ] && [ "$v" != "false" ]; then
      echo "page_check: FAIL no chromium, but CI requires the layout check (apt-get install -y chromium)"
      exit 1
    fi
  done
  echo "page_check: skipped: no chromium (apt-get install -y chromium); layout not checked"
  exit "$status"
fi

work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
probe='<script>
(function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var w = document.documentElement.clientWidth, bad = [], n = 0, values = 0;
  var WORD = /[\p{L}\p{N}]/u, CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
  var HTML = "http://www.w3.org/1999/xhtml";
  // A value: a digit and no letters once exponents, "of", NaN, inf and n/a are set aside.
  function isValue(t) {
    if (!/\d/.test(t)) return false;
    return !/\p{L}/u.test(t.replace(/\d[eE][-+]?\d/g, "0").replace(/\b(of|NaN|inf|n\/a)\b/gi, ""));
  }
  // The text of a cell in groups meant to share one line: consecutive text nodes with the same
  // nearest non-inline ancestor and no <br> between them (SVG content is left out).
  function groups(cell) {
    var out = [], last = null, walk = document.createTreeWalker(cell, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
      { acceptNode: function (x) { return x.nodeType === 1 && x.namespaceURI !== HTML ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT; } });
    for (var x = walk.nextNode(); x; x = walk.nextNode()) {
      if (x.nodeType === 1) { if (x.tagName === "BR") last = null; continue; }
      if (!x.data.trim()) continue;
      var b = x.parentNode;
      while (b !== cell && /^(inline|contents)$/.test(getComputedStyle(b).display)) b = b.parentNode;
      if (last && last.block === b) last.nodes.push(x);
      else { last = { block: b, nodes: [x] }; out.push(last); }
    }
    return out;
  }
  function visible(r) {
    return Array.prototype.filter.call(r.getClientRects(), function (q) { return q.width > 0 && q.height > 0; });
  }
  // Line boxes: rectangles overlapping vertically by more than half the smaller height share one.
  function lineOf(lines, q) {
    for (var i = 0; i < lines.length; i++) {
      var L = lines[i], ov = Math.min(L.bottom, q.bottom) - Math.max(L.top, q.top);
      if (ov > 0.5 * Math.min(L.bottom - L.top, q.height)) {
        L.top = Math.min(L.top, q.top); L.bottom = Math.max(L.bottom, q.bottom); return i;
      }
    }
    lines.push({ top: q.top, bottom: q.bottom });
    return lines.length - 1;
  }
  // Lines of a group; when it has several, the first break between two letters or digits
  // (not Chinese or Japanese) in a word that is not wider than the whole table.
  function measure(g, room) {
    var lines = [], text = "", chars = 0, broken = null;
    g.nodes.forEach(function (t) {
      text += t.data;
      var r = document.createRange();
      r.selectNodeContents(t);
      visible(r).forEach(function (q) { lineOf(lines, q); });
    });
    if (lines.length > 1) {
      var prev = null, prevLine = -1, space = false, word = 0, split = null;
      var end = function () { if (split && word <= room && !broken) broken = split; split = null; word = 0; };
      g.nodes.forEach(function (t) {
        for (var i = 0; i < t.data.length; i++) {
          var ch = String.fromCodePoint(t.data.codePointAt(i)), len = ch.length;
          if (/\s/.test(ch)) { space = true; i += len - 1; continue; }
          var r = document.createRange();
          r.setStart(t, i); r.setEnd(t, i + len); i += len - 1;
          var q = visible(r)[0];
          if (!q) continue;
          chars++;
          var li = lineOf(lines, q), inWord = WORD.test(ch) && !CJK.test(ch);
          if (!inWord || space || !(prev && WORD.test(prev) && !CJK.test(prev))) end();
          if (inWord) {
            word += q.width;
            if (li !== prevLine && prev !== null && !space && WORD.test(prev) && !CJK.test(prev)) split = split || prev + "|" + ch;
          }
          prev = ch; prevLine = li; space = false;
        }
      });
      end();
    }
    return { text: text.replace(/\s+/g, " ").trim(), lines: lines.length, chars: chars, broken: broken };
  }
  document.querySelectorAll("td, th").forEach(function (c) {
    var r = c.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    n++;
    var label = c.getAttribute("data-h") || c.getAttribute("data-label");
    var table = c.closest("table"), where = table && table.id ? " in #" + table.id : table && table.className ? " in table." + table.className.split(" ").join(".") : "";
    var what = c.tagName + (label ? " [" + label + "]" : "") + " " + JSON.stringify(c.textContent.trim().slice(0, 40)) + where;
    var value = isValue(c.textContent);
    if (value) values++;
    if (r.left < -0.5 || r.right > w + 0.5) {
      bad.push("outside [" + Math.round(r.left) + ", " + Math.round(r.right) + "]: " + what);
      return;
    } else if (c.scrollWidth > c.clientWidth + 1 && getComputedStyle(c).textOverflow !== "ellipsis") {
      bad.push("clipped (" + c.scrollWidth + " > " + c.clientWidth + "): " + what);
      return;
    }
    var gs = groups(c);
    for (var i = 0; i < gs.length; i++) {
      var m = measure(gs[i], table ? table.getBoundingClientRect().width : w);
      if (m.lines < 2) continue;
      var part = gs.length > 1 ? " (part " + JSON.stringify(m.text.slice(0, 30)) + ")" : "";
      if (value) { bad.push("value on " + m.lines + " lines: " + what + part); break; }
      if (m.broken) { bad.push("broken inside a word (" + m.broken + "): " + what + part); break; }
      if (m.lines >= 3 && m.chars < 4 * m.lines) {
        bad.push(m.lines + " lines of " + m.chars + " characters: " + what + part); break;
      }
    }
  });
  var sw = document.documentElement.scrollWidth;
  if (sw > w + 1) bad.unshift("page scrolls sideways: " + sw + " > " + w);
  var host = (window.parent || window).document;
  var out = host.createElement("pre");
  // Markers built from pieces, so that the probe source (in the srcdoc) never matches them.
  var tag = "PAGE" + "CHECK";
  out.textContent = tag + " width=" + w + " cells=" + n + " values=" + values + " bad=" + bad.length + "\n" +
    bad.slice(0, 15).map(function (b) { return tag + "-BAD " + b; }).join("\n") + "\n";
  host.body.appendChild(out);
})();
</script>'
copy="$work/page.html"
PROBE=$probe awk '/<\/body>/ && !done { print ENVIRON["PROBE"]; done = 1 } { print }' "$page" >"$copy"

# Headless Chromium will not lay a window out narrower than about 500 px, so the page is
# shown in an iframe of the wanted width (srcdoc: same origin, so the probe can report to the
# host page that --dump-dom prints).
for w in $widths; do
  profile="$work/profile-$w"
  mkdir -p "$profile"
  host="$work/host-$w.html"
  {
    printf '<!DOCTYPE html><html><body style="margin:0"><iframe style="border:0;width:%spx;height:900px" srcdoc="' "$w"
    sed -e 's/&/\&amp;/g' -e 's/"/\&quot;/g' "$copy"
    printf '"></iframe></body></html>\n'
  } >"$host"
  dom="$work/dom-$w.html"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --window-size="$((w + 40)),940" \
    --dump-dom "file://$(realpath "$host")" >"$dom" 2>/dev/null || true
  line=$(grep -o -m1 'PAGECHECK width=[^<]*' "$dom" || true)
  if [ -z "$line" ]; then
    echo "page_check: FAIL at $w px: the probe did not report (chromium failed?)"
    status=1
    continue
  fi
  measured=$(sed -n 's/^PAGECHECK width=\([0-9]*\).*/\1/p' <<<"$line")
  if [ "$measured" != "$w" ]; then
    echo "page_check: FAIL at $w px: the page was laid out $measured px wide"
    status=1
  fi
  if grep -q 'PAGECHECK-BAD' "$dom"; then
    echo "page_check: FAIL at $w px: $line"
    grep -o 'PAGECHECK-BAD.*' "$dom" | sed -e 's/^PAGECHECK-BAD /  /' -e 's/<\/pre>.*//' \
      -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g'
    status=1
  else
    echo "page_check: ok at $w px: $line"
  fi
done
exit "$status"
