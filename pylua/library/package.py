"""The package library and ``require`` (standalone profile), as Lua 5.4's
loadlib.c: ``package.loaded``/``preload``/``path``/``cpath``/``config``/
``searchers``/``searchpath``/``loadlib``, with Lua's search order and messages.
pylua cannot load C libraries: a C module that is found fails to load as in a
Lua built without dynamic libraries."""
from __future__ import annotations

import os
import sysconfig

from ..runtime import ops
from ..runtime.frames import rt_error
from ..runtime.table import LuaTable
from ..runtime.values import Builtin, GenBuiltin, is_function
from .args import ABSENT, check_str, opt_str

DIRSEP = '/'
PATH_SEP = ';'
PATH_MARK = '?'
EXEC_DIR = '!'
IGNORE_MARK = '-'
CONFIG = '\n'.join((DIRSEP, PATH_SEP, PATH_MARK, EXEC_DIR, IGNORE_MARK)) + '\n'
# lua.c's defaults (luaconf.h's LUA_PATH_DEFAULT and LUA_CPATH_DEFAULT on
# POSIX) as the distributions build them (Debian's lua5.4, the reference):
# what luarocks installs under /usr/local is found, then the distribution's
# packages under /usr, then ./ .
_LUA_DIR = '/usr/local/share/lua/5.4/'
_C_DIR = '/usr/local/lib/lua/5.4/'
_SYSTEM_LUA_DIR = '/usr/share/lua/5.4/'
_SYSTEM_C_DIRS = tuple('/usr/lib/%s/lua/5.4/' % arch for arch in filter(None, [sysconfig.get_config_var('MULTIARCH')])) \
    + ('/usr/lib/lua/5.4/',)
DEFAULT_PATH = ';'.join((_LUA_DIR + '?.lua', _LUA_DIR + '?/init.lua', _C_DIR + '?.lua', _C_DIR + '?/init.lua',
                         _SYSTEM_LUA_DIR + '?.lua', _SYSTEM_LUA_DIR + '?/init.lua', './?.lua', './?/init.lua'))
DEFAULT_CPATH = ';'.join((_C_DIR + '?.so',) + tuple(d + '?.so' for d in _SYSTEM_C_DIRS)
                         + (_C_DIR + 'loadall.so', './?.so'))
NO_DYNAMIC_LIBRARIES = 'dynamic libraries not enabled; check your Lua installation'


def env_path(variable, default):
    """``LUA_PATH_5_4``, else ``LUA_PATH`` (``;;`` standing for the default), else the default."""
    value = os.environ.get(variable + '_5_4')
    if value is None:
        value = os.environ.get(variable)
    if value is None:
        return default
    value = value.encode('utf-8', 'surrogateescape').decode('latin-1')
    if ';;' not in value:
        return value
    return value.replace(';;', ';' + default + ';', 1).strip(';') if value != ';;' else default


def _readable(filename):
    if '\0' in filename:
        return False
    try:
        with open(filename.encode('latin-1'), 'rb'):
            return True
    except OSError:
        return False


def search_path(name, path, sep='.', rep=DIRSEP):
    """The first readable file of ``path`` for ``name``, else None and Lua's 'no file' list."""
    if sep:
        name = name.replace(sep, rep)
    filled = path.replace(PATH_MARK, name)
    for filename in filled.split(PATH_SEP):
        if _readable(filename):
            return filename, None
    return None, "no file '" + filled.replace(PATH_SEP, "'\n\tno file '") + "'"


def use_default_paths(vm):
    """lua.c's -E: package paths as if no environment variable were set."""
    package = vm.globals.get('package')
    package.set_str('path', DEFAULT_PATH)
    package.set_str('cpath', DEFAULT_CPATH)


def install(vm, load_file):
    """Add ``package`` and ``require`` to ``vm.globals``; ``load_file(filename)``
    returns a loaded chunk or raises ``LoadFailure``."""
    g = vm.globals
    package = LuaTable()
    loaded = LuaTable()
    preload = LuaTable()
    vm.registry['_LOADED'] = loaded
    vm.registry['_PRELOAD'] = preload
    for name in ('coroutine', 'debug', 'io', 'math', 'os', 'string', 'table', 'utf8'):
        lib = g.get(name)
        if lib is not None:
            loaded.set_str(name, lib)
    loaded.set_str('_G', g)
    loaded.set_str('package', package)

    def find_file(name, field):
        path = package.get(field)
        if path.__class__ in (int, float):
            path = ops.tostring_raw(path)
        if path.__class__ is not str:
            rt_error("'package.%s' must be a string" % field)
        return search_path(name, path)

    def searcher_preload(name=ABSENT, *_):
        name = check_str(name, 1, 'searcher_preload')
        loader = preload.get(name)
        if loader is None:
            return ("no field package.preload['%s']" % name,)
        return (loader, ':preload:')

    def searcher_lua(name=ABSENT, *_):
        name = check_str(name, 1, 'searcher_Lua')
        filename, err = find_file(name, 'path')
        if filename is None:
            return (err,)
        try:
            return (load_file(filename), filename)
        except LoadFailure as failure:
            rt_error("error loading module '%s' from file '%s':\n\t%s" % (name, filename, failure.message))

    def c_loader(name, filename):
        rt_error("error loading module '%s' from file '%s':\n\t%s" % (name, filename, NO_DYNAMIC_LIBRARIES))

    def searcher_c(name=ABSENT, *_):
        name = check_str(name, 1, 'searcher_C')
        filename, err = find_file(name, 'cpath')
        return (err,) if filename is None else c_loader(name, filename)

    def searcher_croot(name=ABSENT, *_):
        name = check_str(name, 1, 'searcher_Croot')
        root, dot, _ = name.partition('.')
        if not dot:
            return ()
        filename, err = find_file(root, 'cpath')
        return (err,) if filename is None else c_loader(name, filename)

    searchers = LuaTable()
    for i, (fn, fname) in enumerate(((searcher_preload, 'searcher_preload'), (searcher_lua, 'searcher_Lua'),
                                     (searcher_c, 'searcher_C'), (searcher_croot, 'searcher_Croot')), 1):
        searchers.set_int(i, Builtin(fn, fname))

    def find_loader(name):
        found = package.get('searchers')
        if found.__class__ is not LuaTable:
            rt_error("'package.searchers' must be a table")
        messages = []
        i = 1
        while True:
            searcher = found.get_int(i)
            if searcher is None:
                rt_error("module '%s' not found:%s" % (name, ''.join(messages)))
            # findloader calls each searcher with lua_call: a C level, no yields
            r = yield from ops.nested_call(searcher, (name,), continuation=False)
            r = ops.adjust(r, 2)
            if is_function(r[0]):
                return r[0], r[1]
            if r[0].__class__ in (str, int, float):
                messages.append('\n\t' + ops.tostring_raw(r[0]))
            i += 1

    def require(name=ABSENT, *_):
        name = check_str(name, 1, 'require')
        hit = loaded.get(name)
        if hit is not None and hit is not False:
            return (hit,)
        loader, data = yield from find_loader(name)
        r = yield from ops.nested_call(loader, (name, data), continuation=False)     # lua_call, as the searchers
        value = r[0] if r else None
        if value is not None:
            loaded.set(name, value)
        if loaded.get(name) is None:
            loaded.set(name, True)
        return (loaded.get(name), data)

    def searchpath(name=ABSENT, path=ABSENT, sep=ABSENT, rep=ABSENT, *_):
        # searchpath(L, luaL_checkstring(L, 1), ...)'s arguments are checked
        # right to left, as gcc evaluates them for lua5.4.
        rep = opt_str(rep, 4, 'searchpath', DIRSEP)
        sep = opt_str(sep, 3, 'searchpath', '.')
        path = check_str(path, 2, 'searchpath')
        name = check_str(name, 1, 'searchpath')
        filename, err = search_path(name, path, sep, rep)
        return (filename,) if filename is not None else (None, err)

    def loadlib(path=ABSENT, init=ABSENT, *_):
        check_str(path, 1, 'loadlib')
        check_str(init, 2, 'loadlib')
        return (None, NO_DYNAMIC_LIBRARIES, 'absent')

    package.set_str('config', CONFIG)
    package.set_str('path', env_path('LUA_PATH', DEFAULT_PATH))
    package.set_str('cpath', env_path('LUA_CPATH', DEFAULT_CPATH))
    package.set_str('loaded', loaded)
    package.set_str('preload', preload)
    package.set_str('searchers', searchers)
    package.set_str('searchpath', Builtin(searchpath, 'package.searchpath'))
    package.set_str('loadlib', Builtin(loadlib, 'package.loadlib'))
    g.set_str('package', package)
    g.set_str('require', GenBuiltin(require, 'require'))


class LoadFailure(Exception):
    """A chunk that could not be read or compiled; ``message`` is Lua's."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message
