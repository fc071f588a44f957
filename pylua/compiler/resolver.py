"""Scope resolution: binds every name to a local, an upvalue or a global,
marks captured locals, folds compile-time constants and checks goto/labels.

The result is a ``Resolution`` of side tables keyed by node identity, so the
code generator never repeats scope logic.
"""
from __future__ import annotations

from . import ast as A
from .folding import folded_number
from ..runtime.errors import LuaSyntaxError
from ..runtime.state import RESOLVE_STATEMENT, count_instructions


class Var:
    """One local variable declaration."""
    __slots__ = ('name', 'attrib', 'captured', 'assigned', 'shared', 'names', 'capturer', 'home',
                 'const', 'reg', 'line')

    def __init__(self, name, attrib, line):
        self.name = name
        self.attrib = attrib          # None, 'const' or 'close'
        self.captured = False         # lives in a cell: a closure uses it and it is assigned
        self.assigned = False         # assigned after its declaration
        self.shared = False           # more than one closure may share it (see resolve)
        self.names = None             # the Function node of 'local function', whose own name it is
        self.capturer = None          # the one function capturing it so far
        self.home = None              # the FuncInfo declaring it
        self.const = None             # (value,) when a compile-time constant
        self.reg = None               # assigned by the code generator
        self.line = line


MAX_LOCALS = 200                   # Lua's MAXVARS: locals alive at once in one function
MAX_UPVALUES = 255                 # Lua's MAXUPVAL
# LUAI_MAXCCALLS: lparser.c takes a C level per statement, per expression
# it reads with subexpr() and per extra target of a multiple assignment, on
# top of the levels open where the chunk is loaded (lua.c's script: 1;
# ``load`` from its main chunk: 2, one more per pcall or coroutine).
MAX_C_LEVELS = 200
# luaE_checkcstack's message: the parser runs inside a C function, so Lua
# gives it no position.
C_STACK_OVERFLOW = 'C stack overflow'


def too_deep(depth: int, c_levels: int) -> bool:
    """Does a chunk ``depth`` C levels deep overflow where ``c_levels`` are open?"""
    return depth >= MAX_C_LEVELS - c_levels


def _upvalue_local(fi, idx):
    """The local that upvalue ``idx`` of function ``fi`` refers to; None for
    the main chunk's _ENV."""
    while True:
        name, from_local, ref, var = fi.upvals[idx]
        if from_local:
            return var
        if fi.parent is None:
            return None
        fi, idx = fi.parent, ref


def _made_in_loop(v, fi):
    """Is a closure being made now in ``fi`` inside a loop within ``v``'s scope?"""
    for b in reversed(fi.blocks):
        if any(x is v for x in b.vars):
            return False
        if b.is_loop:
            return True
    return False


class FuncInfo:
    """Per-function resolution: its upvalues as (name, from_parent_local, index, var)."""
    __slots__ = ('parent', 'upvals', 'upindex', 'is_vararg', 'blocks', 'line', 'has_labels', 'after_line')

    def __init__(self, parent, is_vararg, line=0):
        self.parent = parent
        self.line = line              # where it starts (0: the main function)
        self.after_line = line        # the line of the token after its end (where Lua closes it)
        self.upvals = []
        self.upindex = {}             # id(var) or name -> upvalue index
        self.is_vararg = is_vararg
        self.blocks = []
        self.has_labels = False


class _Block:
    __slots__ = ('vars', 'labels', 'gotos', 'is_loop', 'hidden')

    def __init__(self, is_loop):
        self.vars = []
        self.hidden = 0               # Lua's unnamed locals: a for loop's state
        self.labels = {}              # name -> (line, nvars when declared, at_end)
        self.gotos = []               # pending (name, line, nvars at goto, node)
        self.is_loop = is_loop


class Resolution:
    def __init__(self):
        self.nesting = 0      # the most C levels lparser.c would have taken
        self.names = {}       # id(Name) -> ('local', Var) | ('upval', idx) | ('global', env binding) | ('const', value)
        self.decls = {}       # id(Local/LocalFunction/For/Function) -> [Var]
        self.funcs = {}       # id(Function or Chunk) -> FuncInfo
        self.goto_depth = {}  # id(Goto) -> block depth (in its function) of the target label
        self.goto_label = {}  # id(Goto) -> the Label it jumps to
        self.env_assigned = False     # does the chunk assign its _ENV upvalue
        self.truths = {}      # id(and/or BinOp) -> its constant truth (codegen's memo)


def resolve(chunk: A.Chunk, c_levels: int = 1) -> Resolution:
    """Scopes, upvalues and gotos of ``chunk``, parsed where lua5.4 would
    have ``c_levels`` C levels open (see ``MAX_C_LEVELS``)."""
    r = _Resolver(chunk.chunkname, c_levels)
    r.main(chunk)
    r.res.nesting = r.deepest
    # A captured local lives in a cell when it is assigned, or when it is
    # never assigned but more than one closure may share it (debug.upvalueid,
    # upvaluejoin and setupvalue see Lua's upvalues): seen by two functions,
    # by a closure made in a loop inside its scope or in a function with
    # labels, or from a function nested in the one that captures it.  Any
    # other closure is the only one to see it, so it gets the value itself; a
    # local function seeing itself is the code generator's special case.
    for v in r.vars:
        if not v.assigned and not (v.shared or v.home.has_labels):
            v.captured = False
    return r.res


class _Resolver:
    def __init__(self, chunkname, c_levels):
        self.chunkname = chunkname
        self.res = Resolution()
        self.fn = None
        self.vars = []
        self.level = 0                  # lparser.c's C levels open at the node walked
        self.deepest = 0
        self.c_levels = c_levels

    def enter(self):
        """One more C level, as lparser.c's enterlevel(): Lua stops where
        the count reaches LUAI_MAXCCALLS, with no position in the message."""
        self.level += 1
        if self.level > self.deepest:
            self.deepest = self.level
            if too_deep(self.level, self.c_levels):
                raise LuaSyntaxError(C_STACK_OVERFLOW)

    def error(self, line, msg):
        raise LuaSyntaxError('%s:%d: %s' % (self.chunkname, line, msg))

    # ------------------------------------------------------------ scoping
    def main(self, chunk):
        fi = FuncInfo(None, True)
        fi.upvals.append(('_ENV', False, 0, None))
        fi.upindex['_ENV'] = 0
        self.res.funcs[id(chunk)] = fi
        self.fn = fi
        self.tokens = chunk.tokens
        fi.after_line = chunk.tokens[-1][2] if chunk.tokens else chunk.body.end_line
        self.block(chunk.body, False)

    def open_block(self, is_loop):
        b = _Block(is_loop)
        self.fn.blocks.append(b)
        return b

    def close_block(self, blk):
        b = self.fn.blocks.pop()
        # Pending gotos move outwards; a goto may still find its label in an
        # enclosing block, where it sees fewer locals.
        parent = self.fn.blocks[-1] if self.fn.blocks else None
        for name, line, nvars, node in b.gotos:
            if parent is None:
                # Lua finds a function's pending gotos as it closes it, the
                # token after its end read.
                if name is None:
                    self.error(self.fn.after_line, 'break outside loop at line %d' % line)
                self.error(self.fn.after_line, "no visible label '%s' for <goto> at line %d" % (name, line))
            parent.gotos.append((name, line, len(parent.vars), node))

    def declare(self, name, attrib, line, near="'='"):
        """A new local; ``near`` is the token Lua's parser has reached when
        it declares it, for the message past Lua's limit of locals."""
        if sum(len(b.vars) + b.hidden for b in self.fn.blocks) >= MAX_LOCALS:
            where = 'main function' if self.fn.parent is None else 'function at line %d' % self.fn.line
            self.error(line, 'too many local variables (limit is %d) in %s near %s' % (MAX_LOCALS, where, near))
        v = Var(name, attrib, line)
        v.home = self.fn
        self.fn.blocks[-1].vars.append(v)
        self.vars.append(v)
        return v

    def lookup(self, name, line, fi=None):
        """Return ('local', Var) | ('upval', idx) | None for ``name``, used
        on ``line``, in function ``fi``."""
        fi = fi or self.fn
        for b in reversed(fi.blocks):
            for v in reversed(b.vars):
                if v.name == name:
                    return ('local', v)
        if name in fi.upindex:
            return ('upval', fi.upindex[name])
        if fi.parent is None:
            return None
        outer = self.lookup(name, line, fi.parent)
        if outer is None:
            return None
        if outer[0] != 'const' and len(fi.upvals) >= MAX_UPVALUES:
            self.error(line, 'too many upvalues (limit is %d) in function at line %d' % (MAX_UPVALUES, fi.line))
        if outer[0] == 'local':
            v = outer[1]
            if v.const is not None:
                return ('const', v.const[0])
            v.captured = True
            own = v.names is not None and self.res.funcs.get(id(v.names)) is fi
            if (v.capturer is not None and v.capturer is not fi) or (not own and _made_in_loop(v, fi.parent)):
                v.shared = True
            v.capturer = fi
            idx = len(fi.upvals)
            fi.upvals.append((name, True, v, v))
        elif outer[0] == 'const':
            return outer
        else:
            v = _upvalue_local(fi.parent, outer[1])
            if v is not None:           # each closure the capturing function makes sees it
                v.shared = True
            idx = len(fi.upvals)
            fi.upvals.append((name, False, outer[1], None))
        fi.upindex[name] = idx
        return ('upval', idx)

    def line_after(self, index):
        """The line of the token after token ``index``: where Lua's lexer
        stands when it checks what ends there."""
        return self.tokens[index + 1][2] if 0 < index < len(self.tokens) - 1 else self.tokens[-1][2]

    def after_void_statements(self, label):
        """The line Lua reads when it makes ``label``: past the ``;`` and
        the labels that follow it (lparser.c's labelstat skips them first)."""
        i, tokens = label.last + 1, self.tokens
        while i < len(tokens):
            if tokens[i][0] == ';':
                i += 1
            elif tokens[i][0] == '::' and i + 2 < len(tokens) and tokens[i + 2][0] == '::':
                i += 3
            else:
                break
        return tokens[min(i, len(tokens) - 1)][2]

    def bind_name(self, node, assigning=False, checked_at=None):
        """Bind the name ``node``; ``assigning`` it, the statement's check
        that it is no constant happens past token ``checked_at`` (by default
        the name's own)."""
        b = self.lookup(node.name, node.line)
        if b is None:
            env = self.lookup('_ENV', node.line)
            if env[0] == 'const':
                self.error(node.line, "attempt to index a constant value")
            self.res.names[id(node)] = ('global', env)
            return
        if b[0] == 'local' and b[1].const is not None:
            b = ('const', b[1].const[0])
        if assigning and (b[0] == 'const' or (b[0] == 'local' and b[1].attrib)
                          or (b[0] == 'upval' and self._upval_readonly(b[1]))):
            self.error(self.line_after(node.last if checked_at is None else checked_at),
                       "attempt to assign to const variable '%s'" % node.name)
        if assigning and b[0] == 'local':
            b[1].assigned = True
        elif assigning and b[0] == 'upval':
            var = self._upval_var(b[1])
            if var is None:
                self.res.env_assigned = True
            else:
                var.assigned = True
        self.res.names[id(node)] = b

    def _upval_readonly(self, idx):
        var = self._upval_var(idx)
        return var is not None and var.attrib is not None

    def _upval_var(self, idx):
        return _upvalue_local(self.fn, idx)

    # ------------------------------------------------------------ statements
    def block(self, blk, is_loop, pre_vars=(), hidden=0):
        b = self.open_block(is_loop)
        b.hidden = hidden
        for name, attrib, line, holder, near in pre_vars:
            holder.append(self.declare(name, attrib, line, near))
        self.stmts(blk.stmts)
        self.close_block(b)

    def stmts(self, stmts, until=False):
        b = self.fn.blocks[-1]
        i = 0
        while i < len(stmts):
            count_instructions(RESOLVE_STATEMENT)        # the cancel check
            if stmts[i].__class__ is not A.Label:
                self.stmt(stmts[i])
                i += 1
                continue
            # lparser.c's labelstat reads the labels (and ';') after a label
            # as statements of their own, one C level deeper each, before it
            # makes it: the last of a run is made first.
            run = i + 1
            while run < len(stmts) and stmts[run].__class__ is A.Label:
                run += 1
            for _ in range(i, run):
                self.enter()
            # A label followed only by void statements is outside the scope
            # of the block's trailing locals (Lua 5.4 rule), except in a
            # repeat body, whose locals the 'until' condition sees.
            at_end = not until and run == len(stmts)
            for k in range(run - 1, i - 1, -1):
                self.label(stmts[k], at_end)
            self.level -= run - i
            i = run
        self.resolve_gotos(b)

    def stmt(self, s):
        self.enter()                    # lparser.c's statement()
        getattr(self, 's_' + s.__class__.__name__)(s)
        self.level -= 1

    def label(self, s, at_end):
        made_at = self.after_void_statements(s)
        for blk in self.fn.blocks:
            if s.name in blk.labels:
                self.error(made_at, "label '%s' already defined on line %d" % (s.name, blk.labels[s.name][0]))
        b = self.fn.blocks[-1]
        b.labels[s.name] = (s.line, len(b.vars), at_end, s)
        self.fn.has_labels = True
        self.resolve_gotos(b, made_at)

    def resolve_gotos(self, b, made_at=None):
        """Resolve ``b``'s pending gotos to its labels; ``made_at``, the line
        Lua reads when it makes the label just met."""
        pending = []
        for name, line, nvars, node in b.gotos:
            if name is None:
                if b.is_loop:
                    continue
                pending.append((name, line, nvars, node))
                continue
            lab = b.labels.get(name)
            if lab is None:
                pending.append((name, line, nvars, node))
                continue
            self.res.goto_depth[id(node)] = self.fn.blocks.index(b)
            _, lvars, at_end, label = lab
            self.res.goto_label[id(node)] = label
            if lvars > nvars and not at_end:
                self.error(made_at or line,
                           "<goto %s> at line %d jumps into the scope of local '%s'"
                           % (name, line, b.vars[nvars].name))
        b.gotos = pending

    def s_Local(self, s):
        for e in s.exprs:
            self.expr(e)
        vars_ = []
        for n, (name, attrib) in enumerate(zip(s.names, s.attribs)):
            line = s.line
            if n + 1 < len(s.names):
                near = "','"
            elif attrib:
                near = "'<'"
            elif s.follow is not None:
                near, line = s.follow
            else:
                near = "'='"
            vars_.append(self.declare(name, attrib, line, near))
        # As lparser.c's localstat(): the last of the names, when <const>
        # and given a constant expression of its own, is a compile-time
        # constant, in no register (one without an initializer is not).
        if len(s.exprs) == len(s.names) and vars_[-1].attrib == 'const':
            vars_[-1].const = _constant_value(s.exprs[-1], self.res.names)
        self.res.decls[id(s)] = vars_

    def s_LocalFunction(self, s):
        v = self.declare(s.name, None, s.line, "'('")
        v.names = s.func
        self.res.decls[id(s)] = [v]
        self.function(s.func, s.last)

    def s_Assign(self, s):
        level = self.level
        for n, t in enumerate(s.targets):
            if t.__class__ is A.Name:
                self.bind_name(t, assigning=True)
            else:
                self.walk(t)
            if n:
                self.enter()            # restassign() recurses per target after the first
        for e in s.exprs:
            self.expr(e)
        self.level = level

    def s_CallStat(self, s):
        self.walk(s.call)

    def s_Do(self, s):
        self.block(s.body, False)

    def s_While(self, s):
        self.expr(s.cond)
        self.block(s.body, True)

    def s_Repeat(self, s):
        b = self.open_block(True)
        self.stmts(s.body.stmts, until=True)
        self.expr(s.cond)
        self.close_block(b)

    def s_If(self, s):
        for cond, body in s.tests:
            self.expr(cond)
            self.block(body, False)
        if s.orelse is not None:
            self.block(s.orelse, False)

    def s_NumFor(self, s):
        self.expr(s.start)
        self.expr(s.stop)
        if s.step is not None:
            self.expr(s.step)
        holder = []
        self.block(s.body, True, [(s.var, None, s.line, holder, "'='")], hidden=3)
        self.res.decls[id(s)] = holder

    def s_GenFor(self, s):
        for e in s.exprs:
            self.expr(e)
        holder = []
        self.block(s.body, True, [(n, None, s.line, holder, "','" if k + 1 < len(s.names) else "'in'")
                                  for k, n in enumerate(s.names)], hidden=4)
        self.res.decls[id(s)] = holder

    def s_FunctionStat(self, s):
        t = s.target
        if t.__class__ is A.Name:
            self.bind_name(t, assigning=True, checked_at=s.last)     # once the body is read
        else:
            self.walk(t)
        self.function(s.func, s.last)

    def s_Return(self, s):
        for e in s.exprs:
            self.expr(e)

    def s_Break(self, s):
        self.fn.blocks[-1].gotos.append((None, s.line, len(self.fn.blocks[-1].vars), s))

    def s_Goto(self, s):
        self.fn.blocks[-1].gotos.append((s.label, s.line, len(self.fn.blocks[-1].vars), s))

    def s_Label(self, s):
        self.label(s, False)

    # ----------------------------------------------------------- expressions
    def expr(self, e):
        """An expression lparser.c parses with expr(): a C level of its own."""
        self.enter()
        self.walk(e)
        self.level -= 1

    def walk(self, e):
        """``e`` at the current C level: a call's or index's prefix, a
        binary operator's left operand and a bare table argument stay at
        their parent's level; operands lparser.c reads with subexpr() or
        expr() take one more."""
        c = e.__class__
        if c is A.Name:
            self.bind_name(e)
        elif c is A.Index:
            self.walk(e.obj)
            if e.bracketed:
                self.expr(e.key)
        elif c is A.Call or c is A.MethodCall:
            self.walk(e.func if c is A.Call else e.obj)
            for a in e.args:
                if e.bare:
                    self.walk(a)
                else:
                    self.expr(a)
        elif c is A.BinOp:
            # Down a chain's left operands (``a + b + c + ...`` nests on the
            # left) without recursing, then its right ones, in source order.
            rights = []
            while e.__class__ is A.BinOp:
                count_instructions(RESOLVE_STATEMENT)      # the cancel check: long operator chains
                rights.append(e.right)
                e = e.left
            self.walk(e)
            for right in reversed(rights):
                count_instructions(RESOLVE_STATEMENT)      # and coming back up
                self.expr(right)
        elif c is A.UnOp or c is A.Paren:
            self.expr(e.operand if c is A.UnOp else e.expr)
        elif c is A.Function:
            self.function(e)
        elif c is A.Table:
            for i, f in enumerate(e.fields):
                if i & 63 == 63:
                    count_instructions(64 * RESOLVE_STATEMENT)      # a field costs about a statement
                if f.__class__ is A.KeyedField:
                    self.expr(f.key)
                self.expr(f.value)

    def function(self, f, last=0):
        """Resolve function ``f``, whose ``end`` is token ``last`` (by
        default ``f``'s own last token)."""
        fi = FuncInfo(self.fn, f.is_vararg, f.line)
        last = last or f.last
        fi.after_line = self.line_after(last) if last else f.body.end_line
        self.res.funcs[id(f)] = fi
        saved = self.fn
        self.fn = fi
        holder = []
        self.block(f.body, False, [(p, None, f.line, holder, "','" if k + 1 < len(f.params) or f.is_vararg
                                    else "')'") for k, p in enumerate(f.params)])
        self.res.decls[id(f)] = holder
        self.fn = saved


def _constant_value(e, names):
    """``(value,)`` when ``e`` is a constant to lcode.c's luaK_exp2const (a
    literal, a folded number, a compile-time constant, ``not`` of one), else None."""
    while e.__class__ is A.Paren:
        e = e.expr
    c = e.__class__
    if c is A.Nil:
        return (None,)
    if c is A.TrueLit or c is A.FalseLit:
        return (c is A.TrueLit,)
    if c is A.String:
        return (e.value,)
    if c is A.Name:
        binding = names.get(id(e))
        return (binding[1],) if binding is not None and binding[0] == 'const' else None
    if c is A.UnOp and e.op == 'not':
        operand = _constant_value(e.operand, names)
        return None if operand is None else (operand[0] is None or operand[0] is False,)
    number = folded_number(e, names)
    return None if number is None else (number,)
