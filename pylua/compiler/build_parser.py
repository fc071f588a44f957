"""Build _tables.py, the LALR(1) tables of grammar.lark, with Lark.

Run ``python -m pylua.compiler.build_parser`` after editing grammar.lark and
commit the result; ``--check`` exits 1 when _tables.py is stale (a test does
the same).  Only this script imports Lark, so the interpreter starts without
building or loading a grammar.

Lark's analyser gives the LR(0) item sets and LALR(1) lookaheads; the action
table is built here, settling operator conflicts with lparser.c's priority
table.  Every state also gets an error entry that tells parser.py what Lua
5.4's recursive-descent parser would report when the next token does not fit
there:

* a statement may start here (also right after 'return'): a token that ends
  a block ('end', 'else', 'elseif', 'until', <eof>) closes the block, so
  reduce and look again; anything else is 'unexpected symbol';
* an expression must start here: 'unexpected symbol';
* Lua checks for a particular symbol here: "'do' expected", or for a closing
  token "'end' expected (to close 'while' at line N)";
* otherwise the construct may end here: reduce, as Lua leaves an optional
  loop, and look again.

The build fails on any conflict, state or table entry these rules do not
cover, so a grammar change cannot silently change a message.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys
from collections import deque

from lark.common import ParserConf
from lark.load_grammar import load_grammar
from lark.parsers.lalr_analysis import LALR_Analyzer

HERE = pathlib.Path(__file__).resolve().parent
GRAMMAR = HERE / 'grammar.lark'
OUTPUT = HERE / '_tables.py'

# Shift actions at or above SPECIAL make parser.py check the nesting depth,
# that '...' in an expression is in a vararg function, and give a name that
# starts a table field the line of the token after it (see parser.py).
SPECIAL = 1 << 16
# Tokens through which the parse stack grows without bound (brackets, unary
# and right-associative operators, block openers); shifting one is SPECIAL.
OPENERS = frozenset(['(', '[', '{', 'not', '#', '-', '~', '..', '^',
                     'function', 'do', 'then', 'else', 'repeat'])

# lparser.c's priority table: (left, right) priority of each binary
# operator; a unary operator's operand is read with limit UNARY_PRIORITY.
PRIORITY = {'or': (1, 1), 'and': (2, 2),
            '<': (3, 3), '>': (3, 3), '<=': (3, 3), '>=': (3, 3), '~=': (3, 3), '==': (3, 3),
            '|': (4, 4), '~': (5, 5), '&': (6, 6), '<<': (7, 7), '>>': (7, 7),
            '..': (9, 8), '+': (10, 10), '-': (10, 10),
            '*': (11, 11), '/': (11, 11), '//': (11, 11), '%': (11, 11), '^': (14, 13)}
UNARY_PRIORITY = 12

# Besides operators, the two places where Lua 5.4 reads '(' after an
# expression as a call, never as the start of the next statement.
SHIFT_CONFLICTS = {('stat: suffixedexp .', '('), ('exp: suffixedexp .', '(')}

# Lua's check_match(): the rule (by alias), the closing token, the token it
# closes as Lua names it, and the position in the rule of the symbol whose
# line is "at line N".  For calls Lua uses the line where the called
# expression starts, for function bodies the line of '(' (or of 'function'
# in a function statement).
MATCHES = {
    'do': ('end', 'do', 0),
    'while_': ('end', 'while', 0),
    'repeat': ('until', 'repeat', 0),
    'if_': ('end', 'if', 0),
    'numfor': ('end', 'for', 0),
    'genfor': ('end', 'for', 0),
    'funcstat': ('end', 'function', 0),
    'funcbody': ('end', 'function', 0),
    'paren': (')', '(', 0),
    'call': (')', '(', 0),
    'method': (')', '(', 0),
    'table': ('}', '{', 0),
}

# Messages where the general rule would not say what lparser.c says, keyed by
# an item's rule and the symbols before its dot.
MESSAGES = {
    # forstat() picks the loop kind from the token after the first name.
    'stat: for NAME .': "'=' or 'in' expected",
    # 'local' tests for 'function', then requires a name.
    'stat: local .': '<name> expected',
    # parlist() accepts a name or '...' for each parameter.
    'funcbody: ( .': "<name> or '...' expected",
    'stat: function funcname ( .': "<name> or '...' expected",
    'parnames: parnames , .': "<name> or '...' expected",
    'parlist: parnames , .': "<name> or '...' expected",
    # funcargs() after 'obj:name'.
    'suffixedexp: suffixedexp : NAME .': 'function arguments expected',
}

# Items whose next symbol Lua only tests for, although the rule has no
# shorter alternative: constructor fields look ahead for '=' after a name.
TESTED = {'field: NAME .'}

UNEXPECTED = 'unexpected symbol'
BLOCK_STARTER = 'local'       # a terminal that can only start a statement
EXPRESSION_STARTER = 'NUMBER'  # a terminal that can only start an expression


class Grammar:
    """grammar.lark analysed by Lark: rules, LR(0) item sets, LALR(1)
    lookaheads; the action table with operator conflicts settled."""

    def __init__(self, text: str):
        grammar, _ = load_grammar(text, str(GRAMMAR), [], False)
        terminals, self.rules, _ = grammar.compile(['start'], set())
        # Quoted terminals are named by Lark (LPAR, WHILE, __ANON_0...);
        # the tables use their text, which is what the lexer emits.
        self.text = {t.name: t.pattern.value for t in terminals}
        self.analyzer = LALR_Analyzer(ParserConf(self.rules, {}, ['start']))
        self.analyzer.compute_lr0_states()
        self.analyzer.compute_reads_relations()
        self.analyzer.compute_includes_lookback()
        self.analyzer.compute_lookaheads()
        self.rule_index = {rule: i for i, rule in enumerate(self.rules)}
        self.used = set()   # entries of the tables above that applied
        self.states = self._number_states()
        self.number = {id(s): i for i, s in enumerate(self.states)}
        self.accept = next(i for i, s in enumerate(self.states)
                           if any(rp.is_satisfied and rp.rule.origin.name == '$root_start'
                                  for rp in s.kernel))
        self.actions = [self._actions(s) for s in self.states]

    def _number_states(self):
        """States in breadth-first order with sorted edges: stable numbers."""
        start = self.analyzer.lr0_start_states['start']
        seen, order, queue = {id(start)}, [], deque([start])
        while queue:
            state = queue.popleft()
            order.append(state)
            for sym in sorted(state.transitions, key=lambda s: s.name):
                nxt = state.transitions[sym]
                if id(nxt) not in seen:
                    seen.add(id(nxt))
                    queue.append(nxt)
        return order

    def _actions(self, state) -> dict:
        """symbol -> ('shift', state number) or ('reduce', rule)."""
        row = {self.name(sym): ('shift', self.number[id(nxt)])
               for sym, nxt in state.transitions.items()}
        for la, rules in state.lookaheads.items():
            if len(rules) > 1:
                raise SystemExit(f'reduce/reduce conflict on {la}: {rules}')
            rule, = rules
            name = self.name(la)
            if name not in row or self._reduce_wins(rule, name):
                row[name] = ('reduce', rule)
        return row

    def _reduce_wins(self, rule, terminal: str) -> bool:
        """Settle a shift/reduce conflict.  With 'a op1 b' read and op2 next,
        subexpr() goes on with op2 only if its left priority is above the
        right priority of op1 (or UNARY_PRIORITY after a unary operator)."""
        key = self.key(rule)
        if key in ('binop', 'unop') and terminal in PRIORITY:
            limit = (PRIORITY[self.name(rule.expansion[1])][1] if key == 'binop'
                     else UNARY_PRIORITY)
            return PRIORITY[terminal][0] <= limit
        conflict = (self.item_text(rule), terminal)
        if conflict not in SHIFT_CONFLICTS:
            raise SystemExit('unexpected shift/reduce conflict: %s on %r' % conflict)
        self.used.add(conflict)
        return False

    def name(self, sym) -> str:
        return self.text.get(sym.name, sym.name)

    def key(self, rule) -> str:
        return rule.alias or rule.origin.name

    def item_text(self, rule) -> str:
        """'origin: a b .' for a completed rule."""
        return ' '.join([rule.origin.name + ':'] + [self.name(s) for s in rule.expansion] + ['.'])

    def item(self, rp, upto=None) -> str:
        """'origin: a b . c' with the symbols after the dot up to `upto`."""
        syms = [self.name(s) for s in rp.rule.expansion]
        end = len(syms) if upto is None else upto
        return ' '.join([rp.rule.origin.name + ':'] + syms[:rp.index] + ['.'] + syms[rp.index:end])


class ErrorRules:
    """Derives each state's error entry (see the module docstring)."""

    def __init__(self, g: Grammar):
        self.g = g
        self.first = {nt.name: {self.g.name(t) for t in ts} for nt, ts in g.analyzer.FIRST.items()}
        self.nullable = {nt.name for nt in g.analyzer.NULLABLE}

    def entry(self, state):
        """(message or None, rule to reduce or None, (who, offset) or None)."""
        shifts = {self.g.name(s) for s in state.transitions if s.is_term}
        default = self.default_reduction(state)
        returning = any(rp.rule.origin.name == 'retstat' and rp.index == 1 for rp in state.kernel)
        if BLOCK_STARTER in shifts or returning:
            assert default is not None, self.g.item(next(iter(state.kernel)))
            return (UNEXPECTED, default, None)
        if EXPRESSION_STARTER in shifts:
            return (UNEXPECTED, None, None)
        found = {m for m in map(self.mandatory, state.kernel) if m is not None}
        if len(found) > 1:
            raise SystemExit('ambiguous error message in state %s: %s'
                             % ([self.g.item(rp) for rp in state.kernel], found))
        if found:
            message, match = found.pop()
            return (message, None, match)
        if default is not None:
            return (None, default, None)
        assert state is self.g.states[self.g.accept]
        return ('<eof> expected', None, None)

    def default_reduction(self, state):
        """The reduction Lua's 'else' branch takes: the one most lookaheads use."""
        counts = {}
        for kind, arg in self.g.actions[self.g.number[id(state)]].values():
            if kind == 'reduce':
                counts[arg] = counts.get(arg, 0) + 1
        if not counts:
            return None
        best = max(counts, key=lambda r: (counts[r], -self.g.rule_index[r]))
        return self.g.rule_index[best]

    def mandatory(self, rp):
        """What Lua says when the symbol after this item's dot is missing,
        or None when Lua only tests for it."""
        if rp.is_satisfied or rp.index == 0:
            return None
        seen = self.g.item(rp, rp.index)
        if seen in TESTED or seen in MESSAGES:
            self.g.used.add(seen)
            return (MESSAGES[seen], None) if seen in MESSAGES else None
        rule, sym = rp.rule, rp.next
        if rp.index == 1 and rule.expansion[0] == rule.origin:
            return None     # the next item of a left-recursive list
        prefix = rule.expansion[:rp.index]
        if any(r.origin == rule.origin and r.expansion == prefix for r in self.g.rules):
            return None     # the construct may end here
        name = self.g.name(sym)
        if not sym.is_term:
            if name in self.nullable:
                return None
            first = self.first[name]
            if first >= {'NAME', '('}:
                return (UNEXPECTED, None)   # primaryexp() says so
            if len(first) != 1:
                raise SystemExit('no error message for ' + self.g.item(rp))
            name = next(iter(first))
        match = MATCHES.get(self.g.key(rule))
        if match is not None and match[0] == name:
            self.g.used.add(self.g.key(rule))
            return (f"'{name}' expected", (f"'{match[1]}'", rp.index - match[2]))
        return (expected(name), None)


def expected(name: str) -> str:
    if name == 'NAME':
        return '<name> expected'
    if name == '$END':
        return '<eof> expected'
    return f"'{name}' expected"


def render(text: str) -> str:
    g = Grammar(text)
    error_rules = ErrorRules(g)
    errors = [error_rules.entry(s) for s in g.states]
    unused = (set(MESSAGES) | TESTED | set(MATCHES) | SHIFT_CONFLICTS) - g.used
    if unused:
        raise SystemExit(f'table entries that no longer apply: {sorted(map(str, unused))}')
    vararg_states = {g.number[id(s)] for s in g.states
                     if any(rp.is_satisfied and g.key(rp.rule) == 'vararg' for rp in s.kernel)}
    field_name_states = {g.number[id(s)] for s in g.states
                         if any(g.item(rp) == 'field: NAME . = exp' for rp in s.kernel)}
    table = []
    for actions in g.actions:
        row = {}
        for name, (kind, arg) in actions.items():
            if kind == 'shift':
                special = name in OPENERS or arg in vararg_states | field_name_states
                row[name] = arg + SPECIAL if special else arg
            else:
                row[name] = ~g.rule_index[arg]
        table.append(dict(sorted(row.items())))
    rules = []
    for rule in g.rules:
        callback = rule.alias and str(rule.alias)
        if callback is None and len(rule.expansion) != 1:
            raise SystemExit(f'rule {rule} needs an alias: only single symbols pass through')
        rules.append((callback, str(rule.origin.name), len(rule.expansion)))
    digest = hashlib.sha256(text.encode()).hexdigest()
    return ''.join([
        '"""LALR(1) tables for grammar.lark, generated by build_parser.py: do not edit."""\n',
        f'# grammar.lark sha256 {digest}\n',
        'import json\n\n',
        f'SPECIAL = {SPECIAL}\n',
        f'ACCEPT = {g.accept}\n\n',
        '# The tables are JSON: loading them takes about 1 ms, where compiling the\n',
        '# same Python literals takes 20 ms whenever bytecode is not cached.\n\n',
        '# [callback alias or null to pass the value through, left side, length]\n',
        _json_lines('RULES', rules),
        '# per state: terminal -> shift target (>= 0) or ~rule; nonterminal -> goto\n',
        _json_lines('TABLE', table),
        '# per state: [message, rule to reduce first, [closed token, stack offset]]\n',
        _json_lines('ERRORS', errors),
    ])


def _json_lines(name: str, rows: list) -> str:
    body = ',\n'.join(json.dumps(row, separators=(',', ':')) for row in rows)
    assert "'''" not in body and '\\' not in body
    return f"{name} = json.loads(r'''[\n{body}\n]''')\n\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--check', action='store_true', help='exit 1 if _tables.py is stale')
    args = ap.parse_args(argv)
    output = render(GRAMMAR.read_text())
    if args.check:
        current = OUTPUT.read_text() if OUTPUT.exists() else ''
        if current != output:
            print(f'{OUTPUT} is stale: run python -m pylua.compiler.build_parser', file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(output)
    return 0


if __name__ == '__main__':
    sys.exit(main())
