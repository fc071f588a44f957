"""Runvil: runs Markdown prompt files with sandboxed Lua blocks."""
