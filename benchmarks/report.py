"""Formatting of the results dictionary built by ``benchmarks.runner``:
a plain-text table for the terminal and a Markdown table for the README."""
from __future__ import annotations

from benchmarks import translation_cost

IMPLS = ('CPython', 'pylua', 'lua5.4')
GEOMEAN = 'geomean'
HEADERS = ('program', 'CPython s', 'pylua s', 'lua5.4 s',
           'pylua/CPython', 'pylua/lua5.4', 'check')


def _time_cell(results: dict, row: dict, impl: str) -> str:
    info = results['impls'][impl]
    if not info['available']:
        return 'n/a'
    run = row['runs'][impl]
    if run['error']:
        return 'error'
    return '%.3f' % run['time']


def _ratio(value) -> str:
    return '-' if value is None else '%.2fx' % value


def _check_cell(row: dict) -> str:
    return '; '.join(row['problems']) if row['problems'] else 'ok'


def _rows(results: dict) -> list[tuple[str, ...]]:
    """Each suite's programs, then a row of its geometric means."""
    rows = []
    for summary in results['suites']:
        if not summary['programs']:
            continue
        for row in results['programs']:
            if row['suite'] != summary['suite']:
                continue
            rows.append((row['name'],
                         *(_time_cell(results, row, impl) for impl in IMPLS),
                         _ratio(row['pylua_cpython']), _ratio(row['pylua_lua']),
                         _check_cell(row)))
        rows.append((GEOMEAN + ' ' + summary['suite'], '', '', '',
                     _ratio(summary['geomean_pylua_cpython']),
                     _ratio(summary['geomean_pylua_lua']), ''))
    return rows


def _met(value, limit) -> str:
    if value is None:
        return 'not measured'
    return 'met' if value <= limit else 'MISSED'


def _suite_lines(s: dict) -> list[str]:
    lines = []
    if s['geomean_pylua_cpython'] is not None:
        lines.append('%s: pylua/CPython geometric mean %.2fx over %d of %d programs '
                     '(target <= %.1f: %s)' % (
                         s['title'], s['geomean_pylua_cpython'], s['n_pylua_cpython'],
                         s['programs'], s['target_geomean'],
                         _met(s['geomean_pylua_cpython'], s['target_geomean'])))
        lines.append('%s: pylua/CPython worst %.2fx (%s) (target <= %.1f: %s)' % (
            s['title'], s['max_pylua_cpython'], s['max_program'], s['target_max'],
            _met(s['max_pylua_cpython'], s['target_max'])))
    if s['geomean_pylua_lua'] is not None:
        lines.append('%s: pylua/lua5.4 geometric mean %.2fx over %d of %d programs' % (
            s['title'], s['geomean_pylua_lua'], s['n_pylua_lua'], s['programs']))
    if s['geomean_lua_cpython'] is not None:
        lines.append('(for scale: %s: lua5.4/CPython geometric mean %.2fx)'
                     % (s['title'], s['geomean_lua_cpython']))
    return lines


def _summary_lines(results: dict) -> list[str]:
    impls = results['impls']
    lines = []
    for summary in results['suites']:
        if summary['programs']:
            lines += _suite_lines(summary)
    for impl in IMPLS:
        if not impls[impl]['available']:
            lines.append('%s not run: %s' % (impl, impls[impl]['reason']))
    lua = impls['lua5.4']
    if lua['available'] and lua.get('startup_ms') is not None:
        lines.append("lua5.4 times are whole processes and include start-up "
                     "(%.1f ms for lua5.4 -e '')" % lua['startup_ms'])
    lines.append('CPython times exclude compiling the .py file; pylua times '
                 'include parsing and compiling the .lua file')
    if impls['pylua'].get('import_ms') is not None:
        lines.append('import pylua.cli took %.1f ms (not in any time above)'
                     % impls['pylua']['import_ms'])
    return lines


def _runtime_lines(results: dict) -> list[str]:
    rt = results.get('runtime')
    if rt is None:
        return []
    if rt.get('error'):
        return ['fresh LuaRuntime(): not measured: ' + rt['error']]
    lines = [
        'fresh LuaRuntime() (sandbox profile): mean %.3f ms, median %.3f ms '
        'over %d creations, first %.1f ms (target < %.0f ms: %s)' % (
            rt['mean_ms'], rt['median_ms'], rt['count'], rt['first_ms'],
            rt['target_ms'], 'met' if rt['mean_ms'] < rt['target_ms'] else 'MISSED'),
        'fresh LuaRuntime() memory: %.1f KB retained per runtime (%d kept alive), '
        'peak %.1f KB while creating one (target < %.0f KB: %s)' % (
            rt['retained_kb'], rt['keep'], rt['peak_kb'], rt['target_kb'],
            'met' if rt['retained_kb'] < rt['target_kb'] else 'MISSED'),
    ]
    for site in rt.get('top') or []:
        lines.append('    %8.1f KB %8.0f blocks  %s'
                     % (site['kb'], site['count'], site['site']))
    return lines


def _translation_lines(results: dict) -> list[str]:
    result = results.get('translation')
    return [] if result is None else translation_cost.lines(result)


def _problem_lines(results: dict) -> list[str]:
    lines = []
    for row in results['programs']:
        for detail in row['details']:
            detail = detail.rstrip().replace('\n', '\n        ')
            lines.append('!!! %s: %s' % (row['name'], detail))
    return lines


def format_text(results: dict) -> str:
    rows = [HEADERS] + _rows(results)
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADERS))]
    out = [results['machine']['summary'], '']
    for n, r in enumerate(rows):
        if r[0].startswith(GEOMEAN):
            out.append('  '.join('-' * w for w in widths))
        cells = [r[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(r[1:-1], widths[1:-1])]
        cells.append(r[-1])
        out.append('  '.join(cells).rstrip())
        if n == 0:
            out.append('  '.join('-' * w for w in widths))
    out.append('')
    out += _summary_lines(results)
    for section in (_runtime_lines(results), _translation_lines(results)):
        if section:
            out.append('')
            out += section
    problems = _problem_lines(results)
    if problems:
        out.append('')
        out += problems
        out.append('!!! %d problem(s): outputs differ or a program failed'
                   % len(problems))
    return '\n'.join(out) + '\n'


def format_markdown(results: dict) -> str:
    rows = _rows(results)
    out = [results['machine']['summary'], '',
           '| ' + ' | '.join(HEADERS) + ' |',
           '|' + '|'.join(['---'] + ['---:'] * 5 + ['---']) + '|']
    for r in rows:
        if r[0].startswith(GEOMEAN):
            r = ('**%s**' % r[0], *r[1:4], *('**%s**' % c for c in r[4:6]), r[6])
        out.append('| ' + ' | '.join(r) + ' |')
    out.append('')
    out += ['- ' + line.strip() for line in _summary_lines(results)]
    for section in (_runtime_lines(results), _translation_lines(results)):
        if section:
            out.append('')
            out += ['- ' + line.strip() for line in section]
    problems = _problem_lines(results)
    if problems:
        out.append('')
        out += ['- **%s**' % ' / '.join(part.strip() for part in
                                        line.replace('!!! ', '').splitlines())
                for line in problems]
    return '\n'.join(out) + '\n'
