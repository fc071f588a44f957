"""The shared vocabulary at the bottom of runvil: failures and their kinds,
error values, effects, Lua strings and Lua values, JSON data, heading
references and the values charged to a section VM's memory ceiling.

Every other runvil package builds on it; it imports only pylua's public API
and the standard library (docs/engine.md, "Layers").
"""
