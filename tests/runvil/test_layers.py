"""runvil's packages depend in one direction (docs/engine.md, "Layers").

Every import in every module of ``runvil/``, the ones inside functions
too, is read from the source: an import may reach its own package or a
package in a lower layer, never one beside or above it; pylua only through
its public API; the vocabulary nothing but pylua and the standard library.
Lua strings become text and back only in ``vocabulary/luatext.py``, and
only the binding layer (``vocabulary/crossing.py``, the kinds Engine
functions declare) calls it.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RUNVIL = Path(__file__).resolve().parents[2] / 'runvil'

# Lowest first.  Packages in one layer stand beside each other and import
# neither one another nor anything above.
LAYERS = (
    ('vocabulary',),
    ('prompt', 'gateway'),
    ('conversation', 'tools'),
    ('models',),
    ('engine',),
    ('harness',),
    ('host',),
    ('workshop', 'batch'),
    ('testing',),
    ('cli',),
    ('__main__', '__init__'),
)
LAYER_OF = {unit: rank for rank, units in enumerate(LAYERS) for unit in units}

# pylua's public API: runvil uses nothing else of pylua.
PYLUA_PUBLIC = {'pylua', 'pylua.api', 'pylua.raw'}


@dataclass(frozen=True)
class Import:
    module: str         # the importing module, dotted
    path: Path          # the importing file, from the folder holding runvil/
    line: int
    target: str         # the imported module, dotted


def unit_of(module: str) -> str:
    """The package (or top-level module) a runvil module belongs to."""
    parts = module.split('.')
    return '__init__' if len(parts) == 1 else parts[1]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix('').parts)
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding='utf-8'), str(path))


def imports_of(path: Path, root: Path):
    module = module_name(path, root)
    shown = path.relative_to(root.parent)
    package = module if path.name == '__init__.py' else module.rpartition('.')[0]
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, shown, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split('.')[:len(package.split('.')) - node.level + 1]
                source = '.'.join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            # ``from runvil import prompt`` imports the package prompt.
            if source == 'runvil':
                for alias in node.names:
                    yield Import(module, shown, node.lineno, 'runvil.' + alias.name)
            else:
                yield Import(module, shown, node.lineno, source)


@cache
def all_imports(root: Path) -> tuple[Import, ...]:
    return tuple(imp for path in sorted(root.rglob('*.py')) for imp in imports_of(path, root))


def where(imp: Import) -> str:
    return '%s:%d imports %s' % (imp.path, imp.line, imp.target)


def upward_imports(root: Path) -> list[str]:
    """Each import under ``root`` that reaches a package beside or above its own."""
    offending = []
    for imp in all_imports(root):
        if imp.target != 'runvil' and not imp.target.startswith('runvil.'):
            continue
        source, target = unit_of(imp.module), unit_of(imp.target)
        if source == target:
            continue
        if LAYER_OF[target] >= LAYER_OF[source]:
            offending.append('%s: %s is %s %s' % (where(imp), target,
                                                  'beside' if LAYER_OF[target] == LAYER_OF[source]
                                                  else 'above', source))
    return offending


def test_every_package_has_a_layer():
    units = {unit_of(module_name(path, RUNVIL)) for path in RUNVIL.rglob('*.py')}
    assert sorted(units - set(LAYER_OF)) == []


def test_imports_only_go_down():
    offending = upward_imports(RUNVIL)
    assert offending == [], '\n'.join(offending)


def test_an_import_running_up_is_named(tmp_path):
    # The check itself, on a tree whose one upward import is known.
    root = tmp_path / 'runvil'
    (root / 'vocabulary').mkdir(parents=True)
    (root / 'engine').mkdir()
    (root / 'vocabulary' / 'kinds.py').write_text('from . import failure\n')
    (root / 'engine' / 'run.py').write_text('from ..vocabulary import kinds\n')
    (root / 'vocabulary' / 'failure.py').write_text('def late():\n    from ..engine.run import Engine\n')
    assert upward_imports(root) == [
        'runvil/vocabulary/failure.py:2 imports runvil.engine.run: engine is above vocabulary']


def test_the_vocabulary_needs_only_pylua_and_the_standard_library():
    offending = [where(imp) for imp in all_imports(RUNVIL)
                 if unit_of(imp.module) == 'vocabulary'
                 and imp.target.split('.')[0] not in sys.stdlib_module_names | {'pylua', 'runvil'}]
    assert offending == []


def test_pylua_only_through_its_public_api():
    offending = [where(imp) for imp in all_imports(RUNVIL)
                 if imp.target.split('.')[0] == 'pylua' and imp.target not in PYLUA_PUBLIC]
    assert offending == []


LUA_STRINGS = RUNVIL / 'vocabulary' / 'luatext.py'
BYTE_CODECS = {'latin-1', 'latin1', 'iso-8859-1', 'iso8859-1'}
PYLUA_STRING_CONVERSIONS = {'to_lua_string', 'from_lua_string'}


def codec_call(node, method: str) -> bool:
    """Whether ``node`` is a call ``<value>.method('latin-1', ...)``."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method
            and bool(node.args) and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).lower() in BYTE_CODECS)


def codec_call_of_encode(node: ast.Call) -> bool:
    value = node.func.value
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == 'encode'


def byte_conversions(path: Path):
    """Where a module turns Lua bytes into text or back by itself: a Lua
    string's characters encoded as bytes, text's UTF-8 decoded as
    characters, or pylua's conversions.  (Bytes off the wire decoded as
    latin-1, an HTTP head, are no Lua string.)"""
    for node in ast.walk(parsed(path)):
        if codec_call(node, 'encode') or (codec_call(node, 'decode') and codec_call_of_encode(node)):
            yield node.lineno, '%s(%r)' % (node.func.attr, node.args[0].value)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith('pylua'):
            for alias in node.names:
                if alias.name in PYLUA_STRING_CONVERSIONS:
                    yield node.lineno, alias.name


def test_lua_strings_cross_into_runvil_at_one_place():
    offending = ['%s:%d %s' % (path.relative_to(RUNVIL.parent), line, what)
                 for path in sorted(RUNVIL.rglob('*.py')) if path != LUA_STRINGS
                 for line, what in byte_conversions(path)]
    assert offending == [], 'convert Lua strings with runvil.vocabulary.luatext:\n' + '\n'.join(offending)


BINDING = {LUA_STRINGS, RUNVIL / 'vocabulary' / 'crossing.py'}
LUATEXT_CONVERSIONS = {'text', 'utf8', 'lua', 'raw_bytes'}


def luatext_import(node) -> bool:
    return isinstance(node, ast.ImportFrom) and (
        (node.module or '').split('.')[-1] == 'luatext' or any(alias.name == 'luatext' for alias in node.names)) \
        or isinstance(node, ast.Import) and any(alias.name.split('.')[-1] == 'luatext' for alias in node.names)


def conversion_calls(path: Path):
    """Where a module converts Lua strings by hand rather than by a declared
    kind: it imports ``luatext``, or calls ``text(``, ``utf8(``, ``lua(``,
    ``raw_bytes(`` or pylua's conversions (under any name it imported them as)."""
    tree = parsed(path)
    names = LUATEXT_CONVERSIONS | PYLUA_STRING_CONVERSIONS
    modules = set()
    for node in ast.walk(tree):
        if luatext_import(node):
            yield node.lineno, 'imports luatext'
            for alias in node.names:
                if isinstance(node, ast.Import) or alias.name == 'luatext':
                    modules.add(alias.asname or alias.name.split('.')[-1])
                else:
                    names = names | {alias.asname or alias.name}
        elif isinstance(node, ast.ImportFrom) and (node.module or '').startswith('pylua'):
            names = names | {alias.asname or alias.name for alias in node.names
                             if alias.name in PYLUA_STRING_CONVERSIONS}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in names:
            yield node.lineno, func.id + '()'
        elif isinstance(func, ast.Attribute) and (
                func.attr in PYLUA_STRING_CONVERSIONS
                or isinstance(func.value, ast.Name) and func.value.id in modules):
            yield node.lineno, func.attr + '()'


def hand_conversions(root: Path, binding: set[Path]) -> list[str]:
    return ['%s:%d %s' % (path.relative_to(root.parent), line, what)
            for path in sorted(root.rglob('*.py')) if path not in binding
            for line, what in conversion_calls(path)]


def test_lua_strings_cross_by_their_declared_kind():
    offending = hand_conversions(RUNVIL, BINDING)
    assert offending == [], ('declare the kind an Engine function takes and gives, or use '
                             'runvil.vocabulary.crossing:\n' + '\n'.join(offending))


def test_a_conversion_by_hand_is_named(tmp_path):
    # The check itself, on a tree whose hand conversions are known.
    root = tmp_path / 'runvil'
    (root / 'engine').mkdir(parents=True)
    (root / 'engine' / 'store.py').write_text(
        'from ..vocabulary.luatext import text as shown\nfrom ..vocabulary import luatext\n'
        'from pylua.raw import to_lua_string\n\n'
        'def read(path):\n    return shown(path), luatext.lua(path), to_lua_string(path), lua(path)\n')
    (root / 'engine' / 'kinds.py').write_text(
        'from ..vocabulary.crossing import TEXT\n\ndef read(path):\n    return TEXT.take(path)\n')
    assert hand_conversions(root, set()) == [
        'runvil/engine/store.py:1 imports luatext', 'runvil/engine/store.py:2 imports luatext',
        'runvil/engine/store.py:6 shown()', 'runvil/engine/store.py:6 lua()',
        'runvil/engine/store.py:6 to_lua_string()', 'runvil/engine/store.py:6 lua()']
