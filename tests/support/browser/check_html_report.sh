#!/usr/bin/env bash
# Renders an HTML report in headless Chromium and checks it (report_check.js): no error on the
# page or in the browser's console, not blank, nothing wider than the window, no chart text
# outside its chart, no two texts of a chart overlapping. Saves a full-page screenshot.
# Usage: check_html_report.sh REPORT.html SCREENSHOT.png
# Exit 0 when the page passes, 1 with the problems on stderr when it does not, 2 when it cannot
# check (no browser, no report). ASSAY_CHROMIUM names the browser (default: chromium).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 REPORT.html SCREENSHOT.png" >&2
  exit 2
fi
report=$(realpath "$1")
shot=$2
here=$(cd "$(dirname "$0")" && pwd)
browser=${ASSAY_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$browser" ]; then
  echo "check_html_report: no chromium (Debian: apt-get install chromium)" >&2
  exit 2
fi
[ -f "$report" ] || { echo "check_html_report: no report $report" >&2; exit 2; }
width=1280
work=$(mktemp -d)
# The checked copy sits beside the report so relative links resolve as they would for a reader.
checked="$(dirname "$report")/.assay-check-$$.html"
trap 'rm -rf "$work" "$checked"' EXIT
python3 - "$report" "$checked" "$here" <<'PY'
import sys
report, checked, here = sys.argv[1:4]
page = open(report, encoding="utf-8").read()
head = open(here + "/report_check_head.html", encoding="utf-8").read()
check = "<script>\n" + open(here + "/report_check.js", encoding="utf-8").read() + "</script>\n"
low = page.lower()
i = low.find("<head>")
page = page[: i + 6] + head + page[i + 6 :] if i >= 0 else head + page
low = page.lower()
j = low.rfind("</body>")
page = page[:j] + check + page[j:] if j >= 0 else page + check
open(checked, "w", encoding="utf-8").write(page)
PY
run_browser() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-extensions --disable-dev-shm-usage --user-data-dir="$work/profile" \
    --enable-logging=stderr --v=0 "$@"
}
run_browser --window-size=$width,1000 --dump-dom "file://$checked" >"$work/dom.html" \
  2>"$work/browser.log" || {
  echo "check_html_report: chromium failed on $report:" >&2
  tail -20 "$work/browser.log" >&2
  exit 2
}
status=0
python3 - "$work/dom.html" "$work/browser.log" "$report" >"$work/height" <<'PY' || status=$?
import html, json, re, sys
dom, log, report = sys.argv[1:4]
# The last match: the element the check appended (the script's own text names it too).
found = re.findall(r'<pre id="assay-check-result">(.*?)</pre>', open(dom, encoding="utf-8").read(), re.S)
if not found:
    print(f"{report}: the check did not run (script error or page never loaded)", file=sys.stderr)
    sys.exit(1)
result = json.loads(html.unescape(found[-1]))
problems = result["problems"]
# Console messages of level error that reached the browser's log (a resource that failed to
# load, a script error before the page's handlers were installed).
for line in open(log, encoding="utf-8", errors="replace"):
    if "CONSOLE" in line and ("ERROR" in line.split("CONSOLE")[0] or ":ERROR:" in line):
        problems.append("console: " + line.strip())
print(result.get("height", 2000))
print(f"{report}: {result['charts']} charts, {result['labels']} chart texts, "
      f"{result['tables']} tables", file=sys.stderr)
for p in problems:
    print(f"{report}: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
height=$(head -1 "$work/height" 2>/dev/null || echo 2000)
[[ "$height" =~ ^[0-9]+$ ]] || height=2000
((height > 16000)) && height=16000
mkdir -p "$(dirname "$shot")"
run_browser --window-size=$width,$height --screenshot="$(realpath -m "$shot")" "file://$report" \
  >/dev/null 2>>"$work/browser.log" || echo "check_html_report: no screenshot" >&2
exit $status
