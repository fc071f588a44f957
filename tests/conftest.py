"""Test-wide settings: hypothesis profiles, the ``--slow`` switch, a chunk
store of the run's own for the pylua commands tests start, and a
heap kept out of full collections for the modules that time latencies.

The default run keeps property tests quick (few examples, slow-marked tests
still run but briefly); ``--slow`` selects the thorough profile.
"""
import gc
import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile('quick', max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('thorough', max_examples=500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser):
    parser.addoption('--slow', action='store_true', help='run property tests with many examples')


def pytest_configure(config):
    # The pylua commands the tests start keep compiled chunks in a store of
    # the run's own, not in the user's cache directory.
    os.environ.setdefault('PYLUA_CACHE_DIR', tempfile.mkdtemp(prefix='pylua-chunks-'))
    # Start pylua's Lua thread (it raises the recursion limit) before hypothesis
    # records the limit, so the change is not reported inside a test.
    from pylua.runtime.luathread import ensure_started
    ensure_started()
    slow = config.getoption('--slow') or os.environ.get('PYLUA_SLOW_TESTS') == '1'
    settings.load_profile('thorough' if slow else 'quick')


@pytest.fixture(scope='module')
def suite_heap_frozen():
    """Leave the test process's own heap out of Python's full collections
    for a module that times pylua's latencies.  By the time such a module
    runs, the suite has left millions of objects behind, and one full
    collection over them (about 0.3 s) falling into a measured gap is the
    suite's cost, not the mechanism's; what the module's own tests
    allocate is still collected as usual."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
