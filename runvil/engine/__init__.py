"""The Engine: runs a prompt's chains in section VMs and turns every call
that waits on the Harness into an effect.  No I/O happens here."""
from .cancel import CancelFlag
from .chains import CALL_DEPTH_CAP
from ..vocabulary.effects import Answer, Effect, EffectRequest, request
from ..vocabulary.failure import GATE_NOTICE, INTERRUPTED, Failure, join_message
from ..vocabulary.kinds import REPORTED_RUN_ERROR_KINDS, ErrorKind, RunErrorKind
from .outcome import Outcome
from .requirements import Environment, ModelBinding

__all__ = ['Answer', 'CALL_DEPTH_CAP', 'CancelFlag', 'Effect', 'EffectRequest', 'Engine',
           'Environment', 'ErrorKind', 'Failure', 'GATE_NOTICE', 'INTERRUPTED', 'ModelBinding',
           'Outcome', 'REPORTED_RUN_ERROR_KINDS', 'RunErrorKind', 'join_message', 'request']


def __getattr__(name):
    # The chains pull in the conversation and the tools, which build on the
    # modules above: importing them lazily keeps ``runvil.engine`` free of
    # import cycles for every package that uses its failure vocabulary.
    if name == 'Engine':
        from .run import Engine
        return Engine
    raise AttributeError('module %r has no attribute %r' % (__name__, name))
