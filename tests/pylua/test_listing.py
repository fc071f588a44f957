"""``pylua -l`` and ``pylua --emit-python``, and generated code in ``linecache``."""
import linecache
import subprocess
import sys

import pytest

from pylua.compiler import listing, pipeline
from pylua.runtime.errors import LuaSyntaxError

SOURCE = '''local t = {a = 1}
t.b = t.a + 2
local function greet(x, ...) return print("yield from", x, ...) end
print(greet(t.b))
'''


def test_bytecode_listing_shows_each_operand_by_its_format():
    text = listing.show_chunk(SOURCE, 'f.lua')
    assert 'main <f.lua:0,0>' in text and "function <f.lua:3,3>" in text
    assert 'SETTABLE \tR0 K2("b") R1' in text           # a register in C is R1, not 1
    assert 'GETTABUP \tR1 U0(_ENV) K0("print")' in text
    assert 'CALL     \tR1 multi multi' in text
    assert 'CLOSURE  \tR1 F0(<f.lua:3>)' in text
    assert '\t1\tS\t"yield from"' in text                 # the constants, luac -l -l style


def test_bytecode_listing_does_not_translate(monkeypatch):
    def refuse(*args):
        raise AssertionError('translated')
    monkeypatch.setattr(pipeline, 'translate', refuse)
    assert 'RETURN' in listing.show_chunk('return 1', 'r.lua')


def test_listing_of_bad_source_is_a_syntax_error():
    with pytest.raises(LuaSyntaxError, match="x.lua:1: unexpected symbol near '\\+'"):
        listing.show_chunk('+', 'x.lua')


def test_emit_python_prints_both_forms_of_every_function_as_python():
    text = listing.show_chunk(SOURCE, 'f.lua', python=True)
    compile(text, 'emitted', 'exec')
    for head in ("function <f.lua:3> 'greet': plain form", 'main chunk: plain form',
                 "function <f.lua:3> 'greet': generator form", 'main chunk: generator form'):
        assert '# --- %s\n' % head in text
    assert "'yield from'" in text and 'SYNC(' in text and 'yield from call(' in text


def test_emit_python_from_the_command_line(tmp_path):
    (tmp_path / 'f.lua').write_text(SOURCE)
    done = subprocess.run([sys.executable, '-m', 'pylua', '--emit-python', 'f.lua'], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0
    compile(done.stdout, 'emitted', 'exec')


def test_generated_code_is_in_linecache():
    compiled = pipeline.compile_lua('local x = ... return x + 1', '=linecache test')
    code = compiled.module_code
    filename = code.co_filename
    assert filename.startswith('<lua =linecache test ')
    assert linecache.getline(filename, code.co_firstlineno).strip() == 'def MODULE():'
