"""The ``messages`` global: the section's conversation.

One ``MessageList`` is built with each section VM (the H1 pass's VM too),
so every section entry starts with an empty list that keeps its identity
for the VM's whole life.  In Lua it is a userdata:

* ``#messages``, ``messages[i]`` (a read-only record view; an integral
  float reads as its integer; anything else, and any position outside the
  list, reads nil), ``ipairs`` (live), ``pairs`` (live, but stops at the
  count the list had when the walk began);
* the builder methods ``system``, ``user``, ``assistant``, ``tool`` and
  ``append``, each appending one checked record and returning the list;
* ``replace(first, last, records...)``, only while a compactor runs
  (``compacting``), all or nothing;
* every assignment into the list is refused, and so is reassigning the
  global (the section VM's globals guard asks ``REASSIGNED``).

An edit converts its values first (``record_data``), checks the record
(``records``) at the position it would take, and only then appends, so a
refused edit leaves the list exactly as it was.
"""
from __future__ import annotations

from pylua.raw import Builtin, LuaTable, Userdata, charge, tostring_raw, type_name

from ..vocabulary.failure import lua_failure
from .compose import Composer
from .record_data import RecordConverter, Unrepresentable
from .record_views import RecordViews
from .records import RecordError, check, leading_block, placement

REASSIGNED = ('messages is the section\'s conversation and cannot be reassigned; add records with '
              'append(record), or rewrite history with models.compact(compactor, reason)')
REPLACE_OUTSIDE = ('replace works only inside a compactor; rewrite history with '
                   'models.compact(compactor, reason)')
ASSIGNED_INTO = ('messages cannot be assigned to by index; add records with append(record), or '
                 'rewrite history with models.compact(compactor, reason)')

# Each method's arguments after the list.  The four role builders set the
# role from their own name; append takes a whole record.
_ARGUMENTS = {
    'system': ('content', 'meta'),
    'user': ('content', 'meta'),
    'assistant': ('content', 'tool_calls', 'meta'),
    'tool': ('content', 'tool_call_id', 'meta'),
    'append': ('record',),
}
_OPTIONAL = ('meta', 'tool_calls')


def _signature(name: str) -> str:
    return '(%s)' % ', '.join(arg + '?' if arg in _OPTIONAL else arg for arg in _ARGUMENTS[name])


class MessageList:
    """One VM's conversation: ``records`` (stored dicts, see ``records``)
    and the userdata Lua sees.

    ``busy`` says what runs on the list now: None, ``'loop'`` or
    ``'compactor'`` (one at a time per section); ``compacting`` is true
    while a compactor runs, the only time ``replace`` works.  ``anchor``
    is the precheck's latest measured round and ``logged`` the messages the
    run log's chat records hold so far."""

    def __init__(self, vm):
        self.records: list[dict] = []
        self.size = 0                  # bytes the records hold, for pylua's memory ceiling
        self.busy: str | None = None
        self.compacting = False
        self.anchor = None
        self.logged: list[dict] = []
        self._composer: Composer | None = None     # picks up where the last request left off
        self.views = RecordViews(vm)
        self.converter = RecordConverter(vm.shapes, self.views.record_of)
        meta = LuaTable()
        meta.set_str('__name', 'messages')
        meta.set_str('__index', vm.function('messages', self._index))
        meta.set_str('__newindex', vm.function('messages', self._assign))
        meta.set_str('__len', Builtin(self._length, 'messages'))
        meta.set_str('__pairs', Builtin(self._pairs, 'pairs'))
        meta.set_str('__metatable', False)
        self.userdata = Userdata(self, meta)
        self.methods = {name: vm.function('messages:' + name, self._method(name)) for name in _ARGUMENTS}
        self.methods['replace'] = vm.function('messages:replace', self._replace)

    # -- reading ------------------------------------------------------------------
    def view(self, position):
        """The view at a 1-based position, or nil: an integral float counts
        as its integer, any other key is no position."""
        if position.__class__ is float and position.is_integer():
            position = int(position)
        if position.__class__ is int and 1 <= position <= len(self.records):
            return self.views.make(self.records[position - 1])
        return None

    def _index(self, _list, key=None, *_):
        if key.__class__ is str:
            return (self.methods.get(key),)
        return (self.view(key),)

    def _length(self, *_):
        return (len(self.records),)

    def _pairs(self, *_):
        # The walk stops at the count the list had when it began, so a loop
        # that appends on every pass still ends; it reads the live list at
        # each step, so it also stops early when the list shrinks.
        end = len(self.records)

        def step(_list=None, position=0, *_):
            position += 1
            if position > end:
                return (None,)
            view = self.view(position)
            return (None,) if view is None else (position, view)
        return (Builtin(step, 'next'), self.userdata, 0)

    # -- editing ------------------------------------------------------------------
    def _assign(self, *_):
        raise lua_failure(ASSIGNED_INTO)

    def _method(self, name: str):
        def method(*args):
            if not args or args[0] is not self.userdata:
                raise lua_failure('call %s on messages with a colon: messages:%s%s'
                                  % (name, name, _signature(name)))
            given = args[1:]
            if len(given) > len(_ARGUMENTS[name]):
                raise lua_failure('messages:%s takes %s' % (name, _signature(name)))
            self.add(self._append_form(given) if name == 'append' else self._builder_form(name, given))
            return (self.userdata,)
        return method

    def _append_form(self, given) -> object:
        record = given[0] if given else None
        if record is None:
            return None
        try:
            return self.converter.convert(record)
        except Unrepresentable as err:
            raise lua_failure('messages[%d] must be a JSON-representable message table: %s'
                              % (len(self.records) + 1, err.reason)) from None

    def _builder_form(self, role: str, given) -> dict:
        data = {'role': role}
        for field, value in zip(_ARGUMENTS[role], given):
            if value is None:           # a nil argument leaves its field out
                continue
            try:
                data[field] = self.converter.convert(value)
            except Unrepresentable as err:
                raise lua_failure('messages[%d] %s must be JSON-representable: %s'
                                  % (len(self.records) + 1, field, err.reason)) from None
        return data

    def _replace(self, *args):
        if not args or args[0] is not self.userdata:
            raise lua_failure('call replace on messages with a colon: messages:replace(first, last, records...)')
        if not self.compacting:
            raise lua_failure(REPLACE_OUTSIDE)
        first = _bound('first', args[1] if len(args) > 1 else None)
        last = _bound('last', args[2] if len(args) > 2 else None)
        n = len(self.records)
        if not 1 <= first <= last + 1 <= n + 1:
            raise lua_failure('replace(%s, %s) is out of bounds on a list of %d records: it needs '
                              '1 <= first <= last + 1 <= %d' % (tostring_raw(args[1]), tostring_raw(args[2]), n, n + 1))
        new = []
        for position, value in enumerate(args[3:], first):
            try:
                data = None if value is None else self.converter.convert(value)
                new.append(check(data, position))
            except Unrepresentable as err:
                raise lua_failure('messages[%d] must be a JSON-representable message table: %s'
                                  % (position, err.reason)) from None
            except RecordError as err:
                raise lua_failure(str(err)) from None
        edited = self.records[:first - 1] + new + self.records[last:]
        try:
            leading_block(edited)
        except RecordError as err:
            raise lua_failure(str(err)) from None
        added = sum(map(_data_size, new))
        charge(added)
        self.set_records(edited)
        return (self.userdata,)

    # -- what the loop and compaction use -------------------------------------------
    def snapshot(self) -> tuple[dict, ...]:
        """The records as they are now, for ``restore``: builders append to
        the live list in place, so a compaction keeps its own copy."""
        return tuple(self.records)

    def restore(self, snapshot: tuple[dict, ...]) -> None:
        """Put back the records of ``snapshot`` (the same record objects,
        so views read before keep matching them)."""
        self.set_records(list(snapshot))

    def set_records(self, records: list[dict]) -> None:
        """Make ``records`` (checked records) the list's records."""
        self.records = records
        self.size = sum(map(_data_size, records))
        self._composer = None

    def request(self) -> tuple[list[dict], int]:
        """What the model receives now, and its precheck text bytes; raises
        the first broken cross-record rule.  Only the records added since
        the last request are composed anew."""
        composer = self._composer or Composer()
        composer.feed(self.records)
        self._composer = composer if composer.error is None else None
        return composer.request(), composer.text_bytes

    def store(self, record: dict) -> None:
        """Append a record the Engine built (the loop's replies and results)."""
        size = _data_size(record)
        charge(size)
        self.records.append(record)
        self.size += size

    def add(self, data) -> None:
        """Append the record ``data`` (converted JSON data), or refuse it
        and leave the list unchanged."""
        position = len(self.records) + 1
        try:
            record = check(data, position)
            placement(self.records, position, record['role'])
        except RecordError as err:
            raise lua_failure(str(err)) from None
        size = _data_size(record)
        charge(size)
        self.records.append(record)
        self.size += size

    def lua_memory_size(self) -> int:
        """What the list holds, counted against the VM's memory ceiling."""
        return self.size


def _bound(name: str, value) -> int:
    """A replace bound: an integer, or a float with no fraction."""
    if value.__class__ is float and value.is_integer():
        return int(value)
    if value.__class__ is int:
        return value
    shown = tostring_raw(value) if value.__class__ is float else type_name(value)
    raise lua_failure('replace %s must be an integer, got %s' % (name, shown))


def _data_size(value) -> int:
    """An estimate of the bytes a stored record holds (its JSON data)."""
    c = value.__class__
    if c is str:
        return 49 + len(value)
    if c is dict:
        return 64 + sum(_data_size(k) + _data_size(v) for k, v in value.items())
    if c is list or c is tuple:
        return 56 + sum(_data_size(v) for v in value)
    return 32
