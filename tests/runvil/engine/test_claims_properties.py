"""Properties of claims: random trees of tasks, fanout arms and calls that
use the store in the orders spawns and joins make safe never conflict,
however the Harness orders its answers; two chains writing one path
conflict (Determinism) exactly when neither waits for the other."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine_helpers import WaitLibrary, drive, tree_prompt
from runvil.engine import CancelFlag, Engine
from runvil.harness import RunLimits
from runvil.harness.store_answerer import MemoryStore, StoreAnswerer

pytestmark = pytest.mark.slow

# Each node reads its parent's file (written before the spawn), writes its
# own, starts its children, takes their ends and reads their files.  A
# racer also writes race.txt: early (before its children start) or late
# (once they have started, before their ends are taken; after the calls
# or the fanout, which take the ends themselves).
NODE = r'''
if args.prog == nil then return end
local p = args.prog
if p.pid then assert(store.read('n' .. p.pid .. '.txt') == 'w' .. p.pid) end
store.write('n' .. p.id .. '.txt', 'w' .. p.id)
if p.race == 'early' then store.write('race.txt', tostring(p.id)) end
for i = 1, p.waits do wait(i) end
local kids = p.kids or {}
if p.mode == 'call' then
  for _, c in ipairs(kids) do call('Node', {prog = c}) end
  if p.race == 'late' then store.write('race.txt', tostring(p.id)) end
elseif p.mode == 'fanout' then
  local inputs = {}
  for i, c in ipairs(kids) do inputs[i] = {prog = c} end
  tasks.fanout('Node', inputs)
  if p.race == 'late' then store.write('race.txt', tostring(p.id)) end
else
  local hs = {}
  for i, c in ipairs(kids) do hs[i] = tasks.spawn('Node', {prog = c}) end
  if p.race == 'late' then store.write('race.txt', tostring(p.id)) end
  if p.mode == 'any' then
    local left = hs
    while #left > 0 do
      local h = tasks.join_any(left)
      local rest = {}
      for _, x in ipairs(left) do if x ~= h then rest[#rest + 1] = x end end
      left = rest
    end
  else
    for i = #hs, 1, -1 do tasks.join(hs[i]) end
  end
end
for _, c in ipairs(kids) do assert(store.read('n' .. c.id .. '.txt') == 'w' .. c.id) end
return 1
'''


@st.composite
def trees(draw, depth: int = 0):
    kids = [] if depth >= 3 else draw(st.lists(trees(depth=depth + 1), max_size=3 if depth < 2 else 2))
    node = {'mode': draw(st.sampled_from(('spawn', 'any', 'fanout', 'call'))), 'waits': draw(st.integers(0, 1))}
    if kids:
        node['kids'] = kids
    return node


def number(roots: list[dict]) -> list[dict]:
    """Ids depth first; each node knows its parent's id and its ancestors."""
    count = 0

    def visit(node, parent, ancestors):
        nonlocal count
        node['id'] = count
        count += 1
        if parent is not None:
            node['pid'] = parent['id']
        node['_path'] = ancestors + [node]
        for kid in node.get('kids', ()):
            visit(kid, node, node['_path'])
    for root in roots:
        visit(root, None, [])
    return roots


def nodes(roots):
    for root in roots:
        yield root
        yield from nodes(root.get('kids', ()))


def concurrent(x: dict, y: dict) -> bool:
    """Neither write waits for the other.  Above and below: only a late
    write of a node that starts its children side by side (spawn, any)
    races with its descendants.  Apart: their lowest common ancestor (the
    main chain when none) starts its children side by side rather than
    calling them one after another."""
    px, py = x['_path'], y['_path']
    if x in py or y in px:
        upper = x if x in py else y
        return upper['race'] == 'late' and upper['mode'] in ('spawn', 'any')
    shared = [a for a, b in zip(px, py) if a is b]
    return not shared or shared[-1]['mode'] != 'call'


def run_tree(roots, limit: int, data) -> dict:
    text = tree_prompt([_public(root) for root in roots], NODE, "'done'")
    engine = Engine(text, 't.md', limits=RunLimits(concurrency=limit), cancel=CancelFlag(),
                    libraries=(WaitLibrary(),))
    store = StoreAnswerer(MemoryStore())
    outcome = drive(engine, lambda n: data.draw(st.integers(0, n - 1)), answers={'store': store.answer})
    return outcome.to_dict()


def _public(node: dict) -> dict:
    """A node as the Lua program sees it (without the test's own links)."""
    shown = {key: value for key, value in node.items() if not key.startswith('_')}
    if 'kids' in shown:
        shown['kids'] = [_public(kid) for kid in shown['kids']]
    return shown


@given(roots=st.lists(trees(), min_size=1, max_size=3).map(number), limit=st.integers(1, 4), data=st.data())
def test_store_use_ordered_by_spawns_and_joins_never_conflicts(roots, limit, data):
    assert run_tree(roots, limit, data) == {'outcome': 'completed', 'result': 'done', 'error': None}


@given(roots=st.lists(trees(), min_size=1, max_size=3).map(number), limit=st.integers(1, 4), data=st.data())
def test_two_writers_of_one_path_conflict_exactly_when_neither_waits_for_the_other(roots, limit, data):
    every = list(nodes(roots))
    if len(every) < 2:
        return
    x, y = data.draw(st.lists(st.sampled_from(every), min_size=2, max_size=2, unique_by=id))
    x['race'] = data.draw(st.sampled_from(('early', 'late')))
    y['race'] = data.draw(st.sampled_from(('early', 'late')))
    outcome = run_tree(roots, limit, data)
    if concurrent(x, y):
        assert outcome['outcome'] == 'failed' and outcome['error']['kind'] == 'Determinism', outcome
        assert outcome['error']['message'].startswith('claims conflict on store path race.txt: ')
    else:
        assert outcome == {'outcome': 'completed', 'result': 'done', 'error': None}
