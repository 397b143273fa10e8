-- SPDX-License-Identifier: Apache-2.0
-- Run by check_neovim.sh inside `nvim --headless -u NONE`: loads the shipped
-- config, opens the example plan and waits for capops-lsp (found on PATH)
-- to attach and publish its findings. Prints `ok: …` or `FAIL: …` and
-- leaves with exit code 0 or 1.
local config, plan = os.getenv("CAPOPS_NVIM_CONFIG"), os.getenv("CAPOPS_NVIM_PLAN")
local function finish(ok, message)
  io.stdout:write((ok and "ok: " or "FAIL: ") .. message .. "\n")
  vim.cmd(ok and "qall!" or "cquit! 1")
end

local loaded, err = pcall(dofile, config)
if not loaded then
  return finish(false, "the config does not load: " .. tostring(err))
end
vim.cmd("filetype on")
vim.cmd("edit " .. vim.fn.fnameescape(plan))
if vim.bo.filetype ~= "yaml" then
  return finish(false, "the plan's filetype is `" .. vim.bo.filetype .. "`")
end
local function attached()
  local clients = vim.lsp.buf_get_clients and vim.lsp.buf_get_clients(0) or {}
  for _, c in pairs(clients) do
    if c.name == "capops" then
      return true
    end
  end
  return false
end
if not vim.wait(20000, attached, 50) then
  return finish(false, "capops-lsp did not attach to the plan")
end
local function findings()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if tostring(d.code or ""):match("^CAP%-") then
      return true
    end
  end
  return false
end
if not vim.wait(20000, findings, 50) then
  return finish(false, "no finding was published for the plan")
end
-- A second buffer in the same directory shares the client.
vim.cmd("edit " .. vim.fn.fnameescape(vim.fn.fnamemodify(plan, ":h") .. "/inventory.yaml"))
if not vim.wait(20000, attached, 50) then
  return finish(false, "capops-lsp did not attach to the inventory")
end
local names = {}
for _, c in pairs(vim.lsp.get_active_clients()) do
  names[#names + 1] = c.name
end
if #names ~= 1 then
  return finish(false, #names .. " clients for one directory: " .. table.concat(names, ", "))
end
finish(true, "config loaded, capops-lsp attached, " .. #vim.diagnostic.get(vim.fn.bufnr(plan)) .. " diagnostics on the plan")
