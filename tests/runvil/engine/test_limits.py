"""The run limits: defaults, the at-least-1 rule, Host flags and config."""
import pytest

from engine_helpers import failure, result, section
from runvil.engine import CALL_DEPTH_CAP
from runvil.harness import RunLimits
from runvil.host.settings import SettingsError, build_limits, parse_size


def test_the_defaults():
    limits = RunLimits()
    assert (limits.round_cap, limits.concurrency, limits.response_cap, limits.memory_ceiling,
            limits.log_event_quota, limits.receive_timeout) == (24, 8, 16 * 2**20, 64 * 2**20, 1024, 120.0)


@pytest.mark.parametrize('name', ['round_cap', 'concurrency', 'response_cap', 'memory_ceiling', 'log_event_quota'])
def test_every_count_and_size_is_at_least_1(name):
    with pytest.raises(ValueError):
        RunLimits(**{name: 0})
    assert getattr(RunLimits(**{name: 1}), name) == 1


def test_the_receive_timeout_is_positive():
    with pytest.raises(ValueError):
        RunLimits(receive_timeout=0)


def test_the_call_depth_cap_is_an_engine_constant_not_a_run_limit():
    assert CALL_DEPTH_CAP == 8
    assert not hasattr(RunLimits(), 'call_depth_cap')


def test_setting_one_limit_leaves_the_others_at_their_defaults():
    assert RunLimits(log_event_quota=1).memory_ceiling == 64 * 2**20
    assert RunLimits(memory_ceiling=4 * 2**20).log_event_quota == 1024


def test_hoarder_fails_on_the_memory_ceiling_default_and_configured():
    hoard = "local t, i = {}, 1\nwhile true do t[i] = string.rep('x', 16384) i = i + 1 end"
    for limits in (RunLimits(), RunLimits(memory_ceiling=4 * 2**20)):
        error = failure(section('Grow', hoard), limits=limits)
        assert error['kind'] == 'Lua' and 'memory' in error['message']


def test_each_section_vm_gets_its_own_memory_allowance():
    keep = "local t = {} for i = 1, 150 do t[i] = string.rep('x', 16384) end var.n = (var.n or 0) + #t"
    body = section('A', keep) + section('B', keep) + section('C', keep) + section('D', "return var.n")
    assert result(body, limits=RunLimits(memory_ceiling=4 * 2**20)) == '450'


def test_garbage_does_not_count():
    churn = "for i = 1, 2000 do local s = string.rep('x', 16384) end return 'fine'"
    assert result(section('S', churn), limits=RunLimits(memory_ceiling=4 * 2**20)) == 'fine'


def test_sizes_take_binary_suffixes():
    assert [parse_size(s) for s in ('4194304', '4096KiB', '4MiB', '1GiB', '7B')] == \
        [4194304, 4194304, 4194304, 1 << 30, 7]
    with pytest.raises(ValueError):
        parse_size('4MB')


def test_config_then_flags(tmp_path):
    config = tmp_path / 'runvil.toml'
    config.write_text('[limits]\nmemory_ceiling = "16MiB"\nlog_event_quota = 8\nround_cap = 3\n')
    limits = build_limits(str(config), {'round_cap': 5, 'concurrency': None})
    assert (limits.memory_ceiling, limits.log_event_quota, limits.round_cap, limits.concurrency) == \
        (16 * 2**20, 8, 5, 8)


@pytest.mark.parametrize('text, message', [
    ('[limits]\nmemory = 1\n', 'unknown limit `memory`'),
    ('[model]\n', 'unknown table or key `model`'),
    ('[limits]\nlog_event_quota = 0\n', 'log_event_quota must be a whole number of at least 1, got 0'),
    ('limits = [', 'is not valid TOML'),
    ('limits = ' + '[' * 100000, 'is not valid TOML'),     # nested past the recursion limit, or not
])
def test_bad_config_is_a_setup_error(tmp_path, text, message):
    config = tmp_path / 'runvil.toml'
    config.write_text(text)
    with pytest.raises(SettingsError) as info:
        build_limits(str(config), {})
    assert message in str(info.value)
