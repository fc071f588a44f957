"""A failed compaction puts the list back exactly as it was before the
compactor ran: random compactor programs edit the list with builders,
append, replace and clear, then fail at a random step in one of the ways a
compaction fails, and ``messages`` must read the same records, in the same
order, with the same meta, as the snapshot; views read before still show
their records."""
from hypothesis import given
from hypothesis import strategies as st

from gateway_runs import result
from loop_helpers import chat

EDITS = st.sampled_from([
    "messages:user('u', { step = STEP })",
    "messages:assistant('a')",
    "messages:assistant('', { { id = 'c' .. STEP, name = 'read', arguments = { n = STEP } } })"
    ":tool('r', 'c' .. STEP, { 'meta', STEP })",
    "messages:append({ role = 'user', content = 'appended', meta = { step = STEP } })",
    "messages:append(messages[1] or { role = 'user', content = 'first' })",
    "messages:replace(1, #messages, { role = 'user', content = 'summary' })",
    "messages:replace(#messages + 1, #messages, { role = 'assistant', content = 'end' })",
    "if #messages > 1 then messages:replace(2, 2) end",
    "compactors.clear(reason)",
    "pcall(messages.replace, messages, 0, 0)",
    "pcall(messages.system, messages, 'late')",
])

# How the compactor fails, after its edits.
FAILURES = {
    'string': "error('gave up', 0)",
    'table': "error({ code = 7 })",
    'fail': "compactors.fail('no luck')",
    'refused edit': "messages:replace(0, 0)",
    'missing result': "messages:assistant('', { { id = 'lost', name = 'read' } })",
    'duplicate ids': ("messages:assistant('', { { id = 'twice', name = 'read' } }):tool('r', 'twice')"
                      ":assistant('', { { id = 'twice', name = 'read' } }):tool('r', 'twice')"),
    # Only the loop judges size: a compactor that leaves the list as large
    # as the round it could not send fails the compaction.
    'did not shrink': "messages:user(string.rep('y', 100000))",
    # A list that shrank but still overflows the retried round.
    'retry overflows': "compactors.clear(reason)\n  messages:user('kept'):user(string.rep('z', 60000))",
}
LOOP_ONLY = {'did not shrink', 'retry overflows'}

PROGRAM = '''
local function fields(view)
  return json.encode({ view.role, view.content, view.tool_calls or json.null,
                       view.tool_call_id or json.null, view.meta or json.null })
end
local function snap()
  local out = {}
  for i = 1, #messages do out[i] = fields(messages[i]) end
  return table.concat(out, '\\n')
end
messages:system('s0'):user(string.rep('x', 100000), { n = 0 }):assistant('a0', nil, 'meta')
messages:assistant('', { { id = 'c0', name = 'read', arguments = { q = 'x' } } }):tool('r0', 'c0')
local before = snap()
local views = {}
for i = 1, #messages do views[i] = messages[i] end
local same = messages
local compactor = function(reason)
  STEPS
end
local ok = pcall(ENTRY)
if ok then return 'the compaction did not fail' end
if messages ~= same then return 'messages changed identity' end
if snap() ~= before then return 'restored:\\n' .. snap() .. '\\nexpected:\\n' .. before end
for i, view in ipairs(views) do
  if fields(view) ~= fields(messages[i]) then return 'view ' .. i .. ' shows another record' end
end
return 'ok'
'''

ENTRIES = {
    'models.compact': "models.compact, compactor, 'why'",
    'models.loop': 'models.loop, compactor',
}


@given(st.lists(EDITS, max_size=8), st.sampled_from(sorted(FAILURES)), st.sampled_from(sorted(ENTRIES)))
def test_a_failed_compaction_restores_the_list(edits, failure, entry):
    if failure in LOOP_ONLY:
        entry = 'models.loop'
    steps = [edit.replace('STEP', str(n)) for n, edit in enumerate(edits, 1)] + [FAILURES[failure]]
    source = PROGRAM.replace('STEPS', '\n  '.join(steps)).replace('ENTRY', ENTRIES[entry])
    assert result(None, chat(source), context_window=4096) == 'ok'


def test_records_added_by_builders_go_when_the_compactor_raises():
    source = ("messages:user(string.rep('x', 100000))\n"
              "local ok, err = pcall(models.loop, function(reason)\n"
              "  messages:user('more'):assistant('reply')\n"
              "  messages:append({ role = 'user', content = 'appended' })\n"
              "  error('gave up', 0)\n"
              "end)\n"
              "return tostring(err) .. '|' .. #messages .. '|' .. #messages[1].content")
    assert result(None, chat(source), context_window=4096) == 'gave up|1|100000'


def test_a_retry_that_overflows_again_restores_the_list():
    source = ("messages:user(string.rep('x', 100000))\n"
              "local ok, err = pcall(models.loop, function(reason)\n"
              "  compactors.clear(reason)\n"
              "  messages:user('kept'):user(string.rep('z', 60000))\n"
              "end)\n"
              "return err.kind .. '|' .. err.reason .. '|' .. #messages .. '|' .. #messages[1].content")
    assert result(None, chat(source), context_window=4096) == 'context_exhausted|precheck|1|100000'
