"""Runner for the official Lua 5.4.4 test files (``python -m conformance.lua_tests``)."""
