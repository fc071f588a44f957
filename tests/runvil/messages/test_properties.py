"""Properties: a refused edit never changes the list, an accepted one only
appends; composing never changes the records and always alternates."""
import copy

from hypothesis import given
from hypothesis import strategies as st

from message_helpers import result
from runvil.conversation.compose import compose
from runvil.vocabulary.failure import Failure
from runvil.conversation.records import RecordError, check

ROLES = st.sampled_from(["'system'", "'user'", "'assistant'", "'tool'", "'bot'", '1', 'nil'])
CONTENT = st.sampled_from(["'hi'", "''", '5', '{}', "{ { type = 'text', text = 'a' } }",
                           "{ { type = 'image_url', image_url = { url = 'u' } } }", "{ 'x' }",
                           "{ { type = 'audio' } }", 'function() end', 'nil', 'json.null'])
CALLS = st.sampled_from(['nil', '{}', "'x'", "{ { id = 'c1', name = 'n' } }", "{ { id = 'c2', name = 'n', "
                         "arguments = { q = 'v' } } }", "{ { name = 'n' } }", "{ { id = 'c', name = 'n', "
                         "arguments = function() end } }", "{ id = 'c', name = 'n' }"])
IDS = st.sampled_from(['nil', "'c1'", '3', 'function() end'])
META = st.sampled_from(['nil', 'json.null', "{ k = 'v' }", "string.rep('x', 9000)", 'function() end', 'true'])


@st.composite
def edits(draw):
    kind = draw(st.sampled_from(['append', 'system', 'user', 'assistant', 'tool', 'assign']))
    if kind == 'append':
        fields = ['role = %s' % draw(ROLES), 'content = %s' % draw(CONTENT), 'tool_calls = %s' % draw(CALLS),
                  'tool_call_id = %s' % draw(IDS), 'meta = %s' % draw(META), 'extra = %s' % draw(META)]
        record = draw(st.sampled_from(['{ %s }' % ', '.join(fields), "'text'", 'nil', 'messages[1]']))
        return 'messages:append(%s)' % record
    if kind == 'assign':
        return draw(st.sampled_from(['messages[1] = nil', "messages.x = 1", 'messages = {}',
                                     "(messages[1] or messages).role = 'user'", 'messages[#messages + 1] = {}']))
    extra = {'system': [META], 'user': [META], 'assistant': [CALLS, META], 'tool': [IDS, META]}[kind]
    return 'messages:%s(%s)' % (kind, ', '.join([draw(CONTENT)] + [draw(s) for s in extra]))


CHECKER = '''
local function snap()
  local out = {}
  for i = 1, #messages do
    local v = messages[i]
    out[i] = json.encode({ role = v.role, content = v.content, tool_calls = v.tool_calls,
                           tool_call_id = v.tool_call_id, meta = v.meta })
  end
  return out
end
local function same(a, b, n)
  for i = 1, n do if a[i] ~= b[i] then return false end end
  return true
end
for step, edit in ipairs(EDITS) do
  local before = snap()
  local ok, err = pcall(edit)
  local after = snap()
  if ok then
    if #after ~= #before + 1 or not same(after, before, #before) then return 'accepted edit ' .. step .. ' changed earlier records' end
  else
    if type(err) ~= 'table' or err.kind ~= 'lua' then return 'edit ' .. step .. ' raised ' .. tostring(err) end
    if #after ~= #before or not same(after, before, #before) then return 'refused edit ' .. step .. ' changed the list' end
  end
end
return 'ok'
'''


@given(st.lists(edits(), min_size=1, max_size=12))
def test_refused_edits_never_change_the_list(sequence):
    functions = ',\n'.join('function() %s end' % edit for edit in sequence)
    assert result('local EDITS = {\n%s\n}\n%s' % (functions, CHECKER)) == 'ok'


CALL_IDS = st.sampled_from(['c1', 'c2', 'c3'])
TEXTS = st.sampled_from(['', 'a', 'b c'])
PART_LISTS = st.lists(st.one_of(st.builds(lambda t: {'type': 'text', 'text': t}, TEXTS),
                                st.just({'type': 'image_url', 'image_url': {'url': 'data:,'}})),
                      min_size=1, max_size=2)
RAW_RECORDS = st.fixed_dictionaries(
    {'role': st.sampled_from(['system', 'user', 'assistant', 'tool']),
     'content': st.one_of(TEXTS, PART_LISTS)},
    optional={'tool_calls': st.lists(st.builds(lambda i: {'id': i, 'name': 'n', 'arguments': {'k': [i]}},
                                               CALL_IDS), min_size=1, max_size=2),
              'tool_call_id': CALL_IDS, 'meta': st.just({'m': 1})})


def stored(raw_records):
    """The records a list would hold: each checked at its position."""
    records = []
    for data in raw_records:
        try:
            records.append(check(data, len(records) + 1))
        except RecordError:
            pass
    return records


@given(st.lists(RAW_RECORDS, max_size=10))
def test_composing_never_changes_the_list(raw_records):
    records = stored(raw_records)
    before = copy.deepcopy(records)
    try:
        sent = compose(records)
    except Failure:
        assert records == before
        return
    assert records == before
    for message in sent:           # the request shares nothing with the list
        if isinstance(message['content'], list):
            message['content'].clear()
        message.clear()
    assert records == before


@given(st.lists(RAW_RECORDS, max_size=10))
def test_a_composed_request_alternates_roles_except_between_tool_results(raw_records):
    records = stored(raw_records)
    try:
        sent = compose(records)
    except Failure:
        return
    roles = [m['role'] for m in sent]
    assert all(a != b or a == 'tool' for a, b in zip(roles, roles[1:]))
    assert all(set(m) <= {'role', 'content', 'tool_call_id', 'tool_calls'} for m in sent)
