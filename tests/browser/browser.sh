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

# An XPath expression's value over the DOM dump.
xpath() {
  xmllint --html --xpath "$1" "$tmp/dom.html" 2>/dev/null
}


