# SPDX-License-Identifier: Apache-2.0
# What the browser tests share (sourced): chromium found or the test
# skipped (exit 77), a temporary directory, failure counting, rendering a
# page headless to its DOM, and XPath over that DOM (xmllint).
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "skipped: chromium is not installed (scripts/install-deps installs it)"
  exit 77
fi

source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"

# Renders $1 (an HTML file, optionally with ?query) into $tmp/dom.html.
render() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$tmp")" \
    --window-size=1280,900 --virtual-time-budget=5000 --enable-logging=stderr --v=0 \
    --dump-dom "file://$1" >"$tmp/dom.html" 2>"$tmp/browser.log"
  if [[ ! -s $tmp/dom.html ]]; then
    fail "chromium wrote no DOM for $1"
    cat "$tmp/browser.log"
    return 1
  fi
  # The page's console: an error or an uncaught exception is a failure.
  if grep -E ':CONSOLE[:(]' "$tmp/browser.log" >"$tmp/console.log"; then
    fail "console output rendering $1: $(cat "$tmp/console.log")"
  fi
}

# Renders a copy of the report $1 with report_geometry.js added, for the
# label and width checks the report itself does not carry, into $tmp/dom.html.
render_geometry() {
  local copy=${1%.html}-geometry.html
  { sed 's|</body></html>$||' "$1"
    printf '<script>\n'
    cat "$(dirname "${BASH_SOURCE[0]}")/report_geometry.js"
    printf '</script>\n</body></html>\n'
  } >"$copy"
  render "$copy"
}

# Checks the geometry of the report $1 (render_geometry): no two labels of a
# chart overlap, none reaches past its chart, nothing is wider than the
# window. $2 names the page in messages.
check_geometry() {
  render_geometry "$1" || return
  expect "$2: geometry script ran" 1 "$(body_attr data-geometry)"
  [[ $(body_attr data-labels) -ge 1 ]] || fail "$2: no chart label laid out"
  expect "$2: overlapping labels ($(body_attr data-overlap-list))" 0 "$(body_attr data-overlaps)"
  expect "$2: labels past their chart" 0 "$(body_attr data-outside)"
  expect "$2: elements wider than 1280 px" 0 "$(body_attr data-wide)"
}

# An attribute of <body> in the DOM dump, read without parsing the whole
# page (a report of thousands of findings takes xmllint seconds).
body_attr() {
  grep -o -m1 '<body[^>]*>' "$tmp/dom.html" | grep -o " $1=\"[^\"]*\"" | sed 's/^[^"]*"//; s/"$//' |
    sed 's/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g'
}

# An XPath expression's value over the DOM dump.
xpath() {
  xmllint --html --xpath "$1" "$tmp/dom.html" 2>/dev/null
}


