"""Runvil: runs Markdown prompt files with sandboxed Lua blocks."""

__all__ = ['parse', 'ParseError']


def __getattr__(name):
    # Loaded on first use so `import runvil` does not pay for YAML and the parser.
    if name in __all__:
        from . import prompt
        return getattr(prompt, name)
    raise AttributeError('module %r has no attribute %r' % (__name__, name))
