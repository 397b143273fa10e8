-- SPDX-License-Identifier: Apache-2.0
-- capops-lsp for plan and inventory YAML and for CPL policy files.
-- Put this file on the runtime path (e.g. ~/.config/nvim/plugin/capops.lua).
-- Works with Neovim 0.7 (Debian 12's) and later: where `vim.lsp.start`
-- (0.8) is missing, one client per directory is started and attached by hand.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { cpl = "cpl" } })
else
  vim.cmd("autocmd BufRead,BufNewFile *.cpl setfiletype cpl")
end

local clients = {} -- by root directory, where there is no vim.lsp.start

local function start(buf)
  local name = vim.api.nvim_buf_get_name(buf)
  local config = {
    name = "capops",
    cmd = { "capops-lsp", "--stdio" },
    -- The file's directory: capops-lsp finds the .capops.yaml above it itself.
    root_dir = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.fn.getcwd(),
  }
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = buf })
    return
  end
  local id = clients[config.root_dir]
  if id == nil or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    clients[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(buf, id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "yaml", "cpl" },
  callback = function(args)
    start(args.buf)
  end,
})
