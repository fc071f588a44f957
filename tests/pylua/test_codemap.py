"""Code objects looked up by identity (``runtime.codemap``): a code object
hashes and compares by its contents, so a lookup keyed by a big translated
function's code cost as much as hashing all of it."""
import gc
import time

from pylua.runtime.codemap import CodeMap, CodeSet


def _code(body, name='f'):
    namespace = {}
    exec(compile('def %s():\n%s' % (name, body), '<test>', 'exec'), namespace)
    return namespace[name].__code__


def test_equal_code_objects_are_different_keys():
    first, second = _code('    return 1\n'), _code('    return 1\n')
    assert first == second and first is not second
    codes = CodeMap()
    codes[first] = 'first'
    assert codes.get(second) is None and second not in codes
    codes[second] = 'second'
    assert (codes[first], codes[second], len(codes)) == ('first', 'second', 2)
    members = CodeSet()
    members.add(first)
    assert first in members and second not in members


def test_an_entry_goes_with_its_code():
    codes = CodeMap()
    kept = _code('    return 1\n')
    codes[kept] = 1
    dropped = _code('    return 2\n')
    codes[dropped] = 2
    codes[dropped] = 3                  # set again: one entry, one removal
    del dropped
    gc.collect()
    assert len(codes) == 1 and codes[kept] == 1


def test_a_lookup_does_not_hash_the_code():
    big = _code(''.join('    x%d = %d + len("k%d")\n' % (i, i, i) for i in range(3000)))
    codes = CodeMap()
    codes[big] = 'big'
    start = time.perf_counter()
    for _ in range(200):
        assert codes.get(big) == 'big' and big in codes
    # Hashing this code takes about 50 us, comparing it several times more.
    assert (time.perf_counter() - start) / 200 < 20e-6
