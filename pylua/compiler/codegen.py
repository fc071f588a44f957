"""Code generator: resolved AST -> register bytecode prototypes."""
from __future__ import annotations

from dataclasses import dataclass

from . import ast as A
from .bytecode import ARITH, Instr, LocVar, Proto
from .folding import folded_number
from .registers import LFIELDS_PER_FLUSH, MAX_SHORT_STRING, check as check_registers, within_reach
from .resolver import Var, resolve
from .savedpc import mark_zero_division_lines
from ..runtime.state import GENERATE_STATEMENT, count_instructions

# Lua's limit of 255 registers is ``registers``'s to apply, as Lua does;
# this code generator lays registers out its own way.  Past this register
# an expression's steps reuse their target register as lcode.c does (a
# field chain, a method's object, an operator's right operand), so that a
# chain as long as the source takes a few registers; below it each step
# gets its own register, whose single value the translator's facts can
# follow.
SCARCE_REGS = 64
_CMP = {'==': ('EQ', False), '~=': ('NE', False), '<': ('LT', False),
        '<=': ('LE', False), '>': ('LT', True), '>=': ('LE', True)}
_UNARY = {'-': 'UNM', 'not': 'NOT', '#': 'LEN', '~': 'BNOT'}


def compile_chunk(chunk: A.Chunk, c_levels: int = 1) -> Proto:
    """The main prototype of ``chunk``, compiled where lua5.4 would have
    ``c_levels`` C levels open."""
    res = resolve(chunk, c_levels)
    fi = res.funcs[id(chunk)]
    proto = Proto(chunk.chunkname, 'main chunk', 0, 0, 0, True)
    proto.nesting = res.nesting
    proto.upvals = [('_ENV', False, 0, 'cell' if res.env_assigned else 'value')]
    fs = _FuncState(proto, res, fi, chunk.chunkname, chunk.tokens, -1)
    fs.block_body(chunk.body)
    fs.emit('RETURN', 0, 0, line=chunk.last_line or chunk.body.end_line)
    fs.end_locals(0)
    mark_zero_division_lines(proto, fs.position_saves)
    return proto


@dataclass(frozen=True)
class _LoopEnd:
    """What a ``goto`` in a loop's body (outside nested loops) may treat as
    the end of the iteration: the labels ending the body, while no
    ``<close>`` variable of the body is open (``len(tbc)`` as it starts)."""
    labels: frozenset
    tbc: int


def _end_labels(body):
    """The ids of the labels ending ``body`` (only labels follow them: Lua
    counts a label at a block's end outside its locals' scopes)."""
    labels = set()
    for st in reversed(body.stmts):
        if st.__class__ is not A.Label:
            break
        labels.add(id(st))
    return frozenset(labels)


@dataclass
class _PendingJump:
    """A ``break`` or forward ``goto`` not yet placed (lparser.c's pending
    goto): ``level``, the open locals below it as it leaves each block;
    ``close``, whether it left the scope of a local of a block whose locals
    a closure captured.  Lua then closes them where the jump lands, which
    saves the position a division by zero names (see ``savedpc``)."""
    target: int               # a break's loop depth (negated), the id of a goto's Label
    pc: int                   # of its BREAK or GOTO
    level: int
    close: bool = False


@dataclass
class _IndexTarget:
    """A ``t[k]`` target of a multiple assignment: ``obj`` and ``key`` the
    registers (or constant) holding its operands, or ``late_obj`` and
    ``late_key`` the bindings they are read from when stored."""
    node: A.Index
    obj: int | None = None
    key: int | None = None
    late_obj: tuple | None = None
    late_key: tuple | None = None


class _FuncState:
    def __init__(self, proto, res, fi, chunkname, tokens, cursor):
        self.proto = proto
        self.res = res
        self.fi = fi
        self.chunkname = chunkname
        self.tokens = tokens          # the parser's, for where Lua runs out of registers
        # A token index no later than the one before the next statement's
        # first: the statement has at most ``s.last - cursor`` tokens.
        self.cursor = cursor
        self.freereg = 0
        self.kcache = {}
        self.tbc = []                 # stack of (register, loop depth, block depth) of live <close> vars
        self.loops = 0
        self.depth = 0                # block nesting, counted as the resolver counts it
        # pc -> line: where Lua saves the position, leaving a block whose
        # locals a closure captured, before the instruction at pc runs.
        self.position_saves = {}
        self.label_numbers = {}       # id(Label) -> its number in this function
        self.open_locals = []         # LocVars whose scope has not ended yet
        self.open_vars = []           # their declarations (resolver Vars)
        self.pending_jumps = []       # _PendingJumps, innermost last
        self.label_levels = {}        # id(Label) -> open locals where it is placed
        self.loop_ends = []           # _LoopEnds of the enclosing loops, innermost last
        self.jumped_labels = set()    # id(Label) of the labels a GOTO goes to
        self.folds = {}               # id(expression) -> its folded number or None (``folded``)

    # ------------------------------------------------------------ emission
    def emit(self, op, a=0, b=0, c=0, line=0, note=None):
        ins = Instr(op, a, b, c, line, note)
        self.proto.code.append(ins)
        return ins

    def const(self, v):
        # repr keeps -0.0 apart from 0.0 (they compare equal as dict keys).
        key = (v.__class__, repr(v) if v.__class__ is float else v)
        k = self.kcache.get(key)
        if k is None:
            k = len(self.proto.consts)
            self.proto.consts.append(v)
            self.kcache[key] = k
        return -(k + 1)

    def folded(self, e):
        """The number Lua's constant folding makes of ``e``, or None."""
        return folded_number(e, self.res.names, self.folds)

    def alloc(self, n=1):
        r = self.freereg
        self.freereg += n
        if self.freereg > self.proto.maxreg:
            self.proto.maxreg = self.freereg
        return r

    # ----------------------------------------------------------- blocks
    def block_body(self, blk, pre=None):
        """Compile a block's statements; locals declared inside are freed after."""
        saved_reg = self.freereg
        saved_tbc = len(self.tbc)
        saved_locals = len(self.open_locals)
        first_jump = len(self.pending_jumps)
        self.depth += 1
        if pre:
            pre()
        body_locals = len(self.open_locals)
        for s in blk.stmts:
            count_instructions(GENERATE_STATEMENT)        # the cancel check
            self.stmt(s)
            self.freereg = max(self.freereg, saved_reg)
        # Lua closes a nested block's <close> variables and captured locals
        # as it leaves it, at the line of the block's last token (which an
        # integer division by zero after it names: see savedpc); a
        # function's body closes them in its return, at its 'end'.
        self.close_tbc_to(saved_tbc, blk.last_line if self.depth > 1 else blk.end_line)
        if self.depth > 1 and self.captures_from(saved_locals):
            self.position_saves[len(self.proto.code)] = blk.last_line
        # A loop's variables (``pre``) are a block of their own to Lua.
        self.jumps_leave(first_jump, body_locals, len(self.open_vars))
        self.jumps_leave(first_jump, saved_locals, body_locals)
        self.depth -= 1
        self.freereg = saved_reg
        self.end_locals(saved_locals)

    def jumps_leave(self, first_jump, level, upto):
        """The pending jumps from the ``first_jump``th on leave a block,
        whose locals are the open ones from the ``level``th to ``upto``
        (lparser.c's ``movegotosout``)."""
        captured = None
        for jump in self.pending_jumps[first_jump:]:
            if jump.level > level:
                if captured is None:
                    # Lua marks a block holding a to-be-closed variable as it marks a captured one.
                    captured = any(v.capturer is not None or v.attrib == 'close' for v in self.open_vars[level:upto])
                jump.close = jump.close or captured
                jump.level = level

    def land_jumps(self, target, line, fallthrough=True):
        """Place the pending jumps to ``target``, which land before the next
        instruction: there Lua closes what any of them left open, on the
        way of the code before too when ``fallthrough`` (a while loop's
        exit jumps past it)."""
        landing = [j for j in self.pending_jumps if j.target == target]
        if landing:
            self.pending_jumps = [j for j in self.pending_jumps if j.target != target]
            if any(j.close for j in landing):
                for pc in [len(self.proto.code)] if fallthrough else [j.pc for j in landing]:
                    self.position_saves[pc] = line

    def captures_from(self, first):
        """Does a closure capture one of the open locals from the ``first``th
        on (Lua marks their block as having upvalues)?"""
        return any(v.capturer is not None for v in self.open_vars[first:])

    def end_locals(self, keep):
        """The scopes of the locals opened after the first ``keep`` end here."""
        while len(self.open_locals) > keep:
            self.open_locals.pop().endpc = len(self.proto.code)
        del self.open_vars[keep:]

    def close_tbc_to(self, depth, line):
        while len(self.tbc) > depth:
            reg = self.tbc.pop()[0]
            self.emit('CLOSE', reg, line=line)

    def activate(self, var, reg):
        var.reg = reg
        local = LocVar(var.name, reg, var.captured, len(self.proto.code))
        self.proto.locvars.append(local)
        self.open_locals.append(local)
        self.open_vars.append(var)
        if var.captured:
            self.emit('NEWCELL', reg, line=var.line)

    # ------------------------------------------------------------ statements
    def stmt(self, s):
        start = len(self.proto.code)
        if within_reach(self._locals_top, s.last - self.cursor):
            check_registers(s, self.res.names, self._locals_top, self.folded, self.tokens, self.chunkname)
        getattr(self, 's_' + s.__class__.__name__)(s)
        self.cursor = s.last
        self.freereg = self.nlocal_regs()
        # Results above the statement's live locals are temporaries, read once
        # by the expression that needed them (the innermost statement decides).
        top = self._locals_top
        for ins in self.proto.code[start:]:
            if ins.temp is None and ins.a.__class__ is int:
                ins.temp = ins.a >= top

    def nlocal_regs(self):
        return self._locals_top

    _locals_top = 0

    def s_Local(self, s):
        vars_ = self.res.decls[id(s)]
        base = self.freereg
        exprs = s.exprs
        if vars_[-1].const is not None:
            # A compile-time constant takes no register, and its value no code.
            vars_ = vars_[:-1]
            exprs = exprs[:-1]
            if not vars_:
                return
        n = len(vars_)
        self.explist_to(exprs, base, n, s.line)
        self.freereg = base + n
        self._locals_top = base + n
        for i, v in enumerate(vars_):
            self.activate(v, base + i)
            if v.attrib == 'close':
                self.emit('TBC', base + i, line=s.line, note=v.name)
                self.tbc.append((base + i, self.loops, self.depth))

    def s_LocalFunction(self, s):
        v = self.res.decls[id(s)][0]
        reg = self.alloc()
        self._locals_top = self.freereg
        if v.captured:
            self.emit('LOADNIL', reg, 1, line=s.line)
        self.activate(v, reg)
        if v.captured:
            tmp = self.alloc()
            self.closure(s.func, tmp)
            self.emit('SETCELL', reg, tmp, line=s.line)
        else:
            self.closure(s.func, reg, own=v)

    def s_Assign(self, s):
        targets = s.targets
        if len(targets) == 1 and len(s.exprs) == 1:
            t = targets[0]
            end = _end_line(s.exprs[0])
            if t.__class__ is A.Name:
                self.assign_name(t, s.exprs[0], end)
                return
            late = self.read_late(t.obj, t.key)
            if late is None:
                obj = self.exp_reg(t.obj)
            late_key = self.key_read_late(t.key)
            if not late_key:
                key = self.exp_rk(t.key)
            if late == 'after_key':
                obj = self.exp_reg(t.obj)
            val = self.exp_rk(s.exprs[0], end)
            if late == 'after_value':
                obj = self.exp_reg(t.obj)
            if late_key:
                key = self.exp_reg(t.key)
            self.emit('SETTABLE', obj, key, val, line=end, note=self.index_note(t))
            return
        # General case (lparser.c's restassign): evaluate the targets'
        # operands, then all values, then store from the last target back.
        # An operand Lua keeps in a variable's register is read when stored,
        # unless a later target assigns that variable: then it is copied
        # when that target is reached (check_conflict).
        prepared = []
        for t in targets:
            if t.__class__ is A.Index:
                prepared.append(self.index_target(t))
            else:
                self.copy_conflicts(t, prepared, s.line)
                prepared.append(t)
        base = self.freereg
        self.explist_to(s.exprs, base, len(targets), s.line)
        self.freereg = base + len(targets)
        end = _end_line(s.exprs[-1])
        for i in range(len(targets) - 1, -1, -1):
            target = prepared[i]
            src = base + i
            if target.__class__ is A.Name:
                self.store_name(target, src, end)
                continue
            obj, key = target.obj, target.key
            if target.late_obj is not None:
                obj = self.exp_reg(target.node.obj)
            if target.late_key is not None:
                key = self.exp_reg(target.node.key)
            self.emit('SETTABLE', obj, key, src, line=end, note=self.index_note(target.node))
            self.freereg = base + len(targets)

    def index_target(self, t):
        """The operands of ``t[k]`` as a target of a multiple assignment."""
        late = self.read_late(t.obj, t.key)
        target = _IndexTarget(t)
        if late == 'after_value':
            target.late_obj = self.res.names[id(t.obj)]
        elif late is None:
            target.obj = self.own_reg(t.obj)
            if target.obj is None:
                target.obj = self.alloc()
                self.exp_to(t.obj, target.obj)
        if self.key_read_late(t.key):
            target.late_key = self.res.names[id(self.key_value(t.key))]
        else:
            target.key = self.exp_rk(t.key)
        if late == 'after_key':
            target.obj = self.alloc()
            self.exp_to(t.obj, target.obj)
        return target

    def key_read_late(self, key):
        """Is ``key``, of an index assigned to, a local captured by a
        closure?  Lua reads a local key from its register when it stores,
        after the value (``t[i] = f()`` where ``f`` changes ``i``); a
        captured local is a cell here, so it is read then too."""
        return self.read_late(self.key_value(key)) == 'after_value'

    def copy_conflicts(self, name, prepared, line):
        """Copy the variable ``name`` for the earlier targets whose table or
        key is read from it, before this target assigns it."""
        b = self.res.names[id(name)]
        if b[0] not in ('local', 'upval'):
            return
        own = b[1].reg if b[0] == 'local' and not b[1].captured else None
        copy = None
        for target in prepared:
            if target.__class__ is A.Name:
                continue
            uses_obj = (own is not None and target.obj == own) or target.late_obj == b
            uses_key = (own is not None and target.key == own) or target.late_key == b
            if not (uses_obj or uses_key):
                continue
            if copy is None:
                copy = self.alloc()
                self.load_binding(b, copy, line)
            if uses_obj:
                target.obj, target.late_obj = copy, None
            if uses_key:
                target.key, target.late_key = copy, None

    def assign_name(self, name, e, line):
        b = self.res.names[id(name)]
        kind = b[0]
        if kind == 'local' and not b[1].captured:
            self.exp_to(e, b[1].reg, line)
            return
        if kind == 'global':
            env = b[1]
            val = self.exp_rk(e, line)
            self.set_global(env, name.name, val, line)
            return
        src = self.exp_rk(e, line) if kind == 'local' else self.exp_reg(e, line)
        self.store_binding(b, src, line, name.name)

    def store_name(self, name, src, line):
        b = self.res.names[id(name)]
        if b[0] == 'global':
            self.set_global(b[1], name.name, src, line)
        else:
            self.store_binding(b, src, line, name.name)

    def store_binding(self, b, src, line, name):
        if b[0] == 'local':
            v = b[1]
            if v.captured:
                self.emit('SETCELL', v.reg, src, line=line)
            else:
                self.emit('MOVE', v.reg, src, line=line)
        else:
            if src < 0:
                r = self.alloc()
                self.emit('LOADK', r, src, line=line)
                src = r
            self.emit('SETUPVAL', src, b[1], line=line)

    def set_global(self, env, name, val, line):
        note = _env_note(env)
        if env[0] == 'upval':
            self.emit('SETTABUP', env[1], self.const(name), val, line=line, note=note)
        else:
            envreg = self.binding_reg(env, line)
            self.emit('SETTABLE', envreg, self.const(name), val, line=line, note=note)

    def s_CallStat(self, s):
        self.call(s.call, self.freereg, 0)

    def s_Do(self, s):
        self.block_scope(s.body)

    def block_scope(self, body, pre=None):
        saved_top = self._locals_top
        self.block_body(body, pre)
        self._locals_top = saved_top
        self.freereg = saved_top

    def loop_body(self, body, pre=None):
        """A ``while`` or ``for`` loop's body, in scope: reaching its end
        ends the iteration."""
        self.loop_ends.append(_LoopEnd(_end_labels(body), len(self.tbc)))
        self.block_scope(body, pre)
        self.loop_ends.pop()

    def s_While(self, s):
        self.emit('LOOP', line=s.line)
        self.loops += 1
        if not _always_true(s.cond, self.res):
            # A constant true condition has no test, as in Lua (so its line
            # has no instruction: no line event comes for it).
            c = self.exp_reg(s.cond)
            self.emit('IFNOT', c, line=s.line)
            self.emit('BREAK', line=s.line)
            self.emit('END', line=s.line)
            self.freereg = self._locals_top
        self.loop_body(s.body)
        self.loops -= 1
        self.emit('END', line=s.body.end_line)
        self.land_jumps(-self.loops - 1, s.body.end_line, fallthrough=False)

    def s_Repeat(self, s):
        self.emit('LOOP', line=s.line)
        self.loops += 1
        saved_top = self._locals_top
        saved_reg = self.freereg
        saved_tbc = len(self.tbc)
        saved_locals = len(self.open_locals)
        first_jump = len(self.pending_jumps)
        self.depth += 1
        # No label ends an iteration of ``repeat``: its condition follows.
        self.loop_ends.append(_LoopEnd(frozenset(), len(self.tbc)))
        for st in s.body.stmts:
            self.stmt(st)
        self.loop_ends.pop()
        if within_reach(self._locals_top, s.cond.last - self.cursor):
            check_registers(s.cond, self.res.names, self._locals_top, self.folded, self.tokens, self.chunkname)
        c = self.exp_reg(s.cond)
        self.emit('IF', c, line=s.body.end_line)
        self.close_tbc_keep(saved_tbc, s.body.end_line)
        exit_pc = len(self.proto.code)
        self.emit('BREAK', line=s.body.end_line)
        self.emit('END', line=s.body.end_line)
        self.close_tbc_to(saved_tbc, s.body.end_line)
        if self.captures_from(saved_locals):
            # Lua closes them after the condition, on both of its ways out:
            # the exit and the loop's next iteration.
            self.position_saves[exit_pc] = self.position_saves[len(self.proto.code)] = _end_line(s.cond)
        self.jumps_leave(first_jump, saved_locals, len(self.open_vars))
        self.end_locals(saved_locals)
        self.depth -= 1
        self._locals_top = saved_top
        self.freereg = saved_reg
        self.loops -= 1
        self.emit('END', line=s.body.end_line)
        self.land_jumps(-self.loops - 1, _end_line(s.cond))

    def close_tbc_keep(self, depth, line):
        """Close <close> variables above ``depth`` on a jump, without ending their regions."""
        for entry in reversed(self.tbc[depth:]):
            self.emit('CLOSE', entry[0], 1, line=line)

    def s_If(self, s):
        nclose = 0
        for i, (cond, body) in enumerate(s.tests):
            if i:
                self.emit('ELSE', line=cond.line)
                nclose += 1
            c = self.exp_reg(cond)
            self.emit('IF', c, line=s.then_lines[i] if s.then_lines else cond.line)
            self.freereg = self._locals_top
            self.block_scope(body)
        if s.orelse is not None:
            self.emit('ELSE', line=s.orelse.line)
            self.block_scope(s.orelse)
        for _ in range(nclose + 1):
            self.emit('END', line=s.line)

    def s_NumFor(self, s):
        saved_top = self._locals_top
        base = self.alloc(3)
        self.exp_to(s.start, base)
        self.exp_to(s.stop, base + 1)
        if s.step is not None:
            self.exp_to(s.step, base + 2)
        else:
            self.emit('LOADK', base + 2, self.const(1), line=s.line)
        outside = self.loop_state(base, 3, s.line)
        self._locals_top = self.freereg
        var = self.res.decls[id(s)][0]
        vreg = self.alloc(1)
        self._locals_top = self.freereg
        # b = 1: an integer literal start and step make every value an integer.
        int_loop = self.folded(s.start).__class__ is int and (s.step is None or self.folded(s.step).__class__ is int)
        self.emit('FORPREP', base, 1 if int_loop else 0, line=s.do_line or s.line)
        self.loops += 1
        self.loop_body(s.body, lambda: self.activate(var, vreg))
        self.loops -= 1
        self.emit('END', line=s.body.end_line)
        self.land_jumps(-self.loops - 1, s.body.end_line)
        self.end_locals(outside)
        self._locals_top = saved_top        # the loop's state and variable are gone

    def loop_state(self, base, n, line):
        """A for loop's ``n`` registers of state from ``base`` are locals
        named ``(for state)``, as Lua's (``debug.getlocal`` numbers them
        before the loop's variables); the open locals before them."""
        outside = len(self.open_locals)
        for reg in range(base, base + n):
            self.activate(Var('(for state)', None, line), reg)
        return outside

    def s_GenFor(self, s):
        saved_top = self._locals_top
        base = self.alloc(4)
        self.explist_to(s.exprs, base, 4, s.line)
        # The fourth value is the loop's closing value, a to-be-closed variable.
        self.emit('TBC', base + 3, line=s.line, note='(for state)')
        self.tbc.append((base + 3, self.loops + 1, self.depth + 1))
        outside = self.loop_state(base, 4, s.line)
        self._locals_top = self.freereg
        vars_ = self.res.decls[id(s)]
        vbase = self.alloc(len(vars_))
        self._locals_top = self.freereg
        self.emit('TFORPREP', base, len(vars_), line=s.exprs_line)
        self.loops += 1
        first_jump = len(self.pending_jumps)

        def pre():
            for i, v in enumerate(vars_):
                self.activate(v, vbase + i)
        self.loop_body(s.body, pre)
        # Its to-be-closed state marks the loop's block: jumping out closes it.
        for jump in self.pending_jumps[first_jump:]:
            jump.close = True
        self.loops -= 1
        self.emit('END', line=s.body.end_line)
        self.land_jumps(-self.loops - 1, s.body.end_line)    # the CLOSE below saves the position anyway
        self.tbc.pop()
        self.emit('CLOSE', base + 3, line=s.body.end_line)
        self.end_locals(outside)
        self._locals_top = saved_top

    def s_FunctionStat(self, s):
        t = s.target
        if t.__class__ is A.Name:
            b = self.res.names[id(t)]
            if b[0] == 'local' and not b[1].captured:
                self.closure(s.func, b[1].reg)
                return
            r = self.alloc()
            self.closure(s.func, r)
            self.store_name(t, r, s.line)
            return
        obj = self.exp_reg(t.obj)
        key = self.exp_rk(t.key)
        r = self.alloc()
        self.closure(s.func, r)
        self.emit('SETTABLE', obj, key, r, line=s.line, note=self.index_note(t))

    def s_Return(self, s):
        exprs = s.exprs
        base = self.freereg
        if len(exprs) == 1 and not self.tbc:
            e = exprs[0]
            if e.__class__ in (A.Call, A.MethodCall):
                self.call(e, base, -1)
                self.emit('RETURN', base, -1, line=s.line)
                return
            if e.__class__ is A.Name:
                b = self.res.names[id(e)]
                if b[0] == 'local' and not b[1].captured:
                    self.emit('RETURN', b[1].reg, 1, line=s.line)
                    return
        n = self.explist_to(exprs, base, -1, s.line)
        self.close_tbc_keep(0, s.line)
        self.emit('RETURN', base, n, line=s.line)

    def s_Break(self, s):
        # Close the <close> variables declared inside the innermost loop.
        for reg, loops, _ in reversed(self.tbc):
            if loops < self.loops:
                break
            self.emit('CLOSE', reg, 1, line=s.line)
        self.pending_jumps.append(_PendingJump(-self.loops, len(self.proto.code), len(self.open_vars)))
        self.emit('BREAK', line=s.line)

    def s_Goto(self, s):
        label = self.res.goto_label[id(s)]
        end = self.loop_ends[-1] if self.loop_ends else None
        if end is not None and id(label) in end.labels and len(self.tbc) == end.tbc:
            # To the end of the body of the loop it is in, with no <close>
            # variable to close on the way: the iteration's end, as Python's
            # ``continue`` (the label then needs no block of its own).
            self.pending_jumps.append(_PendingJump(id(label), len(self.proto.code), len(self.open_vars)))
            self.emit('CONTINUE', line=s.line)
            return
        self.proto.has_goto = True
        self.jumped_labels.add(id(label))
        # Leaving blocks closes their <close> variables, as Lua's jump does.
        target = self.res.goto_depth.get(id(s), 0) + 1
        for reg, _, depth in reversed(self.tbc):
            if depth <= target:
                break
            self.emit('CLOSE', reg, 1, line=s.line)
        label_level = self.label_levels.get(id(label))
        if label_level is None:
            self.pending_jumps.append(_PendingJump(id(label), len(self.proto.code), len(self.open_vars)))
        elif len(self.open_vars) > label_level:
            # Jumping back out of a local's scope, Lua closes at the goto.
            self.position_saves[len(self.proto.code)] = s.line
        self.emit('GOTO', s.label, self.label_number(label), line=s.line)

    def s_Label(self, s):
        self.label_levels[id(s)] = len(self.open_vars)
        self.land_jumps(id(s), s.line)
        if self.loop_ends and id(s) in self.loop_ends[-1].labels and id(s) not in self.jumped_labels:
            return          # only CONTINUEs go there (a GOTO from a nested loop would precede it)
        self.proto.has_goto = True
        self.emit('LABEL', s.name, self.label_number(s), line=s.line)

    def label_number(self, label):
        """The number naming ``label`` in its function's GOTO and LABEL
        instructions (operand B): labels of sibling blocks may share a name."""
        return self.label_numbers.setdefault(id(label), len(self.label_numbers) + 1)

    # ----------------------------------------------------------- expressions
    def describe(self, e):
        """Lua's variable description of an expression, for error messages
        (names are C strings there: they end at a NUL).  Parentheses leave
        no trace in Lua's bytecode, so they change no description."""
        e = self.key_value(e)
        c = e.__class__
        if c is A.Name:
            b = self.res.names.get(id(e))
            if b is None:
                return None
            kind = b[0]
            if kind == 'const':
                v = b[1]
                return "constant '%s'" % _c_string(v) if isinstance(v, str) else None
            return "%s '%s'" % ({'local': 'local', 'upval': 'upvalue', 'global': 'global'}[kind], e.name)
        if c is A.Index:
            k = self.key_value(e.key)
            kind = 'global' if self.named_env(e.obj) else 'field'
            if k.__class__ is A.String:
                return "%s '%s'" % (kind, _c_string(k.value))
            # Lua indexes with OP_GETI a key its constant folding makes an
            # integer that fits the instruction's C argument.
            v = self.folded(k)
            if v.__class__ is int and 0 <= v <= 255:
                return "field 'integer index'"
            return "%s '?'" % kind
        if c is A.String:
            return "constant '%s'" % _c_string(e.value)
        return None

    def named_env(self, e):
        """Does Lua name the value of ``e`` _ENV in messages (ldebug.c's
        gxf, which makes a field of it a global)?  ``describe``'s answer,
        without describing a field's table (a chain of fields would be
        described again at each of its links)."""
        e = self.key_value(e)
        if e.__class__ is A.Index:
            k = self.key_value(e.key)
            return k.__class__ is A.String and _c_string(k.value) == '_ENV'
        named = self.describe(e)
        return named is not None and named.endswith(" '_ENV'")

    def key_value(self, e):
        """``e`` as Lua's code generator sees its value: without parentheses
        and ``and``/``or`` decided by a constant left operand."""
        e = _decided(e, self.res)
        while e.__class__ is A.Paren:
            e = _decided(e.expr, self.res)
        return e

    def index_note(self, e):
        """The description of the table indexed by ``e`` (an Index).  Lua
        loads an upvalue indexed by a comparison only after the comparison's
        jump, and findsetreg's filterpc then names nothing."""
        obj = e.obj
        if obj.__class__ is A.Name and self.res.names.get(id(obj), ('',))[0] == 'upval' \
                and _pending_jump(e.key, self.res):
            return None
        return self.describe(obj)

    def binding_reg(self, b, line):
        """Register holding the value of a local/upvalue binding."""
        if b[0] == 'local' and not b[1].captured:
            return b[1].reg
        r = self.alloc()
        self.load_binding(b, r, line)
        return r

    def load_binding(self, b, reg, line):
        kind = b[0]
        if kind == 'local':
            v = b[1]
            if v.captured:
                self.emit('GETCELL', reg, v.reg, line=line)
            elif v.reg != reg:
                self.emit('MOVE', reg, v.reg, line=line)
        elif kind == 'upval':
            self.emit('GETUPVAL', reg, b[1], line=line)
        else:
            self.emit('LOADK', reg, self.const(b[1]), line=line)

    def exp_discard(self, e):
        if e.__class__ in (A.Call, A.MethodCall):
            self.call(e, self.freereg, 0)
        else:
            saved = self.freereg
            self.exp_reg(e)
            self.freereg = saved

    def exp_rk(self, e, at=None):
        """An operand: a constant for literals, else a register (``at`` as for ``exp_to``)."""
        e = _decided(e, self.res)
        k = self.constant_operand(e)
        return k if k is not None else self.exp_reg(e, at)

    def constant_operand(self, e):
        """The constant operand ``e`` (already ``_decided``) is, or None."""
        c = e.__class__
        if c is A.Number or c is A.String:
            return self.const(e.value)
        if c is A.Paren or c is A.UnOp or c is A.BinOp:
            # A numeral to Lua's code generator: an ``==`` against it is
            # then its EQK, which saves no position (see ``savedpc``).
            folded = self.folded(e)
            if folded is not None:
                return self.const(folded)
        if c is A.Nil:
            return self.const(None)
        if c is A.TrueLit:
            return self.const(True)
        if c is A.FalseLit:
            return self.const(False)
        if c is A.Name:
            b = self.res.names[id(e)]
            if b[0] == 'const':
                return self.const(b[1])
        return None

    def exp_reg(self, e, at=None):
        """A register holding the value: a local's own register or a new temporary."""
        r = self.own_reg(e)
        if r is None:
            r = self.alloc()
            self.exp_to(e, r, at)
        return r

    def read_late(self, e, key=None):
        """When Lua's code generator reads the table ``e`` of an index, as
        luaK_indexed leaves it: 'after_value' for a local captured by a
        closure (a register to Lua, read by the instruction itself) or an
        upvalue indexed by a short string constant (SETTABUP), so after the
        key and any assigned value; 'after_key' for another upvalue (loaded
        once the key is); else None, before the key.  A key or value whose
        code assigns the variable then changes which table is used."""
        if e.__class__ is A.Name:
            b = self.res.names[id(e)]
            if b[0] == 'local' and b[1].captured:
                return 'after_value'
            if b[0] == 'upval':
                return 'after_value' if self.short_string_key(key) else 'after_key'
        return None

    def short_string_key(self, key):
        """Whether ``key`` is a string constant Lua indexes an upvalue with
        directly (lcode.c's isKstr: a short string)."""
        if key is None:
            return False
        key = _decided(key, self.res)
        value = None
        if key.__class__ is A.String:
            value = key.value
        elif key.__class__ is A.Name:
            b = self.res.names[id(key)]
            if b[0] == 'const':
                value = b[1]
        return isinstance(value, (str, bytes)) and len(value) <= MAX_SHORT_STRING

    def own_reg(self, e):
        """The register of the local ``e`` names when it lives in one (is
        not captured), else None."""
        if e.__class__ is A.Name:
            b = self.res.names[id(e)]
            if b[0] == 'local' and not b[1].captured:
                return b[1].reg
        return None

    def exp_to(self, e, reg, at=None):
        """Evaluate ``e`` (one value) into register ``reg``.

        A value Lua loads only when the code after it needs it (a table
        access, a global, an upvalue, a constant) is loaded on line ``at``
        when given: the line Lua's code generator is at then, such as a
        binary operator's for its left operand (the debug library's line
        events and error positions show it)."""
        c = e.__class__
        line = e.line
        load_line = line if at is None else at
        saved = self.freereg
        if reg >= self.freereg:
            self.freereg = reg + 1
            if self.freereg > self.proto.maxreg:
                self.proto.maxreg = self.freereg
        if reg < self._locals_top and (c is A.Table or (c is A.BinOp and e.op in ('and', 'or'))):
            # These write their target before reading all operands, and the
            # target is a live local the expression may read: go through a temporary.
            top = self.alloc()
            self.exp_to(e, top)
            self.emit('MOVE', reg, top, line=line)
            self.freereg = saved
            return
        if c is A.Number or c is A.String:
            self.emit('LOADK', reg, self.const(e.value), line=load_line)
        elif c is A.Nil:
            self.emit('LOADNIL', reg, 1, line=load_line)
        elif c is A.TrueLit or c is A.FalseLit:
            self.emit('LOADBOOL', reg, 1 if c is A.TrueLit else 0, line=load_line)
        elif c is A.Name:
            b = self.res.names[id(e)]
            if b[0] == 'global':
                self.get_global(b[1], e.name, reg, load_line)
            else:
                self.load_binding(b, reg, load_line)
        elif c is A.Index:
            obj = self.own_reg(e.obj)
            if obj is None and reg >= SCARCE_REGS and reg >= saved - 1 and reg >= self._locals_top:
                # The target is the top temporary: the table goes there, as
                # lcode.c puts it, so a chain 'a.b.c...' fits in the registers.
                self.exp_to(e.obj, reg)
                obj = reg
            if obj is None and self.read_late(e.obj) is not None:
                key = self.exp_rk(e.key)
                obj = self.exp_reg(e.obj)
            else:
                if obj is None:
                    obj = self.exp_reg(e.obj)
                key = self.exp_rk(e.key)
            # Not before its key's last token, where Lua's code generator
            # can first load it ('t.a\n.b' indexes t.a on line 2).
            self.emit('GETTABLE', reg, obj, key, line=e.end_line if at is None and e.end_line else load_line,
                      note=self.index_note(e))
        elif c is A.Call or c is A.MethodCall:
            if reg < saved - 1 or reg < self._locals_top:
                # Calls need the top of the stack, and the target is a live
                # local that the arguments may read.
                top = self.alloc()
                self.call(e, top, 1)
                self.emit('MOVE', reg, top, line=line)
            else:
                if reg >= SCARCE_REGS:
                    self.freereg = reg  # a method's object goes in the call's target, as lcode.c's
                self.call(e, reg, 1)
        elif c is A.Vararg:
            self.emit('VARARG', reg, 1, line=line)
        elif c is A.Paren:
            self.exp_to(e.expr, reg, at)
        elif c is A.Function:
            self.closure(e, reg)
        elif c is A.Table:
            self.table(e, reg)
        elif c is A.UnOp:
            self.unop(e, reg)
        elif c is A.BinOp:
            # The cancel check, going down and coming back up long operator chains.
            count_instructions(GENERATE_STATEMENT)
            self.binop(e, reg)
            count_instructions(GENERATE_STATEMENT)
        else:
            raise AssertionError(c)
        self.freereg = max(saved, reg + 1) if reg >= saved else saved

    def get_global(self, env, name, reg, line):
        note = _env_note(env)
        if env[0] == 'upval':
            self.emit('GETTABUP', reg, env[1], self.const(name), line=line, note=note)
        else:
            envreg = self.binding_reg(env, line)
            self.emit('GETTABLE', reg, envreg, self.const(name), line=line, note=note)

    def unop(self, e, reg):
        opnd = e.operand
        folded = self.folded(e)
        if folded is not None:
            self.emit('LOADK', reg, self.const(folded), line=e.line)
            return
        src = self.exp_reg(opnd)
        self.emit(_UNARY[e.op], reg, src, line=e.line, note=self.describe(opnd))

    def binop(self, e, reg):
        """Binary operator ``e`` into ``reg``.  A long chain's left operand
        is computed in ``reg`` itself (``left_operand``), which is this
        again one operator down: the chain's operators are visited down its
        left operands in a loop, each one's ``exp_to`` bookkeeping kept on
        a list, and finished from the innermost up, so a chain of variables
        (``x * x * ...``) compiles without recursing down it, as one of
        constants does (they fold)."""
        pending = []          # (operator, call case, exp_to's saved freereg of its left operand)
        while True:
            if not self.binop_special(e, reg):
                call_case = self.left_call_case(e, reg)
                if call_case:
                    self.freereg = reg
                left = e.left
                if self.left_read_late(e):
                    # As if the left operand held ``reg``: it takes a temporary, read after the right one.
                    right = self.right_operand(e, reg, reg)
                    self.binop_emit(e, reg, self.exp_reg(left, e.line), right)
                elif not (left.__class__ is A.BinOp and self.left_in_place(left, reg)):
                    self.binop_finish(e, reg, self.left_operand(left, reg, e.line), call_case)
                else:
                    # exp_to(left, reg, e.line) up to its binop: left_operand
                    # goes in place only above the locals, so no temporary.
                    saved = self.freereg
                    if reg >= self.freereg:
                        self.freereg = reg + 1
                        if self.freereg > self.proto.maxreg:
                            self.proto.maxreg = self.freereg
                    count_instructions(GENERATE_STATEMENT)
                    pending.append((e, call_case, saved))
                    e = left
                    continue
            break
        while pending:
            e, call_case, saved = pending.pop()
            # The rest of exp_to(e.left, reg), then of e's binop.
            count_instructions(GENERATE_STATEMENT)
            self.freereg = max(saved, reg + 1) if reg >= saved else saved
            self.binop_finish(e, reg, reg, call_case)

    def binop_special(self, e, reg):
        """Emit ``e`` when it is no plain arithmetic or comparison (decided
        by a constant, ``and``/``or``, ``..``, folded to a constant): True
        then."""
        op = e.op
        if _decided(e, self.res) is not e:
            self.exp_to(_decided(e, self.res), reg)
            return True
        if op == 'and' or op == 'or':
            self.exp_to(e.left, reg, e.line)
            self.emit('IF' if op == 'and' else 'IFNOT', reg, line=e.line)
            self.exp_to(e.right, reg)
            self.emit('END', line=e.line)
            return True
        if op == '..':
            self.concat(e, reg)
            return True
        folded = self.folded(e)
        if folded is not None:
            self.emit('LOADK', reg, self.const(folded), line=e.line)
            return True
        return False

    def binop_finish(self, e, reg, b, call_case):
        """The rest of arithmetic or comparison ``e`` once its left operand
        is ``b``: its right operand, then the instruction."""
        if call_case:
            self.freereg = max(self.freereg, reg + 1)
        self.binop_emit(e, reg, b, self.right_operand(e, reg, b))

    def binop_emit(self, e, reg, b, c):
        """The instruction of arithmetic or comparison ``e`` on operands ``b`` and ``c``."""
        op = e.op
        if op in _CMP:
            name, swap = _CMP[op]
            # Operands are evaluated left to right; ``a > b`` then tests ``b < a``.
            if swap:
                b, c = c, b
            # Lua compares once it has read the right operand (no fixline, as arithmetic has).
            self.emit(name, reg, b, c, line=_end_line(e.right))
            return
        self.emit(ARITH[op], reg, b, c, line=e.line,
                  note=(self.describe(e.left), self.describe(e.right)))

    def left_read_late(self, e):
        """Is the left operand of ``e`` a captured local that the right
        operand may assign?  Lua reads a local operand from its register
        when the operator runs, after the right operand; a captured local
        is a cell here, read into a temporary, so it is read after the
        right operand is computed, when that can run code (a call, a
        metamethod) rather than only read a variable or a constant."""
        left = e.left
        while left.__class__ is A.Paren:
            left = left.expr
        if left.__class__ is not A.Name:
            return False
        binding = self.res.names[id(left)]
        if binding[0] != 'local' or not binding[1].captured:
            return False
        right = _decided(e.right, self.res)
        if self.constant_operand(right) is not None:
            return False
        return right.__class__ is not A.Name or self.res.names[id(right)][0] == 'global'

    def right_operand(self, e, reg, b):
        """The right operand of arithmetic or comparison ``e`` into ``reg``,
        whose left operand is ``b``.  Lua takes an operand's register only
        once it computes it, so ``1 + (2 + (3 + ... x))`` needs one register
        there, not one a level, and such nesting compiles beside 200
        locals: once ``SCARCE_REGS`` registers are in use, one computed
        into a temporary takes ``reg`` itself when that is the top
        temporary and the left operand holds none (a constant or a
        variable's register).  Below, it takes a register of its own,
        whose value's type the translator then knows apart (a float
        product reused in place as the sum's operand cost ``nbody`` 2.7%
        more bytecodes)."""
        right = _decided(e.right, self.res)
        k = self.constant_operand(right)
        if k is not None:
            return k
        if SCARCE_REGS <= reg == self.freereg - 1 and self._locals_top <= reg and b < reg \
                and self.own_reg(right) is None:
            self.exp_to(right, reg)
            return reg
        return self.exp_reg(right)

    def left_call_case(self, e, reg):
        """The left operand of binary operator ``e`` whose result goes to
        ``reg``.  When the right operand makes a call, a temporary left
        operand takes ``reg`` itself, as in Lua (whose operands fill the
        registers from the destination up): the call then sees it where
        debug.getlocal numbers it.  Without a call no temporary can be
        seen; and the translator's type tracking follows a register per
        value best, so a left operand made by a call, or a right operand
        made by a call beside a local, keeps a register of its own.  True
        when the left operand is computed with ``freereg`` at ``reg``."""
        return (reg == self.freereg - 1 and reg >= self._locals_top and _makes_call(e.right)
                and not _makes_call(e.left))

    def left_in_place(self, e, reg):
        """Does ``left_operand`` compute ``e`` in ``reg`` itself?"""
        if (reg < self._locals_top or _decided(e, self.res).__class__ in _OPERAND_IN_PLACE
                or _left_depth(e) < _LONG_CHAIN):
            return False
        if e.__class__ is A.Name:
            binding = self.res.names[id(e)]
            if binding[0] == 'const' or binding[0] == 'local' and not binding[1].captured:
                return False
        return True

    def left_operand(self, e, reg, at):
        """The left operand (loaded on line ``at``, the operator's) of a binary operator whose result goes to
        ``reg``: in a long chain like ``a + b + c + ...`` it is computed in
        ``reg`` itself when that is a temporary, so the chain needs two
        registers, as in Lua.  (Short chains keep a register per operand,
        which the translator's tracking of known types follows best.)"""
        if not self.left_in_place(e, reg):
            return self.exp_rk(e, at)
        self.exp_to(e, reg, at)
        return reg

    def concat(self, e, reg):
        parts = []
        operators = []          # the line of the '..' after each part but the last
        node = e
        while node.__class__ is A.BinOp and node.op == '..':
            parts.append(node.left)
            operators.append(node.line)
            node = node.right
        parts.append(node)
        operators.append(None)
        base = self.alloc(len(parts))
        for i, p in enumerate(parts):
            self.exp_to(p, base + i, operators[i])
        # Lua builds a chain's instruction at its last operator.
        self.emit('CONCAT', base, len(parts), line=operators[-2],
                  note=tuple(self.describe(p) for p in parts))
        if base != reg:
            self.emit('MOVE', reg, base, line=operators[-2])

    def closure(self, f, reg, own=None):
        """Compile function ``f`` into ``reg``; ``own`` is the local it is
        declared as by ``local function`` when no cell holds it."""
        fi = self.res.funcs[id(f)]
        child = Proto(self.chunkname, f.name or 'anonymous', f.line, f.end_line,
                      len(f.params), f.is_vararg)
        for name, from_local, ref, var in fi.upvals:
            if from_local:
                kind = 'cell' if var.captured else 'self' if var is own else 'value'
                child.upvals.append((name, True, var.reg, kind))
            else:
                kind = 'cell' if self.proto.upvals[ref][3] == 'cell' else 'value'
                child.upvals.append((name, False, ref, kind))
        fs = _FuncState(child, self.res, fi, self.chunkname, self.tokens, self.cursor)
        params = self.res.decls[id(f)]
        fs.freereg = len(params)
        fs._locals_top = len(params)
        child.maxreg = max(child.maxreg, len(params))
        for i, v in enumerate(params):
            fs.activate(v, i)
        fs.block_body(f.body)
        fs.emit('RETURN', 0, 0, line=f.end_line)
        fs.end_locals(0)
        mark_zero_division_lines(child, fs.position_saves)
        idx = len(self.proto.protos)
        self.proto.protos.append(child)
        # Lua makes the closure where its body ends.
        self.emit('CLOSURE', reg, idx, line=f.end_line)

    def table(self, e, reg):
        fields = e.fields
        npos = sum(1 for f in fields if f.__class__ is A.PosField)
        self.emit('NEWTABLE', reg, npos, len(fields) - npos, line=e.line)
        pending = 0
        base = None
        stored = 0
        last_multi = (fields and fields[-1].__class__ is A.PosField
                      and fields[-1].value.__class__ in (A.Call, A.MethodCall, A.Vararg))
        for i, f in enumerate(fields):
            if i & 63 == 63:
                count_instructions(64 * GENERATE_STATEMENT)      # a field costs about a statement
            c = f.__class__
            # Lines as lparser.c leaves them: a store is made once its
            # value is read (at the value's last token), a full batch of
            # items when the next field starts, the last one at the '}'.
            if c is A.PosField:
                if base is None:
                    base = self.freereg
                if i == len(fields) - 1 and last_multi:
                    self.exp_multi(f.value, base + pending, -1)
                    self.emit('SETLIST', reg, -1, stored, line=e.end_line or e.line, note=base)
                    pending = 0
                    stored = None
                    break
                # The last item is loaded at the '}', where Lua closes the list.
                self.exp_to(f.value, base + pending, e.end_line if i == len(fields) - 1 and e.end_line else None)
                pending += 1
                if pending == LFIELDS_PER_FLUSH and i < len(fields) - 1:
                    self.emit('SETLIST', reg, pending, stored, line=_end_line(f.value), note=base)
                    stored += pending
                    pending = 0
                    self.freereg = base
            else:
                saved = self.freereg = max(self.freereg, base + pending if base is not None else 0)
                late_key = c is A.KeyedField and self.key_read_late(f.key)
                if not late_key:
                    key = self.const(f.name) if c is A.NamedField else self.exp_rk(f.key)
                val = self.exp_rk(f.value)
                if late_key:
                    key = self.exp_reg(f.key)
                self.emit('SETTABLE', reg, key, val, line=_end_line(f.value))
                self.freereg = saved
        if pending:
            self.emit('SETLIST', reg, pending, stored, line=e.end_line or e.line, note=base)

    # ------------------------------------------------------------- calls
    def call(self, e, base, nres):
        """Compile a call with the function at ``base``; results land from ``base``."""
        if base >= self.freereg:
            self.freereg = base
        self.proto.has_calls = True
        line = e.line
        if e.__class__ is A.MethodCall:
            # Lua indexes the object once it has read the method's name.
            obj = self.exp_reg(e.obj, e.method_line)
            self.alloc(2)
            self.emit('SELF', base, obj, self.const(e.method), line=e.method_line,
                      note=self.describe(e.obj))
            note = "method '%s'" % e.method
            self.freereg = base + 2
            nargs = self.explist_to(e.args, base + 2, -1, line)
            nargs = -1 if nargs == -1 else nargs + 1
        else:
            self.exp_to(e.func, base)
            self.freereg = base + 1
            note = self.describe(e.func)
            nargs = self.explist_to(e.args, base + 1, -1, line)
        self.emit('CALL', base, nargs, nres, line=line, note=note)
        self.freereg = base + (nres if nres > 0 else 0)
        if self.freereg > self.proto.maxreg:
            self.proto.maxreg = self.freereg

    def exp_multi(self, e, reg, want):
        if e.__class__ is A.Vararg:
            self.emit('VARARG', reg, want, line=e.line)
        else:
            self.call(e, reg, want)

    def explist_to(self, exprs, base, want, line):
        """Evaluate ``exprs`` into registers from ``base``, adjusted to ``want``
        values (-1: keep all; the count is returned, -1 meaning open-ended)."""
        n = len(exprs)
        self.freereg = max(self.freereg, base)
        for i, e in enumerate(exprs):
            last = i == n - 1
            reg = base + i
            if last and e.__class__ in (A.Call, A.MethodCall, A.Vararg):
                if want == -1:
                    self.exp_multi(e, reg, -1)
                    return -1
                extra = want - i
                if extra <= 0:
                    self.exp_discard(e)
                    self.freereg = base + want
                    return want
                self.exp_multi(e, reg, extra)
                self.freereg = base + want
                return want
            if want != -1 and i >= want:
                self.freereg = base + want
                self.exp_discard(e)
                continue
            if reg >= self.freereg:
                self.alloc(reg + 1 - self.freereg)
            self.exp_to(e, reg)
            self.freereg = reg + 1
        if want == -1:
            return n
        if n < want:
            self.alloc(want - n)
            self.emit('LOADNIL', base + n, want - n, line=line)
        self.freereg = base + want
        return want


# --------------------------------------------------------------- folding
def _env_note(env):
    """How an error indexing the environment names it, as Lua does."""
    return "%s '_ENV'" % ('upvalue' if env[0] == 'upval' else 'local')


def _end_line(e):
    """The line of the last token of expression ``e``: where Lua's code
    generator is when it finishes the expression."""
    while True:
        c = e.__class__
        if c is A.BinOp:
            e = e.right
        elif c is A.UnOp:
            e = e.operand
        elif c in _BRACKETED and e.end_line:
            return e.end_line
        else:
            return e.line


_BRACKETED = (A.Index, A.Call, A.MethodCall, A.Paren, A.Table, A.Function)


_LONG_CHAIN = 16                   # binary operators nested on the left that make a long chain


def _left_depth(e):
    depth = 0
    while e.__class__ is A.BinOp and depth < _LONG_CHAIN:
        e = e.left
        depth += 1
    return depth


def _makes_call(e):
    """Does evaluating ``e`` call a function (not counting metamethods)?"""
    stack = [e]
    while stack:
        e = stack.pop()
        c = e.__class__
        if c is A.Call or c is A.MethodCall:
            return True
        if c is A.BinOp:
            stack.append(e.left)
            stack.append(e.right)
        elif c is A.UnOp:
            stack.append(e.operand)
        elif c is A.Paren:
            stack.append(e.expr)
        elif c is A.Index:
            stack.append(e.obj)
            stack.append(e.key)
        elif c is A.Table:
            stack.extend(f.value for f in e.fields)
            stack.extend(f.key for f in e.fields if f.__class__ is A.KeyedField)
    return False


_ALWAYS_TRUE = (A.TrueLit, A.Number, A.String)
_OPERAND_IN_PLACE = (A.Nil, A.TrueLit, A.FalseLit, A.Number, A.String)   # constants


def _always_true(e, res):
    """Is ``e`` a constant that tests true (``_constant_truth``)?"""
    return _constant_truth(e, res) is True


def _pending_jump(e, res):
    """Whether Lua's code generator leaves ``e`` a bare jump (VJMP, no true
    or false lists), which an index key keeps undischarged until after the
    indexed table is loaded: a comparison, ``not`` of one, or one decided by
    a constant ``and``/``or`` left operand."""
    while True:
        while e.__class__ is A.Paren:
            e = e.expr
        c = e.__class__
        if c is A.UnOp and e.op == 'not':
            e = e.operand
        elif c is A.BinOp and e.op in _CMP:
            return True
        elif c is A.BinOp and e.op in ('and', 'or') and _constant_truth(e.left, res) is (e.op == 'and'):
            e = e.right
        else:
            return False


def _decided(e, res):
    """``e``, or the right operand when ``e`` is an ``and``/``or`` whose
    constant left operand (``_constant_truth``) decides that the right one
    is its value (Lua's code generator drops the test: a constant on the
    right stays a constant).  ``res``: the resolver's Resolution."""
    found = e
    while True:
        inner = e.expr if e.__class__ is A.Paren else e
        if inner.__class__ is not A.BinOp or inner.op not in ('and', 'or') or \
                _constant_truth(inner.left, res) is not (inner.op == 'and'):
            return found
        e = found = inner.right


def _constant_truth(e, res):
    """The truth of ``e`` when it is a constant to Lua's code generator (a
    literal, a folded ``<const>`` local, ``not`` of a constant, numbers
    folded), else None."""
    while e.__class__ is A.Paren:
        e = e.expr
    c = e.__class__
    if c is A.Nil or c is A.FalseLit:
        return False
    if c in _ALWAYS_TRUE:
        return True
    if c is A.Name:
        binding = res.names.get(id(e))
        if binding is not None and binding[0] == 'const':
            return binding[1] is not None and binding[1] is not False
        return None
    if c is A.UnOp and e.op == 'not':
        truth = _constant_truth(e.operand, res)
        return None if truth is None else not truth
    if c is A.BinOp and e.op in ('and', 'or'):
        # Remembered: a chain of n ``or`` asks this of each of its n
        # left operands, each of which asks it of its own.
        truth = res.truths.get(id(e), _UNKNOWN)
        if truth is _UNKNOWN:
            truth = res.truths[id(e)] = _logical_truth(e, res)
        return truth
    return True if folded_number(e, res.names) is not None else None


def _logical_truth(e, res):
    """``_constant_truth`` of an ``and``/``or``."""
    decided = _decided(e, res)
    if decided is not e:
        return _constant_truth(decided, res)
    # ``10 or 2``: Lua tests an ``or`` by its right operand alone, the
    # left's jump going to the same place (luaK_goiftrue), so one of
    # constants only (nothing to run) is decided by the right (asked
    # first: a long chain's left is as long as the chain).
    if e.op == 'or' and _constant_truth(e.right, res) and _constants_only(e.left, res):
        return True
    return None


_UNKNOWN = object()


def _constants_only(e, res):
    """Is ``e`` made of constants, ``and``, ``or`` and ``not`` only?"""
    while e.__class__ is A.Paren or e.__class__ is A.UnOp and e.op == 'not':
        e = e.expr if e.__class__ is A.Paren else e.operand
    if e.__class__ is A.BinOp and e.op in ('and', 'or'):
        return _constants_only(e.left, res) and _constants_only(e.right, res)
    return _constant_truth(e, res) is not None


def _c_string(text):
    return text.partition('\0')[0]
