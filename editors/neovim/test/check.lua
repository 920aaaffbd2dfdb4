-- Headless check of silp.lua: `nvim --headless -u NONE -l` is 0.9+, so run as
--   nvim --headless -u NONE -c "luafile editors/neovim/test/check.lua"
-- with SILP_TEST_DIR (a scratch folder) and SILP_FAKE_SERVER (fake-server.js) set.
local dir = os.getenv('SILP_TEST_DIR')
local fake = os.getenv('SILP_FAKE_SERVER')
local here = vim.fn.fnamemodify(fake, ':h:h')
package.path = here .. '/?.lua;' .. package.path

local failures = {}
local function check(ok, what)
  if not ok then
    table.insert(failures, what)
  end
end

vim.cmd('filetype on')
local silp = require('silp')
local log = dir .. '/messages.jsonl'
silp.setup({ cmd = { 'node', fake, log }, lint = { select = { 'SL1' }, ignore = { 'SL302' } } })

local files = {
  ['payloads.silp'] = { ft = 'silp', text = 'if !rain(t+1): start(hike) else: start(cards@indoor)' },
  ['wire.slip'] = { ft = 'slip', text = 'SLIP v1 alice bob RequestReview' },
  ['doc.silp.json'] = { ft = 'json', text = '{"intent": "!CANCEL"}' },
  ['lines.silp.jsonl'] = { ft = 'json', text = '{"intent": "!CANCEL"}' },
  ['notes.md'] = { ft = 'markdown', text = '```silp\ncancel(x)\n```' },
  ['other.json'] = { ft = 'json', text = '{}' },
}
local names = vim.tbl_keys(files)
table.sort(names)
for _, name in ipairs(names) do
  local path = dir .. '/' .. name
  vim.fn.writefile(vim.split(files[name].text, '\n'), path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  check(vim.bo.filetype == files[name].ft, name .. ' has filetype ' .. files[name].ft .. ' (got ' .. vim.bo.filetype .. ')')
  if files[name].ft == 'silp' then
    check(vim.bo.commentstring == '# %s', 'silp commentstring')
  end
end

-- Wait for the didOpen notifications to reach the fake server.
vim.wait(5000, function()
  local ok, lines = pcall(vim.fn.readfile, log)
  if not ok then
    return false
  end
  local opened = 0
  for _, line in ipairs(lines) do
    if line:find('textDocument/didOpen', 1, true) then
      opened = opened + 1
    end
  end
  return opened >= 5
end, 50)

local opened, init = {}, nil
local ok_read, logged = pcall(vim.fn.readfile, log)
for _, line in ipairs(ok_read and logged or {}) do
  local message = vim.fn.json_decode(line)
  if message.method == 'initialize' then
    init = message.params
  elseif message.method == 'textDocument/didOpen' then
    opened[vim.fn.fnamemodify(vim.uri_to_fname(message.params.textDocument.uri), ':t')] = true
  end
end
check(init ~= nil, 'the server was initialized')
if init then
  check(vim.deep_equal(init.initializationOptions.lint, { select = { 'SL1' }, ignore = { 'SL302' } }), 'initializationOptions carry the rule selection')
end
for _, name in ipairs({ 'payloads.silp', 'wire.slip', 'doc.silp.json', 'lines.silp.jsonl', 'notes.md' }) do
  check(opened[name], name .. ' was sent to the server')
end
check(not opened['other.json'], 'a plain JSON file was not sent to the server')

-- One client serves the whole folder.
local clients = (vim.lsp.get_clients or vim.lsp.get_active_clients)()
check(#clients == 1, 'one client for the folder (got ' .. #clients .. ')')

for _, client in ipairs(clients) do
  client.stop()
end

-- Without a server binary: one warning that says how to point at it.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
end
silp.setup({ cmd = { 'no-such-silp-lsp-binary' } })
for _, name in ipairs({ 'again.silp', 'again.slip' }) do
  vim.fn.writefile({ 'cancel(x)' }, dir .. '/' .. name)
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/' .. name))
end
check(#notes == 1, 'one warning when the server is missing (got ' .. #notes .. ')')
if notes[1] then
  check(notes[1].msg:find('no-such-silp-lsp-binary', 1, true) ~= nil, 'the warning names the command')
  check(notes[1].msg:find("setup({ cmd", 1, true) ~= nil, 'the warning says how to set the command')
end
if #failures > 0 then
  for _, f in ipairs(failures) do
    io.stderr:write('not ok: ' .. f .. '\n')
  end
  vim.cmd('cquit 1')
else
  io.stdout:write('neovim: all checks passed\n')
  vim.cmd('qall!')
end
