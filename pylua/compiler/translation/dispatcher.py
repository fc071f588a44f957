"""Functions that use ``goto``, which Python's structured statements cannot
express: they run as a loop over basic blocks."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from .facts import ITERATOR_NOTE, LOOP_COST, iteration_cost, passes_results
from .ir import code

# The structured instructions ``lower`` turns into labels, jumps and raw code.
_LOWERED = frozenset('IF IFNOT ELSE LOOP BREAK CONTINUE FORPREP TFORPREP END GOTO LABEL TBC CLOSE'.split())
# The dispatch finds a block by halving the blocks with membership tests
# down to runs of at most this many, tested one ``if`` after another: a
# block's end that falls through to the next one of its run is found by
# one test.  An ``elif`` chain over all blocks made each jump cost a walk
# down the chain (a 60-arm ``elseif`` ran 60 times lua5.4's time), and
# was as deep in Python's syntax tree as it was long.
_RUN = 8
# A jump to a block ahead nests the rest of its block one level (Python
# allows 100); past this indentation it dispatches again instead.
_INDENT_LIMIT = 60


@dataclass(frozen=True, slots=True)
class Block:
    """A basic block: its label, what it runs, and the label of the block
    after it (None for the last, which returns)."""
    label: int
    items: list
    successor: int | None


def basic_blocks(items: list) -> list:
    """``items`` (each block's label, then what it runs) as Blocks."""
    starts = [n for n, (kind, _) in enumerate(items) if kind == 'label']
    ends = starts[1:] + [len(items)]
    labels = [items[n][1] for n in starts]
    return [Block(label, items[a + 1:b], successor)
            for label, a, b, successor in zip(labels, starts, ends, labels[1:] + [None])]


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
        self.dispatch(basic_blocks(items))
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

    def dispatch(self, blocks):
        """The tests that find the block ``pc`` names among ``blocks``, and them."""
        ft = self.ft
        if len(blocks) <= _RUN:
            for n, block in enumerate(blocks):
                ft.open(code('if pc == %d:', block.label), 'block')
                self.block(block, {later.label for later in blocks[n + 1:]})
                ft.close_block()
                ft.stack.pop()
            return
        half = len(blocks) // 2
        ft.open('if pc in {%s}:' % ', '.join(str(block.label) for block in blocks[:half]), 'group')
        self.dispatch(blocks[:half])
        ft.close_block()
        ft.stack.pop()
        ft.open('else:', 'group')
        self.dispatch(blocks[half:])
        ft.close_block()
        ft.stack.pop()

    def block(self, block, ahead):
        """``block``'s code; ``ahead``: the labels of the blocks tested after
        it, which a jump reaches by going on rather than by dispatching
        again (the rest of the block an ``else`` of the jump's test)."""
        ft = self.ft
        # A jump may land here.
        ft.known_bool = ft.next_bool = None
        ft.types.clear()
        elses = 0
        for n, (kind, payload) in enumerate(block.items):
            if kind != 'ins':
                # Raw code may change registers.
                ft.known_bool = ft.next_bool = None
                ft.types.clear()
            if kind == 'jump':
                if payload in ahead and n == len(block.items) - 1:
                    ft.w('pc = %d', payload)
                    break
                ft.w('pc = %d; continue', payload)
            elif kind == 'jumpif':
                reg, negate, target = payload
                if target in ahead and ft.ind < _INDENT_LIMIT:
                    ft.w('if %s: pc = %d', ft.truth(reg, negate), target)
                    ft.open('else:', 'else')
                    elses += 1
                else:
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
        else:
            ft.w('return ()' if block.successor is None else code('pc = %d', block.successor))
        for _ in range(elses):
            ft.close_block()
            ft.stack.pop()

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
