"""A store path holding a NUL byte is an invalid store path, in Lua and
through ``runvil run --store DIR``, never a Python traceback."""
import io
import json

from runvil.host import main

PROMPT = '''---
name: nul
description: Reaches the store with a NUL byte in a path.
runvil: 0
---

# Nul

## Paths

```lua
local out = {}
for _, name in ipairs({ 'read', 'exists', 'delete' }) do
  local ok, err = pcall(store[name], 'notes\\0.txt')
  out[#out + 1] = err.kind .. ':' .. err.reason .. ':' .. err.message
end
local ok, err = pcall(store.write, 'a\\0/b.txt', 'x')
out[#out + 1] = err.message
var.caught = table.concat(out, ' | ')
```

## Uncaught

```lua
log(var.caught)
store.write('a\\0b', 'x')
```
'''


def test_a_nul_byte_in_a_store_path_is_a_store_error(tmp_path):
    path = tmp_path / 'nul.md'
    path.write_text(PROMPT)
    store = tmp_path / 'store'
    store.mkdir()
    out, err = io.StringIO(), io.StringIO()
    events = tmp_path / 'events.jsonl'
    code = main(['--json', '--store', str(store), '--events', str(events), str(path)], out, err)
    assert 'Traceback' not in err.getvalue()
    assert (code, json.loads(out.getvalue())['error']) == (1, {
        'kind': 'Vfs', 'message': 'invalid store path `a\\0b`: a path has no NUL byte', 'retryable': False,
        'location': None})
    assert list(store.iterdir()) == []
    [checkpoint] = [e['message'] for e in map(json.loads, events.read_text().splitlines()) if e['event'] == 'log']
    assert checkpoint.split(' | ') == [
        'store:invalid_path:invalid store path `notes\\0.txt`: a path has no NUL byte'] * 3 + [
        'invalid store path `a\\0/b.txt`: a path has no NUL byte']
