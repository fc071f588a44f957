"""The translation-time measurement on a small chunk: it runs pylua's
stages and Python's compile() and reports both."""
from benchmarks import translation_cost


def test_the_generated_module_is_lua_that_pylua_runs():
    import pylua
    rt = pylua.LuaRuntime()
    module = rt.execute(translation_cost.generated_module(60))
    assert module['f1'](rt.table_from([1, 5, 9]), 4, 2)[1] == '1k1,5k1,9k1'


def test_each_chunk_is_measured_stage_by_stage():
    result = translation_cost.measure(1, {'small': lambda: translation_cost.generated_module(40)})
    (row,) = result['chunks']
    assert row['lua_lines'] >= 40 and row['translate_s'] > 0 and row['compile_s'] > 0
    assert translation_cost.lines(result)[0].startswith('translation of small (')
