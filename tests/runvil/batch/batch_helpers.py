"""What the batch tests share: a one-round prompt, input files, the
scripted gateway's environment, and reading an output file."""
from __future__ import annotations

import io
import json
import os

from runvil.batch.command import main

HERE = os.path.dirname(os.path.abspath(__file__))

# One model round per input; args.model picks the gateway model id, so a
# test can script some inputs' replies apart from the others'.
PROMPT = '''---
name: echo
description: Answers each input with one model round.
runvil: 0
input:
  description: the text to answer
args:
  - name: model
    default: writer-model
models:
  writer: {}
uses:
  - crash
---

# Echo

## Answer

```lua
if input.text:find('crash') then
  tools.call('crash/exit', { mode = input.text })
end
local reply = models.get(args.model):infer('answer: ' .. input.text)
return input.text .. ' -> ' .. reply
```
'''
REPLY = {'text': 'ok', 'usage': {'prompt_tokens': 7, 'completion_tokens': 2}}


def write_prompt(folder) -> str:
    path = os.path.join(str(folder), 'echo.md')
    with open(path, 'w', encoding='utf-8') as handle:
        handle.write(PROMPT)
    return path


def write_lines(folder, rows, name='inputs.jsonl') -> str:
    path = os.path.join(str(folder), name)
    with open(path, 'w', encoding='utf-8') as handle:
        for row in rows:
            handle.write((row if isinstance(row, str) else json.dumps(row)) + '\n')
    return path


def texts(count: int, start: int = 0) -> list[dict]:
    return [{'id': 'q%d' % number, 'input': 'question %d' % number} for number in range(start, start + count)]


def environ(gw) -> dict:
    return {'RUNVIL_GATEWAY_URL': gw.url, 'RUNVIL_GATEWAY_API_KEY': 'test-key'}


def batch(gw, *argv, stop=None) -> tuple[int, str, str]:
    """``runvil batch`` in-process with the crash Pack offered; the exit
    status, stdout and stderr."""
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main([*argv, '--pack', 'crash_pack'], stdout, stderr, environ(gw), stop)
    return status, stdout.getvalue(), stderr.getvalue()


def read_records(path: str) -> list[dict]:
    with open(path, 'rb') as handle:
        data = handle.read()
    assert data == b'' or data.endswith(b'\n'), 'a partial last line'
    return [json.loads(line) for line in data.splitlines()]


def by_id(records: list[dict]) -> dict:
    ids = [record['id'] for record in records]
    assert len(ids) == len(set(ids)), 'an id written twice: %r' % ids
    return {record['id']: record for record in records}


def without_timings(records: list[dict]) -> list[dict]:
    return sorted((dict(record, seconds=None) for record in records), key=lambda record: json.dumps(record['id']))
