"""Properties of replace: inside a compactor, an accepted replace is exactly
the splice it names, a refused one leaves the list unchanged, and a failed
compaction puts every record back."""
from hypothesis import given
from hypothesis import strategies as st

from gateway_runs import result
from loop_helpers import chat

RECORDS = st.sampled_from(["{ role = 'user', content = 'u' }", "{ role = 'assistant', content = 'a' }",
                           "{ role = 'system', content = 's' }", "{ role = 'user' }", "{ role = 'bot', content = 'x' }",
                           "{ role = 'tool', content = 't', tool_call_id = 'c' }", "'text'",
                           "{ role = 'user', content = function() end }"])
BOUNDS = st.sampled_from(['0', '1', '2', '3', '4', '5', '6', '-1', '1.5', '2.0', "'2'", 'nil', '#messages',
                          '#messages + 1'])


@st.composite
def replaces(draw):
    args = [draw(BOUNDS), draw(BOUNDS)] + draw(st.lists(RECORDS, max_size=3))
    return 'messages:replace(%s)' % ', '.join(args)


CHECKER = '''
local function snap()
  local out = {}
  for i = 1, #messages do out[i] = messages[i].role .. ':' .. json.encode({ messages[i].content }) end
  return table.concat(out, '\\n')
end
messages:system('s0'):user('u1'):assistant('a1'):user('u2')
local original = snap()
local problem = 'ok'
local compacted = pcall(models.compact, function()
  for step, edit in ipairs(EDITS) do
    local before = snap()
    local ok, err = pcall(edit)
    if not ok then
      if type(err) ~= 'table' or err.kind ~= 'lua' then problem = 'edit ' .. step .. ' raised ' .. tostring(err) return end
      if snap() ~= before then problem = 'refused edit ' .. step .. ' changed the list' return end
    end
  end
end, 'property')
if not compacted and snap() ~= original then return 'a refused compaction did not restore the records' end
local kept = snap()
local ok = pcall(models.compact, function()
  for _, edit in ipairs(EDITS) do pcall(edit) end
  error('abandon')
end, 'property')
if snap() ~= kept then return 'a failed compaction did not restore the records' end
return problem
'''


@given(st.lists(replaces(), min_size=1, max_size=8))
def test_refused_replaces_never_change_the_list_and_failed_compactions_restore(sequence):
    functions = ',\n'.join('function() %s end' % edit for edit in sequence)
    assert result(None, chat('local EDITS = {\n%s\n}\n%s' % (functions, CHECKER))) == 'ok'


@given(st.integers(1, 5), st.integers(0, 4), st.lists(st.sampled_from(['x', 'y']), max_size=3))
def test_an_accepted_replace_is_the_splice(first, last, contents):
    before = ['u1', 'a1', 'u2', 'a2']
    records = ''.join(", { role = 'user', content = '%s' }" % c for c in contents)
    source = ("messages:user('u1'):assistant('a1'):user('u2'):assistant('a2')\n"
              "local ok = pcall(models.compact, function() messages:replace(%d, %d%s) end, 'r')\n"
              "local out = {}\nfor i = 1, #messages do out[i] = messages[i].content end\n"
              "return tostring(ok) .. '|' .. table.concat(out, ' ')" % (first, last, records))
    valid = 1 <= first <= last + 1 <= len(before) + 1
    expected = before[:first - 1] + contents + before[last:] if valid else before
    assert result(None, chat(source)) == '%s|%s' % (str(valid).lower(), ' '.join(expected))
