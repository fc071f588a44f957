"""What the chains run: the main chain (the H1 pass, then the section walk)
and a task's or a call's section with the sections under it, each step in
a fresh section VM, following jumps.  The chain generators yield
EffectRequests and take Answers; the scheduler drives them."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..prompt import LuaBlock
from ..vocabulary import headings
from ..vocabulary.error_values import interrupted
from ..vocabulary.failure import Failure, gate_failure, internal_from_exception, lua_failure
from ..vocabulary.jsondata import JsonShapes
from ..vocabulary.kinds import RunErrorKind
from .calls import jump_of
from .cancel import CancelFlag
from .claims import Claims
from .prose import PendingProse
from .results import result_text
from .section_vm import SectionVM


@dataclass
class RunState:
    """What every chain of one run shares."""
    prompt: object
    limits: object
    cancel: CancelFlag
    emit: object
    libraries: tuple
    input_text: str | None
    args: dict
    board: object = None                            # the run's TaskBoard
    claims: Claims = field(default_factory=Claims)  # the store accesses of every chain
    models: dict = field(default_factory=dict)      # role label -> ModelBinding, bound at prepare
    packs: dict = field(default_factory=dict)       # the declared Packs, by id
    default_role: str | None = None                 # set by models.default in the H1 body
    rounds: int = 0                                 # model rounds served so far (the turn counter)
    sends: int = 0                                  # model requests sent so far (each round's id)

    @property
    def round_cap(self) -> int:
        """The most model rounds one loop call takes: the prompt's
        max_tool_iterations when it sets one, else the run's cap."""
        return self.prompt.frontmatter.max_tool_iterations or self.limits.round_cap

    def checkpoint(self, section: str | None, message: str, task: str | None = None) -> None:
        """A log checkpoint; ``task`` is the id of the task it was made in."""
        if task is None:
            self.emit('log', section=section, message=message)
        else:
            self.emit('log', section=section, message=message, task=task)


def walk(run: RunState, chain):
    """The H1 pass, then every section in document order; returns the run
    result: the value the last returning section returned, as text, or the
    empty string when no section returned one.  A section (or the H1 body)
    that returns ``jump(section)`` sends the walk on from that section."""
    prompt = run.prompt
    sections = tuple(prompt.walk())
    start = 0
    if prompt.h1_blocks:
        run.emit('h1_started', title=prompt.title)
        try:
            value = yield from _step(run, chain, None, prompt.body)
        except Failure as failure:
            # Only the H1 body's own ordinary Lua errors fail the hard gate.
            raise gate_failure(failure) if failure.kind is RunErrorKind.LUA and failure.gate else failure
        run.emit('h1_finished', title=prompt.title)
        target = jump_of(value)
        if target is not None:
            start = _jump_target(run, None, target, sections)
    result = yield from _sections(run, chain, sections, start, announce=True)
    return '' if result is None else result_text(result)


def run_task(run: RunState, task):
    """A task's chain (or a call chain): its section and the sections under
    it, each in a fresh VM.  Returns the result (the value the last
    returning section returned) as JSON data, None when none returned one."""
    try:
        value = yield from _sections(run, task.chain, tuple(task.section.walk()), 0, announce=False)
        if value is None:
            return None
        return JsonShapes(run.limits.memory_ceiling).to_data(value, 'result', '%s: ' % task.title)
    except Failure:
        raise
    except Exception as err:    # a fault of the Engine's own code, handed to whoever joins
        raise internal_from_exception(err) from None


def _sections(run: RunState, chain, sections: tuple, start: int, announce: bool):
    """Run ``sections`` from ``start`` in order, following jumps among
    them; returns the value the last returning section returned."""
    result = None
    i = start
    while i < len(sections):
        if run.cancel.is_set():
            raise interrupted()
        section = sections[i]
        if announce:
            run.emit('section_started', section=section.name, line=section.line)
        value = None
        if section.blocks:      # a section without Lua runs nothing and needs no VM
            value = yield from _step(run, chain, section.name, section.pieces)
        if announce:
            run.emit('section_finished', section=section.name, returned=value is not None)
        target = jump_of(value)
        if target is not None:
            i = _jump_target(run, section, target, sections)
            continue
        if value is not None:
            result = value
        i += 1
    return result


def _jump_target(run: RunState, section, jump, sections: tuple) -> int:
    """Where a jump sends its chain.  This is the chain's machinery, not
    the section's code, so a failure here is never the H1 gate's."""
    try:
        target = headings.resolve(run.prompt, jump.reference)
        if target not in sections:
            raise lua_failure('jump target `%s` is outside the sections this chain runs: %s'
                              % (jump.reference, ', '.join(headings.heading(s) for s in sections)))
    except Failure as failure:
        failure.gate = False
        raise
    run.emit('jump', section=None if section is None else section.name, target=target.name)
    return sections.index(target)


def _step(run: RunState, chain, section_name: str | None, pieces):
    """Run one chain step's blocks in a fresh VM.  A block that returns a
    value other than nil ends the step; the step returns that value (None
    when no block returned one) and leaves its var for the chain's next
    step.  Every task the step started must have ended by then."""
    steps = _blocks_with_prose(pieces)
    vm = SectionVM(run, chain, section_name)
    try:
        value = None
        for block, prose in steps:
            if run.cancel.is_set():
                raise interrupted()
            vm.set_prose(prose)
            results = yield from vm.run_block(block)
            if results and results[0] is not None:
                value = results[0]
                break
        leaked = vm.tasks.leaked()
        if leaked is not None:
            raise leaked
        chain.var_data = vm.var.read_back()
        return value
    finally:
        vm.tasks.abandon()
        if vm.messages.records:     # the section's conversation as it ended, meta included
            run.emit('messages', section=section_name, records=list(vm.messages.records))
        vm.close()


def _blocks_with_prose(pieces) -> list[tuple[LuaBlock, PendingProse]]:
    """Each block with its pending prose: the prose since the previous block."""
    steps, pending = [], []
    for piece in pieces:
        if isinstance(piece, LuaBlock):
            steps.append((piece, PendingProse(pending)))
            pending = []
        else:
            pending.append(piece)
    return steps
