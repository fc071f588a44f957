"""bounded_json: the nesting it measures on the text is the decoded value's
depth, whatever the strings hold, and loads decodes exactly what json
does within the bound."""
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runvil.vocabulary.bounded_json import MAX_DEPTH, TooDeep, loads, nesting

# Strings full of the characters the measurement must see past.
TEXT = st.text(alphabet='[]{}"\\ab\n\u00e9', max_size=8)
VALUES = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                      max_leaves=20)


def depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@given(VALUES, st.booleans())
def test_the_measured_nesting_is_the_value_depth(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nesting(text) == depth(value)
    assert loads(text) == json.loads(text)


@pytest.mark.parametrize('text', ['[' * (MAX_DEPTH + 1) + ']' * (MAX_DEPTH + 1), '[' * 200_000,
                                  '{"a":' * 200_000, '[' * 100_000 + '"' + ']' * 100_000])
def test_a_text_past_the_bound_is_refused_before_decoding(text):
    with pytest.raises(TooDeep, match='nested more than 256 levels deep'):
        loads(text)


def test_brackets_inside_strings_do_not_count():
    text = '[' * MAX_DEPTH + json.dumps('[' * 10_000 + '\\"' + '{' * 10_000) + ']' * MAX_DEPTH
    assert nesting(text) == MAX_DEPTH
    assert loads(text) is not None


@pytest.mark.parametrize('text', [' {"a": 1}', '[1]\n', '\t"x" ', '{"a": 1} {"b": 2}', '[1] x', '',
                                  '   ', '\ufeff[1]', '{"a": }', 'NaN', '1e400', '"\\ud800"'])
def test_loads_takes_and_refuses_what_json_does_with_its_words(text):
    try:
        expected = json.loads(text)
    except ValueError as err:
        with pytest.raises(ValueError) as raised:
            loads(text)
        assert str(raised.value) == str(err)
    else:
        assert repr(loads(text)) == repr(expected)
