-- SPDX-License-Identifier: Apache-2.0
-- capops-lsp for plan and inventory YAML and for CPL policy files.
-- Put this file on the runtime path (e.g. ~/.config/nvim/plugin/capops.lua).
vim.filetype.add({ extension = { cpl = "cpl" } })

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "yaml", "cpl" },
  callback = function(args)
    vim.lsp.start({
      name = "capops",
      cmd = { "capops-lsp", "--stdio" },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
    })
  end,
})
