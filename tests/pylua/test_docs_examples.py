"""The examples in docs/pylua-api.md run as written."""
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'pylua-api.md'
BLOCKS = re.findall(r'```python\n(.*?)```', DOC.read_text(), re.S)


@pytest.mark.parametrize('code', BLOCKS, ids=[str(i) for i in range(len(BLOCKS))])
def test_example_runs(code):
    exec(compile(code, str(DOC), 'exec'), {})
