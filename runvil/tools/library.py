"""The ``tools`` and ``packs`` globals of a section VM.

* ``tools.offer('pack/tool')`` offers a tool of a Pack the prompt declares
  under ``uses:``; ``packs.offer('pack')`` offers every tool of one;
* ``tools.offer_local(name, description, schema, handler)`` offers a tool
  whose handler is a Lua function, called with the arguments table;
* ``tools.offer_tasks(section, ...)`` offers the model's task built-ins
  (``task_tools``), naming the sections the model may start;
* ``tools.call(name, args?)`` runs a tool now, by its ``pack/tool`` id or
  local name, offered or not, and returns its result text; a record view
  in ``args`` (or as ``args``) passes its record's JSON form, meta included.

A handler returns its result: a string as it is, a number as its text,
nil as the empty string, JSON data (tables, booleans, ``json.null``) as
compact JSON text.
"""
from __future__ import annotations

import re

from pylua.raw import LuaTable, call, is_function, tostring_raw, type_name

from ..vocabulary import charged, headings
from ..vocabulary.crossing import CHARGED_TEXT, TEXT
from ..vocabulary.failure import lua_failure
from ..vocabulary.functions import bad_argument
from .calls import ToolRequest, run_bound
from .scope import BoundTool, LocalTool, ToolScope, tool_failed, unbound
from .task_tools import TaskTool, run_task_tool, task_tools

LOCAL_NAME = re.compile(r'[A-Za-z0-9_-]{1,64}\Z')
TOOL_ID = re.compile(r'([a-z][a-z0-9_-]{0,63})/([A-Za-z0-9_-]{1,64})\Z')


class Tools:
    """One section VM's tool scope and its globals."""

    def __init__(self, vm):
        self.vm = vm
        self.packs = vm.run.packs           # the declared Packs, by id
        self.scope = ToolScope()
        self.local: dict[str, LocalTool] = {}
        tools = LuaTable()
        tools.set_str('offer', vm.function('tools.offer', self._offer, takes=(TEXT,)))
        tools.set_str('offer_local', vm.function('tools.offer_local', self._offer_local, takes=(TEXT, TEXT)))
        tools.set_str('offer_tasks', vm.function('tools.offer_tasks', self._offer_tasks, rest=TEXT))
        tools.set_str('call', vm.generator('tools.call', self._call, takes=(TEXT,), gives=(CHARGED_TEXT,)))
        packs = LuaTable()
        packs.set_str('offer', vm.function('packs.offer', self._offer_pack, takes=(TEXT,)))
        self.tables = {'tools': tools, 'packs': packs}

    # -- offers ----------------------------------------------------------------------
    def _offer(self, *args):
        if len(args) != 1:
            raise lua_failure('tools.offer takes (tool_id)')
        self.scope.offer(self._pack_tool(args[0], 'tools.offer'), 'tools.offer')
        return ()

    def _offer_pack(self, *args):
        if len(args) != 1:
            raise lua_failure('packs.offer takes (pack_id)')
        if args[0].__class__ is not str:
            raise bad_argument(1, 'packs.offer', 'string', args[0])
        pack = self._declared(args[0], 'packs.offer')
        for tool in pack.tools:
            self.scope.offer(BoundTool(pack.id, tool), 'packs.offer')
        return ()

    def _offer_local(self, *args):
        if len(args) != 4:
            raise lua_failure('tools.offer_local takes (name, description, schema, handler)')
        name, description, schema, handler = args
        checks = ((name.__class__ is str, 'string'), (description.__class__ is str, 'string'),
                  (schema.__class__ is LuaTable, 'table'), (is_function(handler), 'function'))
        for position, (ok, expected) in enumerate(checks, 1):
            if not ok:
                raise bad_argument(position, 'tools.offer_local', expected, args[position - 1])
        if not LOCAL_NAME.match(name):
            raise lua_failure('tools.offer_local: a tool name is 1 to 64 letters, digits, _ or -, got "%s"' % name)
        parameters = self.vm.shapes.to_data(schema, 'schema', 'tools.offer_local: ')
        if parameters == {} or parameters == []:
            parameters = {'type': 'object', 'properties': {}}
        elif parameters.__class__ is not dict:
            raise lua_failure('tools.offer_local: schema must be a JSON Schema object')
        tool = LocalTool(name, description, parameters, handler)
        self.scope.offer(tool, 'tools.offer_local')
        self.local[name] = tool
        return ()

    def _offer_tasks(self, *args):
        if not args:
            raise lua_failure('tools.offer_tasks takes (section, ...)')
        names = []
        for position, name in enumerate(args, 1):
            if name.__class__ is not str:
                raise bad_argument(position, 'tools.offer_tasks', 'string', name)
            headings.resolve(self.vm.run.prompt, name)
            names.append(name)
        offered = self.scope.offered.get('task')
        known = offered.sections if offered is not None else ()
        sections = known + tuple(name for name in dict.fromkeys(names) if name not in known)
        for tool in task_tools(sections):
            self.scope.offer(tool, 'tools.offer_tasks', replace=True)
        return ()

    def _pack_tool(self, value, who: str) -> BoundTool:
        if value.__class__ is not str:
            raise bad_argument(1, who, 'string', value)
        match = TOOL_ID.match(value)
        if match is None:
            raise lua_failure('%s: a Pack tool is named pack/tool, got "%s"' % (who, value))
        pack = self._declared(match.group(1), who)
        tool = pack.tool(match.group(2))
        if tool is None:
            raise lua_failure('%s: Pack `%s` has no tool `%s`; it offers: %s'
                              % (who, pack.id, match.group(2), ', '.join(t.name for t in pack.tools)))
        return BoundTool(pack.id, tool)

    def _declared(self, pack_id: str, who: str):
        pack = self.packs.get(pack_id)
        if pack is None:
            raise lua_failure('%s: Pack `%s` is not declared under uses: in the frontmatter' % (who, pack_id))
        return pack

    # -- calls -------------------------------------------------------------------------
    def _call(self, *args):
        if not 1 <= len(args) <= 2:
            raise lua_failure('tools.call takes (name, args?)')
        name, arguments = args[0], args[1] if len(args) == 2 else None
        if name.__class__ is not str:
            raise bad_argument(1, 'tools.call', 'string', name)
        record_of = self.vm.messages.views.record_of
        if arguments is not None and arguments.__class__ is not LuaTable and record_of(arguments) is None:
            raise bad_argument(2, 'tools.call', 'table', arguments)
        # A record view, alone or inside the table, is its record's JSON form.
        data = {} if arguments is None else self.vm.shapes.to_data(arguments, 'args', 'tools.call: ', record_of)
        if data.__class__ is not dict:
            data = {}                       # an empty or array table names no argument
        tool = self.local.get(name)
        if tool is not None:
            return ((yield from self.run_local(tool, data)),)
        match = TOOL_ID.match(name)
        pack = self.packs.get(match.group(1)) if match else None
        if pack is None or pack.tool(match.group(2)) is None:
            raise unbound(name)
        [result] = yield from run_bound([ToolRequest(pack.id, match.group(2), data)],
                                        pack.tool(match.group(2)).survives_stop)
        if not result.ok:
            raise tool_failed(name, result.text)
        return (result.text,)

    def run_unbound(self, tool, arguments: dict):
        """Answer a model's call of a tool the Engine runs itself: a local
        tool or a task built-in (a generator); returns its result text."""
        if isinstance(tool, TaskTool):
            return (yield from run_task_tool(self.vm, tool, arguments))
        return (yield from self.run_local(tool, arguments))

    def run_local(self, tool: LocalTool, arguments: dict):
        """Call a local tool's handler (a generator); returns its result
        text.  The handler's own errors pass through unchanged."""
        results = yield from call(tool.handler, (charged.data(self.vm.shapes, arguments),))
        return self.result_text(tool.name, results[0] if results else None)

    def result_text(self, name: str, value) -> str:
        c = value.__class__
        if c is str:
            return TEXT.take(value)
        if value is None:
            return ''
        if c is int or c is float:
            return tostring_raw(value)
        if c is LuaTable or c is bool or value is self.vm.shapes.null:
            return self.vm.shapes.dumps(self.vm.shapes.to_data(value, 'result', 'tool `%s` ' % name),
                                        'result', 'tool `%s` ' % name)
        raise lua_failure('tool `%s` returned a %s; a tool handler returns a string or JSON data'
                          % (name, type_name(value)))


def install(vm) -> Tools:
    tools = Tools(vm)
    for name, table in tools.tables.items():
        vm.globals.set_str(name, table)
    return tools
