"""The messages list counts against the section VM's memory ceiling."""
import json
import subprocess
import sys
import textwrap


def test_a_growing_conversation_hits_the_memory_ceiling(tmp_path):
    prompt = tmp_path / 'grow.md'
    prompt.write_text(textwrap.dedent('''\
        ---
        name: grow
        runvil: 0
        ---

        # Grow

        ## Fill

        ```lua
        local chunk = string.rep('x', 4096)
        while true do messages:user(chunk) end
        ```
        '''))
    r = subprocess.run([sys.executable, '-m', 'runvil', 'run', str(prompt), '--json',
                        '--memory-ceiling', '4194304'], capture_output=True, text=True, timeout=120)
    out = json.loads(r.stdout)
    assert out['outcome'] == 'failed'
    assert out['error']['kind'] == 'Lua'
    assert 'memory' in out['error']['message']
