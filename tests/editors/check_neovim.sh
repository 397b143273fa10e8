#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `editors.neovim`: the shipped Neovim config (editors/neovim/capops.lua)
# in a real Neovim, headless and with no other config (`-u NONE`): it loads
# without error, and opening the example plan starts capops-lsp, which
# attaches and publishes the plan's findings (tests/editors/neovim_test.lua).
# Debian 12's Neovim is 0.7, which has no `vim.lsp.start` or `vim.fs`; a
# later one takes the config's other path.
# Usage: check_neovim.sh CAPOPS_LSP SOURCE_DIR. Exit 77 (skipped) without nvim.
set -uo pipefail

lsp=$1
src=$2
if ! command -v nvim >/dev/null; then
  echo "skipped: nvim is not installed (scripts/install-deps installs it)"
  exit 77
fi
source "$src/tests/support/checks.sh"

cp "$src/examples/visual-inspection/plan.yaml" "$src/examples/visual-inspection/inventory.yaml" "$tmp/"
mkdir -p "$tmp/bin" "$tmp/home"
ln -s "$(cd "$(dirname "$lsp")" && pwd)/$(basename "$lsp")" "$tmp/bin/capops-lsp"
out=$(cd "$tmp" && HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" XDG_DATA_HOME="$tmp/home" \
  XDG_STATE_HOME="$tmp/home" PATH="$tmp/bin:$PATH" \
  CAPOPS_NVIM_CONFIG="$src/editors/neovim/capops.lua" CAPOPS_NVIM_PLAN="$tmp/plan.yaml" \
  timeout 60 nvim --headless -u NONE -i NONE -n -c "luafile $src/tests/editors/neovim_test.lua" 2>&1)
code=$?
echo "$out"
((code == 0)) || fail "nvim exited $code"
grep -q '^ok: ' <<<"$out" || fail "the config was not shown to work in $(nvim --version | head -1)"
finish "neovim: $(nvim --version | head -1): config loaded and capops-lsp attached"
