"""The memory ceiling against every allocator, measured as the process's
resident memory: a program that keeps what it allocates fails with the
memory error before the process grows past ``FACTOR`` times the ceiling.

Each measurement runs in a fresh Python process (resident memory is a
high-water mark), after a warm-up, so the growth counts Python's own object
overhead and the allocator's slack honestly.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.hostile_programs import DROPPING, KEEPING
from benchmarks.memory_overshoot import FACTOR, expected_end, measure


def test_representative_allocators_stay_within_the_factor():
    names = ['integers in an array', 'string keys by t[k] = v', 'suspended coroutines', 'gmatch iterators',
             'loaded chunks dropped']
    result = measure([KEEPING.get(n) or DROPPING[n] for n in names], 8)
    assert result['ends'] == ['memory error'] * 4 + ['completed']
    assert result['factor'] <= FACTOR


# Every allocator under the thorough profile; one drawn at random by default.
_EVERY = len(KEEPING) + len(DROPPING) if settings().max_examples >= 100 else 1


@pytest.mark.slow
@settings(max_examples=_EVERY)
@given(name=st.sampled_from(sorted(KEEPING) + sorted(DROPPING)))
def test_every_allocator_stays_within_the_factor(name):
    result = measure([KEEPING.get(name) or DROPPING[name]], 16)
    assert result['ends'] == [expected_end(name)]
    assert result['factor'] <= FACTOR
