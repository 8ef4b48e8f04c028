#!/usr/bin/env bash
# `cfuzz cover -o` as a reader opens it: fuzz a target briefly, write its coverage page, and
# load the page in headless Chromium. The page must render (a screenshot), hold the chart,
# file list and source views in the DOM the browser built, refer to nothing outside
# itself, and write nothing to the browser's console.
#
# usage: cover_browser_test.sh CFUZZ TARGET WORK_DIR
# Exit status 77 (ctest's SKIP_RETURN_CODE) when Chromium is not installed.
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 CFUZZ TARGET WORK_DIR" >&2
  exit 2
fi
cfuzz=$(realpath "$1")
target=$(realpath "$2")
work=$3

chromium=${CFUZZ_CHROMIUM:-/usr/bin/chromium}  # Debian's package
if [ ! -x "$chromium" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh --browser installs it)"
  exit 77
fi

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
work=$(realpath "$work")
# A target built without CMake's help keeps testdata/ in the current directory: a failure
# that `cfuzz run` saves lands here, not in the caller's directory.
cd "$work"

# Headless, as root, on a machine without network: no sandbox (root), no GPU, and none of
# the background connections (updates, sync, QUIC) that would only be refused.
chromium_flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync)
chromium_run() {
  local profile status=0
  profile=$(mktemp -d "$work/chromium-profile.XXXXXX")
  timeout 120 "$chromium" "${chromium_flags[@]}" --user-data-dir="$profile" "$@" || status=$?
  rm -rf "$profile"
  return $status
}

# Chromium writes each console message of the page to stderr as
#   [pid:tid:time:INFO:CONSOLE:12] "message", source: file:///.../index.html (12)
# (older versions: CONSOLE(12)). The level is not in the line (console.error and
# console.log both read INFO), so any console message fails the check: the page writes
# none. --virtual-time-budget lets timers run before the DOM is dumped, so an exception
# thrown after the load event is seen too.
console_flags=(--enable-logging=stderr --v=0 --virtual-time-budget=3000)
console_lines() { grep -E ':CONSOLE[:(]' "$1" || true; }

# --- fuzz, then write the page ---
status=0
"$cfuzz" run "$target" --cachedir "$work/cache" --fuzztime 4s --parallel 1 >"$work/run.log" 2>&1 || status=$?
if [ $status -ne 0 ] && [ $status -ne 1 ]; then
  cat "$work/run.log" >&2
  fail "cfuzz run exited with status $status"
fi

status=0
"$cfuzz" cover "$target" --cachedir "$work/cache" -o "$work/report" >"$work/cover.log" 2>&1 || status=$?
if [ $status -ne 0 ]; then
  cat "$work/cover.log" >&2
  fail "cfuzz cover exited with status $status"
fi
page=$work/report/index.html
[ -s "$page" ] || fail "cfuzz cover -o $work/report wrote no $page"

# Self-contained: every src= and href= points inside the page. (Source text is escaped, so
# a URL in a shown comment reads src=&quot; and does not match.)
external=$(grep -oE '(src|href)="[^#"][^"]*"|<link[ >]' "$page" || true)
[ -z "$external" ] || fail "the page refers to something outside itself: $(echo "$external" | head -3 | tr '\n' ' ')"

# --- the console check, proven on a page that does write to the console ---
planted=$work/planted
mkdir -p "$planted"
cat >"$planted/index.html" <<'EOF'
<!DOCTYPE html>
<html><body><p>console check</p>
<script>console.error("planted console error");</script>
<script>setTimeout(function () { throw new Error("planted late exception"); }, 100);</script>
</body></html>
EOF
chromium_run "${console_flags[@]}" --dump-dom "file://$planted/index.html" >/dev/null 2>"$planted/chromium.log" ||
  fail "chromium could not load the planted page (see $planted/chromium.log)"
planted_lines=$(console_lines "$planted/chromium.log")
grep -q 'planted console error' <<<"$planted_lines" ||
  fail "the console check misses console.error() with this Chromium ($("$chromium" --version 2>/dev/null))"
grep -q 'Uncaught Error: planted late exception' <<<"$planted_lines" ||
  fail "the console check misses an uncaught exception with this Chromium ($("$chromium" --version 2>/dev/null))"

# --- (a) it renders ---
screenshot=$work/report/screenshot.png
chromium_run --screenshot="$screenshot" --window-size=1280,2000 "file://$page" >"$work/screenshot.log" 2>&1 ||
  fail "chromium could not take a screenshot of the page (see $work/screenshot.log)"
[ -f "$screenshot" ] || fail "chromium wrote no screenshot $screenshot"
# A blank 1280x2000 page compresses to a few kilobytes; the report's text and chart do not.
size=$(stat -c %s "$screenshot")
[ "$size" -gt 40000 ] || fail "the screenshot $screenshot is $size bytes: the page looks empty"

# --- (b) the DOM Chromium built, and (c) its console ---
dom=$work/dom.html
chromium_run "${console_flags[@]}" --dump-dom "file://$page" >"$dom" 2>"$work/chromium.log" ||
  fail "chromium could not load the page (see $work/chromium.log)"
plot=$(sed -n '/data-testid="coverage-plot"/,/<\/svg>/p' "$dom")
[ -n "$plot" ] || fail "no data-testid=\"coverage-plot\" element in the page (did cfuzz run record its figures?)"
grep -qE '<polyline|<path' <<<"$plot" || fail "the coverage plot draws no line (no <polyline> or <path> in it)"
grep -q 'data-testid="file-list"' "$dom" || fail "no data-testid=\"file-list\" element in the page"
grep -q 'data-testid="source-view"' "$dom" || fail "no data-testid=\"source-view\" element in the page"

messages=$(console_lines "$work/chromium.log")
if [ -n "$messages" ]; then
  echo "$messages" >&2
  if grep -q 'Uncaught' <<<"$messages"; then
    fail "the page threw an uncaught exception (above)"
  fi
  fail "the page wrote to the browser console (above)"
fi

echo "ok: the coverage page renders, holds its chart, file list and sources, and logs nothing"
echo "screenshot: $screenshot"
