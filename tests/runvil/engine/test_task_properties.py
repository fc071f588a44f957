"""Properties of task scheduling: random trees of tasks that wait on the
Harness, spawn children and take their ends (join in order or in reverse,
join_any, a timed join, fanout) or call them, under a random concurrency
limit, with the effects answered in a random order.

Every run ends (no deadlock), its result is the sum the program computes,
tasks start in the order they were spawned, and the tasks waiting on the
Harness at any moment never outnumber the run's concurrency limit: a task
only issues an effect while it holds a slot, and a task waiting on other
tasks lends its slot, so nested joins never starve.

Two drivers: one steps the Engine itself and draws which waiting effect is
answered next (deterministic, so hypothesis shrinks a failure to a small
tree); one runs the real Harness, answering from a thread of its own.
"""
from __future__ import annotations

import random
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine_helpers import WaitLibrary, drive, tree_prompt
from runvil.engine import Answer, CancelFlag, Engine
from runvil.harness import EventStream, Harness, RunHandle, RunLimits

pytestmark = pytest.mark.slow

WAIT = 'test.wait'


# One section interprets every task: its args.prog says what the task does.
NODE = r'''
if args.prog == nil then return end
local p = args.prog
if p.own then tasks.concurrency(p.own) end
local s = p.v
for i = 1, p.before do s = s + wait(p.v) end
local kids = p.kids or {}
if p.mode == 'call' then
  for i, c in ipairs(kids) do s = s + call('Node', {prog = c}) end
elseif p.mode == 'fanout' then
  local inputs = {}
  for i, c in ipairs(kids) do inputs[i] = {prog = c} end
  for _, r in ipairs(tasks.fanout('Node', inputs)) do s = s + r end
else
  local hs = {}
  for i, c in ipairs(kids) do hs[i] = tasks.spawn('Node', {prog = c}) end
  if p.mode == 'order' then
    for i = 1, #hs do s = s + tasks.join(hs[i]) end
  elseif p.mode == 'reverse' then
    for i = #hs, 1, -1 do s = s + tasks.join(hs[i]) end
  elseif p.mode == 'timed' then
    for i = 1, #hs do
      local r, why = tasks.join(hs[i], 0.001)
      if r == nil then
        assert(why == 'timeout', 'a timed join returned nil without timing out')
        r = tasks.join(hs[i])
      end
      s = s + r
    end
  else
    local left = hs
    while #left > 0 do
      local h, r = tasks.join_any(left)
      s = s + r
      local rest = {}
      for _, x in ipairs(left) do if x ~= h then rest[#rest + 1] = x end end
      assert(#rest == #left - 1, 'join_any returned a task not in its list')
      left = rest
    end
  end
end
for i = 1, p.after do s = s + wait(1) end
if p.fail then error('boom ' .. p.id, 0) end
assert(#tasks.list() == 0, 'a joined task is still listed')
return s
'''

MODES = ('order', 'reverse', 'any', 'timed', 'fanout', 'call')


@st.composite
def trees(draw, depth: int = 0, max_depth: int = 3):
    kids = [] if depth >= max_depth else draw(st.lists(trees(depth=depth + 1, max_depth=max_depth),
                                                          max_size=3 if depth < 2 else 2))
    node = {'v': draw(st.integers(0, 9)), 'before': draw(st.integers(0, 2)),
            'after': draw(st.integers(0, 1)), 'mode': draw(st.sampled_from(MODES))}
    own = draw(st.sampled_from((None, None, 1, 2)))
    if own is not None:
        node['own'] = own       # tasks.concurrency(own): a cap on this task's own children
    if kids:
        node['kids'] = kids
    return node


def number(roots: list[dict]) -> list[dict]:
    """Give each node an id (for its failure message), depth first, and
    the id of the chain that runs it: ``0.1.0`` is the first task of the
    main chain's second task, ``0.1.c0`` the first call it makes."""
    count = 0

    def visit(node, task):
        nonlocal count
        node['id'], node['task'] = count, task
        count += 1
        form = '%s.c%d' if node['mode'] == 'call' else '%s.%d'
        for i, kid in enumerate(node.get('kids', ())):
            visit(kid, form % (task, i))
    for i, root in enumerate(roots):
        visit(root, '0.%d' % i)
    return roots


def nodes(roots):
    for root in roots:
        yield root
        yield from nodes(root.get('kids', ()))


def expected(node: dict) -> int:
    return node['v'] * (1 + node['before']) + node['after'] + sum(map(expected, node.get('kids', ())))


def is_task(chain_id: str) -> bool:
    """A task's chain, not a call chain (which reports no task events)."""
    return not chain_id.rpartition('.')[2].startswith('c')


def count(roots) -> int:
    """How many of the nodes run as tasks."""
    return sum(1 for node in nodes(roots) if is_task(node['task']))


def owner_and_index(task: str) -> tuple[str, int]:
    owner, _, index = task.rpartition('.')
    return owner, int(index)


def in_spawn_order(started: list[str]) -> bool:
    """Each chain's tasks start in the order that chain spawned them (a
    chain's own cap may let another chain's later task start first)."""
    last: dict[str, int] = {}
    for task in started:
        owner, index = owner_and_index(task)
        if index <= last.get(owner, -1):
            return False
        last[owner] = index
    return True


programs = st.lists(trees(), min_size=1, max_size=3).map(number)


def task_events(events: list[dict]) -> tuple[list, list, list]:
    spawned = [e['task'] for e in events if e['event'] == 'task_spawned']
    started = [e['task'] for e in events if e['event'] == 'task_started']
    finished = [(e['task'], e['status']) for e in events if e['event'] == 'task_finished']
    return spawned, started, finished


@given(roots=programs, limit=st.integers(1, 4), data=st.data())
def test_random_task_trees_end_with_their_sum_within_the_limit(roots, limit, data):
    events: list[dict] = []
    engine = Engine(tree_prompt(roots, NODE), 't.md', limits=RunLimits(concurrency=limit), cancel=CancelFlag(),
                    emit=lambda name, /, **fields: events.append(dict(fields, event=name)),
                    libraries=(WaitLibrary(),))
    peak = []

    def check(waiting: int) -> None:
        peak.append(waiting)
        assert waiting <= limit, 'tasks waiting on the Harness at once: %d, limit %d' % (waiting, limit)

    outcome = drive(engine, lambda n: data.draw(st.integers(0, n - 1)),
                    lambda effects: check(sum(1 for effect in effects if effect.kind == WAIT)))
    assert outcome.to_dict() == {'outcome': 'completed', 'result': str(sum(map(expected, roots))), 'error': None}
    spawned, started, finished = task_events(events)
    total = count(roots)
    assert len(spawned) == len(started) == len(finished) == total
    assert sorted(started) == sorted(spawned) and in_spawn_order(started), 'queued tasks start in spawn order'
    if not any('own' in node for node in nodes(roots)):
        assert started == spawned       # no chain caps its own: one queue, in spawn order
    assert all(status == 'completed' for _, status in finished)
    assert max(peak, default=0) <= limit


@given(roots=programs, limit=st.integers(1, 4), data=st.data())
def test_one_failing_task_fails_the_run_with_its_own_error(roots, limit, data):
    every = list(nodes(roots))
    culprit = data.draw(st.sampled_from(every))
    culprit['fail'] = True
    events: list[dict] = []
    engine = Engine(tree_prompt(roots, NODE), 't.md', limits=RunLimits(concurrency=limit), cancel=CancelFlag(),
                    emit=lambda name, /, **fields: events.append(dict(fields, event=name)),
                    libraries=(WaitLibrary(),))
    outcome = drive(engine, lambda n: data.draw(st.integers(0, n - 1)))
    assert outcome.to_dict() == {'outcome': 'failed', 'result': None, 'error': {
        'kind': 'Lua', 'message': 'boom %d' % culprit['id'], 'retryable': False, 'location': None}}
    spawned, started, finished = task_events(events)
    ended = dict(finished)
    assert len(ended) == len(finished), 'a task ended twice'
    assert set(ended) == set(spawned), 'every task ended, one way or another'
    # The failure passes up through every join: the culprit and each of its
    # ancestors fail; every other task completed or was canceled.
    failed = {task for task, status in ended.items() if status == 'failed'}
    culprit_task = culprit['task']
    chains = {'.'.join(culprit_task.split('.')[:n]) for n in range(2, culprit_task.count('.') + 2)}
    assert failed == {chain for chain in chains if is_task(chain)}
    assert set(ended.values()) <= {'completed', 'failed', 'canceled'}
    assert in_spawn_order(started)


class ThreadedAnswers:
    """Answers test.wait effects from a thread of its own, picking the next
    one to answer at random (seeded), after a short random pause."""

    def __init__(self, seed: int, limit: int):
        self.random = random.Random(seed)
        self.limit = limit
        self.lock = threading.Lock()
        self.pending: list = []
        self.outstanding = 0
        self.peak = 0
        self.wake = threading.Event()
        self.done = False
        self.thread = threading.Thread(target=self.answer_all, daemon=True)
        self.thread.start()

    def __call__(self, effect, reply):
        answers = self

        class Work:
            def abort(self):
                with answers.lock:
                    if (effect, reply) in answers.pending:
                        answers.pending.remove((effect, reply))
                        answers.outstanding -= 1
        with self.lock:
            self.pending.append((effect, reply))
            self.outstanding += 1
            self.peak = max(self.peak, self.outstanding)
        self.wake.set()
        return Work()

    def answer_all(self):
        while not self.done:
            self.wake.wait(0.05)
            with self.lock:
                if not self.pending:
                    self.wake.clear()
                    continue
                effect, reply = self.pending.pop(self.random.randrange(len(self.pending)))
                self.outstanding -= 1
            time.sleep(self.random.choice((0, 0, 0.0005, 0.002)))
            reply(Answer.ok(WAIT, effect.payload))

    def close(self):
        self.done = True
        self.wake.set()
        self.thread.join(5)


@given(roots=programs, limit=st.integers(1, 4), seed=st.integers(0, 2 ** 32 - 1))
def test_random_task_trees_through_the_harness(roots, limit, seed):
    answers = ThreadedAnswers(seed, limit)
    events: list[dict] = []
    harness = Harness(RunLimits(concurrency=limit), answerers={WAIT: answers}, libraries=(WaitLibrary(),))
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault('outcome', harness.run(
        tree_prompt(roots, NODE), 't.md', handle=RunHandle(), events=EventStream([events.append]))), daemon=True)
    thread.start()
    thread.join(20)
    answers.close()
    assert not thread.is_alive(), 'the run did not end: a deadlock'
    assert box['outcome'].to_dict() == {'outcome': 'completed', 'result': str(sum(map(expected, roots))),
                                        'error': None}
    spawned, started, finished = task_events(events)
    assert in_spawn_order(started) and len(started) == len(finished) == count(roots)
    # Counted on this side of the Harness a reply leaves before the Engine
    # hears it, so this count is never above the Engine's own.
    assert answers.peak <= limit
