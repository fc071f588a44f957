"""pylua benchmark suite.

``benchmarks/programs/`` (core) and ``benchmarks/programs/oo/``
(object-oriented) hold pairs of equivalent programs, ``NAME.lua`` and
``NAME.py``, each printing one checksum line.  ``python -m benchmarks`` runs
every pair on pylua (in-process), CPython (in-process) and, when installed,
the reference ``lua5.4`` (subprocess), checks that all outputs agree, and
prints times and the ratios pylua/CPython and pylua/lua5.4 with their
geometric means.  It also measures the cost of a fresh ``pylua.LuaRuntime()``
(creation time and retained memory).  See ``benchmarks/README.md``.

``pylua_profile`` samples where pylua's time goes on one program and
``shape_costs`` times single operations of the generated code (see
``docs/performance-profile.md``).  Other files in ``benchmarks/`` (for
example ``prompt_parse.py``) belong to other benchmarks and are not run by
this runner.
"""
