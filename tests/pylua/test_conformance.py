"""The Lua conformance suite (conformance/lua/) run through its runner's API.

* one test per case on pylua (skipped while pylua has neither ``pylua.cli``
  nor ``pylua.__main__``);
* the expectations checked against the reference ``lua5.4`` (skipped when it
  is not installed), proving they are real Lua;
* the suite's own invariants and the runner's checking logic.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from conformance.lua.run import (  # noqa: E402
    CASES_DIR,
    DEFAULT_LUA,
    Case,
    RunResult,
    Runner,
    check,
    discover,
    lua_available,
    pylua_runnable,
)

CASES = discover()
HAVE_LUA = lua_available(DEFAULT_LUA)


@pytest.fixture(scope="module")
def pylua_runner():
    if not pylua_runnable():
        pytest.skip("pylua is not runnable yet (no pylua.cli / pylua.__main__)")
    with Runner("auto", jobs=1) as runner:
        yield runner


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_on_pylua(pylua_runner, case: Case):
    outcome = pylua_runner.run(case)
    assert outcome.passed, outcome.report()


@pytest.mark.skipif(not HAVE_LUA, reason=f"reference interpreter {DEFAULT_LUA} not installed")
def test_expectations_are_real_lua():
    """Every expectation reproduces on lua5.4 (the whole suite takes ~1 s)."""
    with Runner("reference", jobs=2) as runner:
        failures = [o.report() for o in runner.run_all(CASES) if not o.passed]
    assert not failures, "\n".join(failures[:20])


# --------------------------------------------------------------------------
# Suite invariants

SANDBOX_EXCLUDED = re.compile(
    r"\b(io|os|debug|package)\s*\.|\brequire\b|\bstring\s*\.\s*dump\b|\bdofile\b|\bloadfile\b|\bcollectgarbage\b"
)


def test_suite_size_and_topics():
    assert len(CASES) >= 350
    topics = {c.topic for c in CASES}
    for topic in ("lexer", "arith", "metatables", "coroutines", "string", "patterns", "table", "math", "utf8"):
        assert topic in topics


def test_every_case_has_expectations():
    for case in CASES:
        assert case.expected_path.exists(), case.id
        err = case.expected_error()
        if err is not None:
            assert err and b"\n" not in err, f"{case.id}: .error must hold exactly one line"
            assert not err.startswith((b"lua5.4:", b"pylua:")), f"{case.id}: prefix must be stripped"


def test_no_stray_expectation_files():
    lua_files = {p.with_suffix("") for p in CASES_DIR.rglob("*.lua")}
    for p in list(CASES_DIR.rglob("*.expected")) + list(CASES_DIR.rglob("*.error")):
        assert p.with_suffix("") in lua_files, f"{p} has no .lua case"


# Topics whose cases need the standalone profile's libraries.
STANDALONE_TOPICS = ("standalone", "stdlib")


def test_cases_outside_standalone_use_only_sandbox_libraries():
    for case in CASES:
        if case.topic in STANDALONE_TOPICS:
            continue
        src = case.path.read_text(encoding="latin-1")
        code = "\n".join(line.split("--", 1)[0] for line in src.splitlines())
        m = SANDBOX_EXCLUDED.search(code)
        assert m is None, f"{case.id} uses {m.group(0)!r} outside standalone/"


def test_expectations_hold_no_addresses():
    addr = re.compile(rb"(?:table|function|thread|userdata|builtin): (?:0x)?[0-9a-fA-F]{4,}")
    for case in CASES:
        assert not addr.search(case.expected_stdout()), case.id


# --------------------------------------------------------------------------
# The runner's checking logic


def _case(tmp_path: Path, stdout: bytes, error: bytes | None = None) -> Case:
    lua = tmp_path / "t.lua"
    lua.write_text("-- synthetic\n")
    lua.with_suffix(".expected").write_bytes(stdout)
    if error is not None:
        lua.with_suffix(".error").write_bytes(error + b"\n")
    return Case(lua)


def test_check_passes_on_exact_output(tmp_path):
    case = _case(tmp_path, b"1\n2\n")
    assert check(case, RunResult(b"1\n2\n", b"", 0), "pylua").passed


def test_check_reports_stdout_diff(tmp_path):
    case = _case(tmp_path, b"1\n2\n")
    outcome = check(case, RunResult(b"1\n3\n", b"", 0), "pylua")
    assert not outcome.passed
    assert "stdout differs" in outcome.report() and "+3" in outcome.report()


def test_check_requires_exit_zero_without_error_file(tmp_path):
    case = _case(tmp_path, b"")
    assert not check(case, RunResult(b"", b"pylua: x\n", 1), "pylua").passed


def test_check_error_case(tmp_path):
    case = _case(tmp_path, b"before\n", b"t.lua:2: boom")
    good = RunResult(b"before\n", b"pylua: t.lua:2: boom\nstack traceback:\n\t[C]: in ?\n", 1)
    assert check(case, good, "pylua").passed
    assert not check(case, good, "lua5.4").passed  # prefix is the interpreter's name
    wrong_line = RunResult(b"before\n", b"pylua: t.lua:3: boom\n", 1)
    assert "error line differs" in check(case, wrong_line, "pylua").report()
    wrong_code = RunResult(b"before\n", b"pylua: t.lua:2: boom\n", 2)
    assert not check(case, wrong_code, "pylua").passed


def test_check_timeout_and_stray_output(tmp_path):
    case = _case(tmp_path, b"")
    assert not check(case, RunResult(b"", b"", None, note="timed out"), "pylua").passed
    assert not check(case, RunResult(b"", b"", 0, stray="debug print\n"), "pylua").passed


def test_discover_keyword_filter():
    some = discover(keyword="patterns/")
    assert some and all("patterns/" in c.id for c in some)
    assert discover(keyword="no-such-case-anywhere") == []
