"""A section VM: the fresh Lua state one chain step (the H1 body, or one
section entry) runs its blocks in, with the Engine globals installed.

The memory ceiling and the log quotas are set as the VM is built, before
any global is installed, so they cover everything that runs in it.  Blocks
are loaded under the prompt's name with their file lines, so a runtime
error reads ``name:LINE: ...`` with LINE a line of the prompt file.
"""
from __future__ import annotations

from pylua import LuaError, LuaInterrupt, LuaRuntime, LuaSyntaxError
from pylua.raw import GenBuiltin, LuaTable, Userdata

from ..conversation.messages import REASSIGNED, MessageList
from ..models import library as models, loop_install
from ..tools import library as tools
from ..vocabulary import functions
from ..vocabulary.crossing import BYTES, TEXT
from ..vocabulary.effects import EffectRequest
from ..vocabulary.error_values import ErrorValues, default_text, describe, interrupted
from ..vocabulary.failure import INTERRUPTED, internal_failure, lua_failure
from ..vocabulary.jsondata import JsonShapes
from ..vocabulary.kinds import ErrorKind, RunErrorKind
from . import calls, json_lib, modules, questions, store, tasks
from .chains import CANCEL
from .log import LogBook
from .prose import PendingProse, Substitution
from .var import VarView


class SectionVM:
    def __init__(self, run, chain, section_name: str | None):
        self.run = run
        self.chain = chain
        chain.vm = self
        self.section_name = section_name
        limits = run.limits
        self.runtime = LuaRuntime(max_memory=limits.memory_ceiling)
        run.cancel.attach(self.runtime)
        self.logbook = LogBook(limits.log_event_quota, self._checkpoint)
        self.globals = self.runtime.vm.globals
        self.chunkname = '=' + run.prompt.name
        self.values = ErrorValues(self.text_of)
        self.shapes = JsonShapes(limits.memory_ceiling)
        self.var = VarView(chain.var_data, self.shapes, self.values)
        self.substitution = Substitution(self)
        self._lazy_prose: PendingProse | None = None
        self.messages = MessageList(self)
        self.notices: list[str] | None = []     # notices of the model's tasks, for its next round
        g = self.globals
        g.meta = self._globals_guard()
        g.set_str('print', None)   # a run has no stdout for Lua; log records checkpoints
        g.set_str('var', self.var.userdata)
        g.set_str('json', json_lib.make(self.shapes, self.values))
        g.set_str('log', self.function('log', self.logbook.log, takes=(BYTES,)))
        g.set_str('input', self._input_table())
        g.set_str('args', self._args_table())
        self.models = models.install(self)
        self.tools = tools.install(self)
        self.tasks = tasks.install(self)
        calls.install(self)
        modules.install(self)
        store.install(self)
        loop_install.install(self)
        for library in run.libraries:
            library.install(self)
        for pack in run.packs.values():
            if pack.prelude:
                self._install_prelude(pack)

    # -- what libraries use ------------------------------------------------------
    def function(self, name: str, fn, takes: tuple = (), rest=None, gives: tuple = ()):
        """An Engine function, with the kinds it takes and gives
        (``functions.Signature``)."""
        return functions.function(self.values, name, fn, takes, rest, gives)

    def generator(self, name: str, fn, takes: tuple = (), rest=None, gives: tuple = ()):
        return functions.generator(self.values, name, fn, takes, rest, gives)

    def load(self, source: str):
        return self.runtime.load(source, self.chunkname)

    # -- running blocks ------------------------------------------------------------
    def set_prose(self, prose: PendingProse) -> None:
        """Make ``prose`` the pending prose of the next block."""
        literal = prose.literal
        self._lazy_prose = None if literal is not None else prose
        self.globals.set_str('prose', TEXT.give(literal))

    def engine_global(self, name: str):
        """A global's value, the ones the globals guard serves included."""
        if name == 'messages':
            return self.messages.userdata
        return self.globals.get(TEXT.give(name))

    def _globals_guard(self) -> LuaTable:
        """The globals' metatable.  ``messages`` is served from here rather
        than stored in the globals, because only a missing key reaches
        ``__newindex``: that is what lets ``messages = {}`` be refused and
        the global keep the same list.  Pending prose with placeholders is
        served here too, substituted when read (``set_prose``).  The
        metatable is protected so no block can remove the guard."""
        meta = LuaTable()
        meta.set_str('__index', self.generator('_G', self._read_global))
        meta.set_str('__newindex', self.function('_G', self._write_global))
        meta.set_str('__metatable', False)
        return meta

    def _read_global(self, _globals=None, key=None, *_):
        if key == 'messages':
            return (self.messages.userdata,)
        if key == 'prose' and self._lazy_prose is not None:
            return ((yield from self.substitution.substitute(self._lazy_prose)),)
        return (None,)

    def _write_global(self, globals_table, key=None, value=None, *_):
        if key == 'messages':
            raise lua_failure(REASSIGNED)
        globals_table.set(key, value)
        return ()

    def run_block(self, block):
        """Run one block (a generator: it yields each EffectRequest and takes
        the Engine's Answer); returns the block's raw results."""
        try:
            fn = self.load('\n' * (block.line - 1) + block.source)
        except LuaSyntaxError as err:   # the parser compiled every block already
            raise internal_failure('a parsed block does not compile: %s' % err) from None
        return (yield from self._drive(self.runtime.run(fn)))

    def _drive(self, gen):
        send = throw = None
        try:
            while True:
                try:
                    effect = gen.send(send) if throw is None else gen.throw(throw)
                except StopIteration as stop:
                    return stop.value
                except LuaError as err:
                    raise self.failure_of(err) from None
                send = throw = None
                request = getattr(effect, 'payload', None)
                if not isinstance(request, EffectRequest):
                    raise internal_failure('Lua requested %r, which is not an Engine effect' % (effect,))
                self.values.forget()
                if self.run.cancel.is_set() or self.chain.cancelled:  # a cancelled chain issues nothing more
                    throw = LuaInterrupt(INTERRUPTED)
                    continue
                answer = yield request
                if answer is CANCEL:
                    throw = LuaInterrupt(INTERRUPTED)
                elif answer.failure is not None:
                    throw = self.values.error(answer.failure)
                elif answer.interrupted:
                    throw = self.values.error(interrupted())
                else:
                    send = answer.value
        finally:
            gen.close()

    def failure_of(self, err: LuaError):
        """The Failure a Lua error ending a block stands for: a cancel wins
        over everything, then a log quota refusal, then the error itself."""
        if self.run.cancel.is_set() or self.chain.cancelled or isinstance(err, LuaInterrupt):
            return interrupted()
        if self.logbook.quota_failure is not None:
            return self.logbook.quota_failure
        return self.values.read(err)

    def text_of(self, value) -> str:
        """An uncaught error value's text, as the standalone interpreter
        shows it (its ``__tostring`` asked when it has one)."""
        if value.__class__ is not LuaTable and value.__class__ is not Userdata:
            return default_text(value)
        gen = self.runtime.run(_DESCRIBE, value)
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value[0]
        except LuaError:
            return default_text(value)
        gen.close()                         # a __tostring that waits on the Harness
        return default_text(value)

    def notify(self, notice: str) -> None:
        """Queue a model task's notice for the next loop round (dropped once
        the section has ended)."""
        if self.notices is not None:
            self.notices.append(notice)

    @property
    def place(self) -> str:
        """How messages name this section entry."""
        return 'the H1 body' if self.section_name is None else 'section `%s`' % self.section_name

    def chain_args(self) -> dict:
        """The args this chain's sections see: the run's, or a task's."""
        return self.run.args if self.chain.args is None else self.chain.args

    def interrupt(self) -> None:
        """The chain is torn down: Lua still running in this VM stops at its
        next instruction check, as on a run cancel."""
        self.runtime.cancel(INTERRUPTED)

    def close(self) -> None:
        if self.chain.vm is self:
            self.chain.vm = None
        self.notices = None
        self.run.cancel.detach(self.runtime)

    # -- setup -----------------------------------------------------------------------
    def _checkpoint(self, message: str) -> None:
        task = self.chain.slot_task
        self.run.checkpoint(self.section_name, message, None if task is None else task.id)

    def _install_prelude(self, pack) -> None:
        """Run a declared Pack's prelude in this VM, before any section
        code.  One that fails, or would wait on the Harness, fails the run
        as Lua (never as the H1 gate); one that runs out a log quota, as
        Quota."""
        problem = None
        try:
            gen = self.runtime.run(self.runtime.load(pack.prelude, '=[pack %s]' % pack.id))
            next(gen)
            gen.close()
            problem = 'a prelude cannot wait on the Harness'
        except StopIteration:
            return
        except LuaError as err:
            failure = self.failure_of(err)
            # A cancel, and a log quota run out (uncaught Lua quota errors
            # always end the run as Quota), keep their own kind.
            if failure.error_kind is ErrorKind.CANCELLED or failure.kind is RunErrorKind.QUOTA:
                raise failure from None
            problem = failure.run_message
        raise lua_failure('Pack `%s` prelude failed to install: %s' % (pack.id, problem), gate=False)

    def _input_table(self) -> LuaTable:
        table = LuaTable()
        if self.run.input_text is not None:
            table.set_str('text', TEXT.give(self.run.input_text))
        questions.install(self, table)
        return table

    def _args_table(self) -> LuaTable:
        table = LuaTable()
        for name, value in self.chain_args().items():
            table.set_str(TEXT.give(name), None if value is None else self.shapes.to_lua(value))
        return table


def _describe(value=None, *_):
    return ((yield from describe(value)),)


_DESCRIBE = GenBuiltin(_describe, 'describe')
