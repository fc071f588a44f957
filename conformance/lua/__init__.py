"""Lua 5.4 conformance suite for pylua: cases plus runner (see README.md)."""

from .run import Case, Outcome, RunResult, Runner, check, discover, lua_available, pylua_runnable

__all__ = ["Case", "Outcome", "RunResult", "Runner", "check", "discover", "lua_available", "pylua_runnable"]
