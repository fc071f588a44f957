"""Claims: the store accesses of a run's chains, and the races among them.

Two accesses to one store path race when neither chain waited for the
other, so which comes first depends on timing; at least one of them must
write (or delete).  A race is a *claims conflict* and ends the run as
Determinism, whichever order the accesses came in.

"Waited for" is tracked with vector clocks, one per chain.  A spawn hands
the child its starter's clock (so the child sees everything its starter
did before) and moves the starter on; taking a task's end (join, join_any,
fanout, a call's return, await_tasks) folds the task's clock into the
taker's.  An access happened before another when its chain's count at the
access is within the other chain's clock.  A listing reads every path.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..vocabulary.failure import Failure
from ..vocabulary.kinds import RunErrorKind


def new_clock(chain_id: str) -> dict:
    return {chain_id: 1}


def fork(parent_clock: dict, child_id: str) -> dict:
    """A child's clock at its spawn; the parent's own count moves on."""
    child = dict(parent_clock)
    child[child_id] = 1
    return child


def merge(into: dict, other: dict) -> None:
    for chain_id, count in other.items():
        if count > into.get(chain_id, 0):
            into[chain_id] = count


@dataclass(frozen=True)
class Access:
    chain: str          # the chain's id
    count: int          # its own count at the access
    who: str            # how messages name the chain

    def before(self, clock: dict) -> bool:
        return self.count <= clock.get(self.chain, 0)


@dataclass
class _Path:
    write: Access | None = None                     # the last write or delete
    reads: dict = field(default_factory=dict)       # chain id -> its last read since that write


class Claims:
    def __init__(self):
        self.paths: dict[str, _Path] = {}
        self.listings: dict = {}                    # chain id -> its last listing

    def read(self, chain, who: str, path: str) -> None:
        state = self.paths.setdefault(path, _Path())
        self._after_write(chain, who, path, state, 'read')
        state.reads[chain.id] = self._access(chain, who)

    def write(self, chain, who: str, path: str) -> None:
        state = self.paths.setdefault(path, _Path())
        self._after_write(chain, who, path, state, 'write')
        for earlier, accesses in (('read', state.reads), ('list', self.listings)):
            for access in accesses.values():
                if access.chain != chain.id and not access.before(chain.clock):
                    raise _conflict(path, access.who, earlier, who, 'write')
        state.write = self._access(chain, who)
        state.reads = {}

    def listing(self, chain, who: str) -> None:
        for path, state in self.paths.items():
            self._after_write(chain, who, path, state, 'list')
        self.listings[chain.id] = self._access(chain, who)

    @staticmethod
    def _after_write(chain, who: str, path: str, state: _Path, doing: str) -> None:
        last = state.write
        if last is not None and last.chain != chain.id and not last.before(chain.clock):
            raise _conflict(path, last.who, 'write', who, doing)

    @staticmethod
    def _access(chain, who: str) -> Access:
        return Access(chain.id, chain.clock[chain.id], who)


def _conflict(path: str, first: str, first_did: str, second: str, second_did: str) -> Failure:
    return Failure(RunErrorKind.DETERMINISM,
                   'claims conflict on store path %s: %s %s it and %s %s it, and neither waited for the other'
                   % (path, first, _past(first_did), second, _past(second_did)), error_kind=None)


def _past(verb: str) -> str:
    return {'read': 'read', 'write': 'wrote', 'list': 'listed'}[verb]
