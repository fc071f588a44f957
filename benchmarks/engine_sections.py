"""What a fresh VM per section costs a run, and how fast a small run starts.

    python -m benchmarks.engine_sections [--sections N] [--repeat R] [--json FILE]

(a) A prompt of N small sections (default 200), each with a little prose
and a block that updates ``var``, run in-process through the Harness: the
first run of the process (cold: parsing, compiling every block) and the best
of the following runs (warm: pylua's compile cache hit).  Target (issue 6):
under 1 s.
(b) ``runvil run`` of a one-section prompt that needs no model, as a
subprocess from the shell: wall time including interpreter start-up and
imports.  Target: under 0.4 s.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SECTIONS_TARGET_S = 1.0
COMMAND_TARGET_S = 0.4

ONE_SECTION = """---
name: one
description: One section, no model.
runvil: 0
---

# One

## Only

```lua
return 'done'
```
"""


def many_sections(count: int) -> str:
    parts = ['---\nname: many\ndescription: Many small sections.\nrunvil: 0\n---\n\n# Many\n']
    for number in range(1, count + 1):
        parts.append('\n## Step %d\n\nAdd %d.\n\n```lua\nvar.total = (var.total or 0) + %d\n'
                     'if %d == %d then return var.total end\n```\n' % (number, number, number, number, count))
    return ''.join(parts)


def time_sections(count: int, repeat: int) -> tuple[float, float, str]:
    from runvil.harness import Harness
    text = many_sections(count)
    times = []
    for _ in range(repeat + 1):
        start = time.perf_counter()
        outcome = Harness().run(text, 'many.md')
        times.append(time.perf_counter() - start)
    assert outcome.result == str(count * (count + 1) // 2), outcome.to_dict()
    return times[0], min(times[1:]), outcome.result


def time_command(repeat: int) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, 'one.md')
        with open(path, 'w') as handle:
            handle.write(ONE_SECTION)
        best = None
        for _ in range(repeat):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, '-m', 'runvil', 'run', path], capture_output=True, text=True)
            elapsed = time.perf_counter() - start
            assert done.stdout == 'done\n', (done.stdout, done.stderr)
            best = elapsed if best is None else min(best, elapsed)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m benchmarks.engine_sections')
    parser.add_argument('--sections', type=int, default=200)
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--json', metavar='FILE')
    options = parser.parse_args(argv)
    cold, warm, _ = time_sections(options.sections, options.repeat)
    command = time_command(options.repeat)
    print('%d sections, in-process: first run %.3f s, best warm run %.3f s (target < %.1f s)'
          % (options.sections, cold, warm, SECTIONS_TARGET_S))
    print('runvil run, one section, wall time from the shell: best %.3f s (target < %.1f s)'
          % (command, COMMAND_TARGET_S))
    if options.json:
        with open(options.json, 'w') as handle:
            json.dump({'sections': options.sections, 'first_run_s': cold, 'warm_run_s': warm,
                       'one_section_command_s': command}, handle, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
