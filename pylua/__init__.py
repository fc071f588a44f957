"""pylua: a Lua 5.4 interpreter in pure Python.

Public API: ``LuaRuntime`` (see docs/pylua-api.md), the error types, ``Effect``
for host functions that suspend Lua, ``compile_check``, ``set_stack_frames``
(how deep Lua may recurse), ``open_chunk_store`` (compiled chunks of files
kept on disk between processes), and the raw value types for embedders that build
Lua values directly.
"""
from .api import Effect, LuaFunction, LuaRuntime, LuaTableProxy, compile_check
from .compiler.chunk_store import open_store as open_chunk_store
from .runtime.errors import LuaError, LuaHookError, LuaInterrupt, LuaMemoryError, LuaSyntaxError
from .runtime.luathread import set_stack_frames, stack_frames
from .runtime.table import LuaTable
from .runtime.values import Builtin, GenBuiltin, Userdata

__all__ = ['LuaRuntime', 'LuaError', 'LuaSyntaxError', 'LuaMemoryError', 'LuaInterrupt', 'LuaHookError',
           'Effect', 'LuaFunction', 'LuaTableProxy', 'compile_check', 'LuaTable',
           'Builtin', 'GenBuiltin', 'Userdata', 'set_stack_frames', 'stack_frames', 'open_chunk_store']
