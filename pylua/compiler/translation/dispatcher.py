"""Functions that use ``goto``, which Python's structured statements cannot
express: they run as a loop over basic blocks."""
from __future__ import annotations

import itertools
import math

from .facts import ITERATOR_NOTE, LOOP_COST, iteration_cost, passes_results
from .ir import code

# The structured instructions ``lower`` turns into labels, jumps and raw code.
_LOWERED = frozenset('IF IFNOT ELSE LOOP BREAK CONTINUE FORPREP TFORPREP END GOTO LABEL TBC CLOSE'.split())
# Past this many blocks the dispatch tests a block's group first: an
# ``elif`` chain is as deep in Python's syntax tree as it is long, and
# Python's compiler refuses a tree past about 3,000 levels (an ``if``
# with 1,500 ``elseif`` arms), where groups of about the square root of
# the blocks keep both chains short.
_GROUPED = 64


def label_groups(labels: list) -> list:
    """``labels`` (block ids in the order they are emitted) in the groups
    the dispatch tests first: one group when there are few."""
    if len(labels) <= _GROUPED:
        return [labels]
    size = max(_GROUPED, math.isqrt(len(labels)) + 1)
    return [labels[k:k + size] for k in range(0, len(labels), size)]


class Dispatcher:
    """Translation of a function that uses ``goto``: its structured bytecode is
    lowered to basic blocks run by a ``while True: if pc == N`` dispatcher."""

    def __init__(self, ft):
        self.ft = ft
        self.ids = itertools.count(1)

    def run(self):
        items = self.lower(self.ft.p.code)
        ft = self.ft
        # <close> variables cannot rely on structured try blocks here: a flag
        # per variable says which are live when an error leaves the function.
        tbc = sorted({ins.a for ins in ft.p.code if ins.op == 'TBC'})
        for r in tbc:
            ft.w('_tbc%d = False', r)
        if tbc:
            ft.open('try:', 'try')
        ft.w('pc = 0')
        ft.open('while True:', 'dispatch')
        groups = label_groups([payload for kind, payload in items if kind == 'label'])
        grouped = len(groups) > 1
        group_of = {label: n for n, group in enumerate(groups) for label in group}
        first = True
        for kind, payload in items:
            if kind != 'ins':
                # A jump may land here, or raw code change registers.
                ft.known_bool = ft.next_bool = None
                ft.types.clear()
            if kind == 'label':
                if not first:
                    ft.w('pc = %d', payload)
                    ft.close_block()
                    ft.stack.pop()
                group = groups[group_of[payload]]
                opens_group = grouped and group[0] == payload
                if opens_group:
                    if not first:
                        ft.close_block()
                        ft.stack.pop()
                    ft.open('%s pc in {%s}:' % ('if' if first else 'elif', ', '.join(map(str, group))), 'group')
                ft.open(code('%s pc == %d:', 'if' if first or opens_group else 'elif', payload), 'block')
                first = False
                continue
            if kind == 'jump':
                ft.w('pc = %d; continue', payload)
            elif kind == 'jumpif':
                reg, negate, target = payload
                ft.w('if %s: pc = %d; continue', ft.truth(reg, negate), target)
            elif kind == 'count':
                ft.line = payload[1]
                for line in ft.iteration_charge(payload[0]) or ():
                    ft.w(line)
            elif kind in ('raw', 'close', 'iterate'):
                ft.line = payload[1]
                ft.w(payload[0])
                if kind == 'close':
                    ft.note_call("metamethod 'close'")
                elif kind == 'iterate':
                    ft.note_call(ITERATOR_NOTE)       # a host iterator's walk runs there
            elif kind == 'tail':
                ft.step(payload, tail=True)
            else:
                ft.step(payload)
        ft.w('return ()')
        ft.close_block()
        ft.stack.pop()
        if grouped:
            ft.close_block()
            ft.stack.pop()
        ft.close_block()
        ft.stack.pop()
        if tbc:
            ft.close_block()
            ft.stack.pop()
            ft.w('except BaseException as _e:')
            for r in reversed(tbc):
                ft.w('    if _tbc%d:', r)
                ft.w('        _tbc%d = False; _v = r%d; r%d = None', r, r, r)
                ft.w('        if _v is not None and _v is not False: ' + ft.wait('close_error(_v, _e)'))
            ft.w('    raise')

    def lower(self, bytecode):
        """Structured ops -> labels and jumps; every other instruction is kept."""
        label_ids = self.resolve_labels(bytecode)
        items = [('label', 0)]
        stack = []
        tail_return = None      # the RETURN of a tail call, emitted with its call
        marks = self.ft.zero_marks
        labels = {}             # label number -> pc of each label passed so far
        for pc, ins in enumerate(bytecode):
            op = ins.op
            if ins is tail_return:
                continue
            # The lines a division's line decided by the run records
            # (``track_zero_line``): before what is lowered here, after a
            # label (on every way in), at a generic for's body head.
            zero = ['_zl = %d' % line for line in marks.get(id(ins), ())] if op in _LOWERED else ()
            if op != 'LABEL' and op != 'TFORPREP':
                items.extend(('raw', (mark, ins.line)) for mark in zero)
            if op == 'CALL' and self.ft.tail_calls and pc + 1 < len(bytecode) and \
                    passes_results(ins, bytecode[pc + 1]):
                items.append(('tail', ins))
                tail_return = bytecode[pc + 1]
            elif op in ('IF', 'IFNOT'):
                els, end = next(self.ids), next(self.ids)
                items.append(('jumpif', (ins.a, op == 'IF', els)))
                stack.append(['if', els, end])
            elif op == 'ELSE':
                entry = stack[-1]
                items.append(('jump', entry[2]))
                items.append(('label', entry[1]))
                entry[0] = 'else'
            elif op == 'LOOP':
                top, exit_ = next(self.ids), next(self.ids)
                items.append(('label', top))
                items.append(('count', (iteration_cost(self.ft.p, pc), ins.line)))
                stack.append(['loop', top, exit_])
            elif op == 'BREAK':
                loop = next(e for e in reversed(stack) if e[0] in ('loop', 'for'))
                items.append(('jump', loop[2]))
            elif op == 'CONTINUE':
                # Where the loop's END jumps: its head.
                loop = next(e for e in reversed(stack) if e[0] in ('loop', 'for'))
                items.extend(('raw', ('_zl = %d' % line, ins.line)) for line in self.ft.continue_marks(ins))
                items.append(('jump', loop[1]))
            elif op == 'FORPREP':
                top, exit_ = next(self.ids), next(self.ids)
                it = '_it%d' % top
                a = ins.a
                items.append(('raw', (code('%s = chain_iter(forprep(r%d, r%d, r%d, %d))', it, a, a + 1, a + 2,
                                           iteration_cost(self.ft.p, pc)), ins.line)))
                items.append(('label', top))
                items.append(('raw', (code('r%d = next(%s, None)', a + 3, it), ins.line)))
                items.append(('raw', ('if r%d is None: pc = %d; continue' % (a + 3, exit_), ins.line)))
                stack.append(['for', top, exit_])
            elif op == 'TFORPREP':
                top, exit_ = next(self.ids), next(self.ids)
                a, n = ins.a, ins.b
                it = '_it%d' % top
                vars_ = ', '.join('r%d' % r for r in range(a + 4, a + 4 + n))
                items.append(('raw', (code('%s = forgen(r%d, r%d, r%d, %d)', it, a, a + 1, a + 2, n), ins.line)))
                items.append(('label', top))
                items.append(('count', (iteration_cost(self.ft.p, pc), ins.line)))
                items.append(('raw', (code('if %s is not None:', it), ins.line)))
                items.append(('iterate', (code('    _kv = next(%s, None)', it), ins.line)))
                items.append(('raw', (code('    if (_kv is None or _kv[1] is None) and %s.__class__ is ENUMERATE and r%d.meta is not None:',
                                           it, a + 1), ins.line)))
                items.append(('raw', (code('        %s = ipairs_resumed(r%d, _kv); pc = %d; continue', it, a + 1, top), ins.line)))
                items.append(('raw', (code('    if _kv is None or _kv[1] is None and %s.__class__ is ENUMERATE: pc = %d; continue', it, exit_), ins.line)))
                items.append(('raw', ('    if _kv[1] is None: pc = %d; continue' % top, ins.line)))
                items.append(('raw', (code('    %s = adjust(_kv, %d)', vars_, n) if n != 1 else '    r%d = _kv[0]' % (a + 4), ins.line)))
                items.append(('raw', ('else:', ins.line)))
                items.append(('raw', ('    _R = ' + self.ft.wait('call(r%d, (r%d, r%d), %r)', a, a + 1, a + 2,
                                                                  ITERATOR_NOTE), ins.line)))
                items.append(('raw', (code('    %s = adjust(_R, %d)', vars_, n) if n != 1 else '    r%d = _R[0] if _R else None' % (a + 4), ins.line)))
                items.append(('raw', ('    if r%d is None: pc = %d; continue' % (a + 4, exit_), ins.line)))
                items.append(('raw', ('    r%d = r%d' % (a + 2, a + 4), ins.line)))
                items.extend(('raw', (mark, ins.line)) for mark in zero)
                stack.append(['for', top, exit_])
            elif op == 'END':
                entry = stack.pop()
                if entry[0] == 'if':
                    items.append(('label', entry[1]))
                elif entry[0] == 'else':
                    items.append(('label', entry[2]))
                else:
                    items.append(('jump', entry[1]))
                    items.append(('label', entry[2]))
            elif op == 'GOTO':
                # A jump back runs again what lies from its label on: an
                # iteration of a loop, counted as one (a jump forward
                # skips code, in what counts already).
                label = labels.get(ins.b)
                if label is not None:
                    items.append(('count', (max(LOOP_COST, pc - label), ins.line)))
                items.append(('jump', label_ids[pc]))
            elif op == 'LABEL':
                labels[ins.b] = pc
                items.append(('label', label_ids[pc]))
                items.extend(('raw', (mark, ins.line)) for mark in zero)
            elif op == 'TBC':
                items.append(('raw', (code('tbc_check(r%d, %r)', ins.a, ins.note), ins.line)))
                items.append(('raw', ('_tbc%d = True' % ins.a, ins.line)))
            elif op == 'CLOSE':
                r = 'r%d' % ins.a
                items.append(('raw', (code('_tbc%d = False; _v = %s; %s = None', ins.a, r, r), ins.line)))
                items.append(('close', ('if _v is not None and _v is not False: ' + self.ft.wait('close_var(_v, None)'), ins.line)))
            else:
                items.append(('ins', ins))
        return items

    def resolve_labels(self, code):
        """Map each GOTO's and LABEL's pc to the id of the block of its label
        (the code generator numbered each label in operand B)."""
        blocks = {}
        return {pc: blocks.setdefault(ins.b, next(self.ids))
                for pc, ins in enumerate(code) if ins.op in ('GOTO', 'LABEL')}
