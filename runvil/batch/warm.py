"""Imported once by the local engine's fork server, so that every worker
it forks starts with what its first run would otherwise load: the Engine
and the Harness, the HTTP library the gateway client imports at its first
round, and pylua's libraries (a first LuaRuntime loads them).  Nothing
here starts a thread: a fork keeps only the forking one."""
import httpx  # noqa: F401
import pylua

from . import local_engine, runner  # noqa: F401

pylua.LuaRuntime()
