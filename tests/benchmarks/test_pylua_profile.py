"""The profiler's reading of py-spy's collapsed stacks: which samples count,
what each is named, and to which mechanism it belongs."""
from benchmarks.pylua_profile import Generated, defined_methods, group_of, read_samples, shape_of

GENERATED = Generated(
    lines=['def Q0_1(r0=None):',
           "    r1 = r0.hash.get('move')",
           "    r2 = index_chain(_h1, 'link')",
           "    else: r3 = SYNC(index(r2, 'sub', \"field 'text'\"))",
           '    return r1'],
    lua_lines=[0, 10, 11, 12, 13, 14],
    methods=frozenset({'move'}))

LUA = 'OUTER.<locals>.MODULE.<locals>.F0_1.<locals>.Q0_1 (x.lua>:%d)'
BASE = '_bootstrap (threading.py:1002);_worker (luathread.py:27);step (pylua/api.py:105)'
STACKS = '\n'.join([
    '%s;%s 5' % (BASE, LUA % 2),
    '%s;%s;index_chain (ops.py:263) 3' % (BASE, LUA % 3),
    '%s;%s;sync (ops.py:214);index (ops.py:233);get (table.py:33) 2' % (BASE, LUA % 4),
    '%s;%s;sync (ops.py:216) 1' % (BASE, LUA % 4),
    '_find_and_load (<frozen importlib._bootstrap>:1176) 7',
])


def test_samples_without_generated_code_are_left_out():
    assert read_samples(STACKS, GENERATED, {1: 'function <x.lua:9>'}).total == 11


def test_a_sample_is_named_by_its_line_or_by_the_helper_the_line_called():
    samples = read_samples(STACKS, GENERATED, {1: 'function <x.lua:9>'})
    assert dict(samples.shapes) == {
        'method lookup: instance hash probe': 5,
        'helper ops.py:index_chain': 3,
        # SYNC only runs the generator: its samples belong to ops.index
        'helper ops.py:index': 3,
    }
    assert dict(samples.lines) == {2: 5, 3: 3, 4: 3}
    assert dict(samples.functions) == {'function <x.lua:9>': 11}


def test_reads_of_fields_and_of_methods_are_told_apart_by_the_program_s_functions():
    assert defined_methods(b'function Account:move(x) end\nfunction M.make() end') == {'move', 'make'}
    assert shape_of("r1 = r0.hash.get('move')", frozenset({'move'})) == \
        'method lookup: instance hash probe'
    assert shape_of("r1 = r0.hash.get('balance')", frozenset({'move'})) == 'field read: own hash'


def test_shapes_and_helpers_fall_into_mechanisms():
    assert group_of('helper ops.py:index_chain') == 'class lookups (__index chains)'
    assert group_of('helper ops.py:index') == 'lookups on non-tables (s:method)'
    assert group_of('field write: guard') == 'own fields (reads and writes)'
    assert group_of('helper table.py:t_concat') == 'arrays, #t, table library'
    assert group_of('helper numbers.py:tostr') == 'strings (concat, tostring, string library)'
    assert group_of('helper foo.py:bar') == 'other helpers: foo.py'


def test_held_field_reads_and_cache_subscripts_are_named():
    assert shape_of("try: r2 = r0.hash['x']") == 'field read: held key, subscript'
    assert shape_of('except KeyError:') == 'field read: held key missed (KeyError)'
    assert group_of(shape_of('except KeyError:')) == 'own fields (reads and writes)'
    assert shape_of("try: r1 = r0.meta.hash.lookups['m']") == '__index chain: cache probe'
    assert shape_of("try: r1 = STRING_LOOKUPS['sub']") == '__index chain: cache probe'


def test_the_budget_s_lines_are_named_as_the_translator_emits_them():
    from pylua.compiler.translation.function import FunctionTranslator
    lines = (FunctionTranslator.count_units(_Stub(), 1) + FunctionTranslator.count_units(_Stub(), 100)
             + FunctionTranslator.range_charge(_Stub(), 40, '_n1'))
    assert {shape_of(line) for line in lines} == {'instruction budget'}
    assert shape_of('r3 = r1 - 1') == 'arithmetic'


class _Stub:
    """What count_units and range_charge set on the translator."""
    laps = False

    def lap_end(self):
        from pylua.compiler.translation.function import FunctionTranslator
        return FunctionTranslator.lap_end(self)
