-- silp-lint for Neovim: filetype detection for SILP/SLIP payload files and the
-- silp-lint language server (`silp-lsp`, stdio) attached to them.
--
-- Install: copy this file to ~/.config/nvim/lua/silp.lua and put in init.lua
--
--   require('silp').setup()
--
-- or with options (the defaults are shown):
--
--   require('silp').setup({
--     cmd = { 'silp-lsp' },          -- or { 'silp-lint', 'lsp' }, or an absolute path
--     markdown = true,               -- lint silp/slip/silp-json fences in Markdown
--     lint = { select = {}, ignore = {} },   -- rule codes or prefixes, like --select/--ignore
--     root_markers = { 'silp-lint.toml', 'pyproject.toml', '.git' },
--   })
--
-- Neovim 0.8+ uses vim.lsp.start (one client per root folder, reused across
-- buffers); 0.7 falls back to vim.lsp.start_client + buf_attach_client.

local M = {}

local defaults = {
  cmd = { 'silp-lsp' },
  markdown = true,
  lint = { select = {}, ignore = {} },
  root_markers = { 'silp-lint.toml', 'pyproject.toml', '.git' },
}

M.config = vim.deepcopy(defaults)

-- Clients started through the 0.7 fallback, by root folder.
local legacy_clients = {}
local warned = false

--- Whether a buffer holds a payload document the server lints.
--- @param bufnr integer
--- @return boolean
function M.is_payload_buffer(bufnr)
  local ft = vim.bo[bufnr].filetype
  if ft == 'silp' or ft == 'slip' then
    return true
  end
  if ft == 'markdown' then
    return M.config.markdown
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  return name:match('%.silp%.jsonl?$') ~= nil
    or name:match('%.nlip%.json$') ~= nil
    or name:match('%.mcp%-call%.json$') ~= nil
    or name:match('%.a2a%.json$') ~= nil
end

--- The folder holding the nearest root marker above `path`, else the file's folder.
--- @param path string
--- @return string
function M.root_dir(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      return (vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git/?$', ''))
    end
  end
  return dir
end

--- The client configuration for a buffer.
--- @param bufnr integer
function M.client_config(bufnr)
  local lint = { select = M.config.lint.select or {}, ignore = M.config.lint.ignore or {} }
  return {
    name = 'silp-lsp',
    cmd = M.config.cmd,
    root_dir = M.root_dir(vim.api.nvim_buf_get_name(bufnr)),
    init_options = { lint = lint, markdown = M.config.markdown },
    settings = { silp = { lint = lint, markdown = { enable = M.config.markdown } } },
  }
end

--- Starts (or reuses) the server for a buffer when it holds a payload document.
--- @param bufnr integer
function M.attach(bufnr)
  if not M.is_payload_buffer(bufnr) then
    return
  end
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    if not warned then
      warned = true
      vim.notify(
        ("silp-lint: the language server `%s` was not found. Install silp-lint so `silp-lsp` is on PATH, "
          .. "or pass its path: require('silp').setup({ cmd = { '/path/to/silp-lsp' } })"):format(M.config.cmd[1]),
        vim.log.levels.WARN
      )
    end
    return
  end
  local config = M.client_config(bufnr)
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = legacy_clients[config.root_dir]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    legacy_clients[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

--- Registers the filetypes and the autocommands that attach the server.
--- @param opts table|nil
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  warned = false
  vim.filetype.add({
    extension = { silp = 'silp', slip = 'slip' },
    -- JSON payload files keep the json filetype (and its highlighting).
    pattern = {
      ['.*%.silp%.jsonl'] = 'json',
      ['.*%.silp%.json'] = 'json',
      ['.*%.nlip%.json'] = 'json',
      ['.*%.mcp%-call%.json'] = 'json',
      ['.*%.a2a%.json'] = 'json',
    },
  })
  local group = vim.api.nvim_create_augroup('silp_lint', { clear = true })
  if vim.fn.has('nvim-0.8') == 0 then
    -- 0.7 detects filetypes with filetype.vim unless g:do_filetype_lua is set.
    vim.api.nvim_create_autocmd({ 'BufNewFile', 'BufRead' }, {
      group = group,
      pattern = { '*.silp', '*.slip', '*.silp.jsonl' },
      callback = function(args)
        local name = args.file
        vim.bo[args.buf].filetype = name:match('%.jsonl$') and 'json' or name:match('%.slip$') and 'slip' or 'silp'
      end,
    })
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = { 'silp', 'slip' },
    callback = function(args)
      vim.bo[args.buf].commentstring = '# %s'
      vim.bo[args.buf].comments = ':#'
    end,
  })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = { 'silp', 'slip', 'json', 'markdown' },
    callback = function(args)
      M.attach(args.buf)
    end,
  })
end

return M
