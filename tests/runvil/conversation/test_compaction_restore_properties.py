"""A failed compaction puts the list back exactly as it was before the
compactor ran: random compactor programs edit the list with builders,
append, replace and clear, then fail at a random step in one of the ways a
compaction fails, and ``messages`` must read the same records, in the same
order, with the same meta, as the snapshot; views read before still show
their records."""
from hypothesis import given
from hypothesis import strategies as st

from gateway_runs import environment, result
from runvil.harness import Harness
from loop_helpers import chat

# Each edit is a function of its step number; the program is the same for
# every example (its plan comes as args), so it compiles once.
EDITS = [
    "messages:user('u', { step = n })",
    "messages:assistant('a')",
    "messages:assistant('', { { id = 'c' .. n, name = 'read', arguments = { n = n } } })"
    ":tool('r', 'c' .. n, { 'meta', n })",
    "messages:append({ role = 'user', content = 'appended', meta = { step = n } })",
    "messages:append(messages[1] or { role = 'user', content = 'first' })",
    "messages:replace(1, #messages, { role = 'user', content = 'summary' })",
    "messages:replace(#messages + 1, #messages, { role = 'assistant', content = 'end' })",
    "if #messages > 1 then messages:replace(2, 2) end",
    "compactors.clear(reason)",
    "pcall(messages.replace, messages, 0, 0)",
    "pcall(messages.system, messages, 'late')",
]

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
    'did not shrink': "messages:user(string.rep('y', 20000))",
    # A list that shrank but still overflows the retried round.
    'retry overflows': "compactors.clear(reason) messages:user('kept'):user(string.rep('z', 16000))",
}
LOOP_ONLY = {'did not shrink', 'retry overflows'}

HEAD = ('args:\n  - {name: plan, type: string}\n  - {name: failure, type: string}\n'
        '  - {name: entry, type: string}\nmodels:\n  writer: {}\n')

PROGRAM = """
local edits = { %s }
local failures = { %s }
local function fields(view)
  return json.encode({ view.role, view.content, view.tool_calls or json.null,
                       view.tool_call_id or json.null, view.meta or json.null })
end
local function snap()
  local out = {}
  for i = 1, #messages do out[i] = fields(messages[i]) end
  return table.concat(out, '\\n')
end
messages:system('s0'):user(string.rep('x', 20000), { n = 0 }):assistant('a0', nil, 'meta')
messages:assistant('', { { id = 'c0', name = 'read', arguments = { q = 'x' } } }):tool('r0', 'c0')
local before = snap()
local views = {}
for i = 1, #messages do views[i] = messages[i] end
local same = messages
local compactor = function(reason)
  local n = 0
  for edit in args.plan:gmatch('%%d+') do
    n = n + 1
    edits[tonumber(edit)](n, reason)
  end
  failures[args.failure](reason)
end
local ok
if args.entry == 'models.loop' then ok = pcall(models.loop, compactor)
else ok = pcall(models.compact, compactor, 'why') end
if ok then return 'the compaction did not fail' end
if messages ~= same then return 'messages changed identity' end
if snap() ~= before then return 'restored:\\n' .. snap() .. '\\nexpected:\\n' .. before end
for i, view in ipairs(views) do
  if fields(view) ~= fields(messages[i]) then return 'view ' .. i .. ' shows another record' end
end
return 'ok'
""" % (', '.join('function(n, reason) %s end' % edit for edit in EDITS),
       ', '.join("['%s'] = function(reason) %s end" % item for item in FAILURES.items()))


@given(st.lists(st.integers(1, len(EDITS)), max_size=8), st.sampled_from(sorted(FAILURES)),
       st.sampled_from(['models.compact', 'models.loop']))
def test_a_failed_compaction_restores_the_list(edits, failure, entry):
    if failure in LOOP_ONLY:
        entry = 'models.loop'
    args = {'plan': ','.join(map(str, edits)) or '-', 'failure': failure, 'entry': entry}
    done = Harness(environment=environment(4096)).run(chat(PROGRAM, head=HEAD), 't.md', args=args)
    assert (done.status, done.result) == ('completed', 'ok'), done.to_dict()


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
