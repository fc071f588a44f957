"""The Engine: runs a prompt's chains in section VMs and turns every call
that waits on the Harness into an effect.  No I/O happens here.

Besides ``Engine`` it offers what a Harness needs to answer a run: the
effect, failure and environment vocabulary (``runvil.vocabulary``)."""
from ..vocabulary.effects import Answer, Effect, EffectRequest, request
from ..vocabulary.environment import Environment, ModelBinding
from ..vocabulary.failure import GATE_NOTICE, INTERRUPTED, Failure, join_message
from ..vocabulary.kinds import REPORTED_RUN_ERROR_KINDS, ErrorKind, RunErrorKind
from .cancel import CancelFlag
from .chains import CALL_DEPTH_CAP
from .outcome import Outcome
from .run import Engine

__all__ = ['Answer', 'CALL_DEPTH_CAP', 'CancelFlag', 'Effect', 'EffectRequest', 'Engine',
           'Environment', 'ErrorKind', 'Failure', 'GATE_NOTICE', 'INTERRUPTED', 'ModelBinding',
           'Outcome', 'REPORTED_RUN_ERROR_KINDS', 'RunErrorKind', 'join_message', 'request']
