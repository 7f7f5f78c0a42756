"""The exact code of a readable emitted file, made from its own program part when it is needed.

The file `pseudo py` writes holds the program once, as a reader writes Python: operators plain
where the kinds of values are known, arrays as lists, no count of steps. Where that code meets
what only the language's exact semantics can report — a value read of another kind than the
code takes it to be, an element never assigned, Python's recursion limit — the program begins
again (runtime/runner.py) with its exact form, made here from the same text: each operator
becomes the runtime's checked function (`a + b` → `сложить(a, b)`), each condition is checked
to be a truth value, each array a `Массив` that names itself in its errors, each ДЛЯ a
`прогрессия`, each definition counts its depth (`войти`, `выйти`). Every node keeps the place it
has in the file, so the file's table of positions places each error in the program.

The readable code is the code generator's own, so what it writes is known: the names it gives
the runtime's words (`machine`), its arrays (`arrays`: Python name → name and number of
indices) and its definitions. The checked functions it does not use are reached as `__имя`,
which no program name can be (a program's names never start with `_`).
"""
import ast

from .names import API, MAIN, PYTHON_WORDS
from .ops import NEGATION, OPERATORS

PREFIX = "__"
# The operator table's pairing of a Python operator with its checked function, by the `ast` class
# the readable code writes: operators, comparisons.
CHECKED_OPERATORS = {getattr(ast, op.python): op.function.__name__
                     for op in OPERATORS.values() if op.python is not None and not op.comparison}
CHECKED_COMPARISONS = {getattr(ast, op.python): op.function.__name__ for op in OPERATORS.values() if op.comparison}
GUARDED = {"прочесть_целое": "прочесть", "прочесть_строку": "прочесть", "степень_целых": "степень"}
UNCHECKED = ("задано", "целый_индекс")  # the readable code's own checks: the exact code checks more


def exact_main(text, first, last, filename, namespace, table, runtime):
    """Compile the exact form of the program part (lines `first` … `last` of `text`, the file
    `filename`) into `namespace`, the file's own; its главная. `runtime`: the runtime's
    functions by their words."""
    lines = text.split("\n")[first - 1:last]
    tree = ast.parse("\n" * (first - 1) + "\n".join(lines), filename)
    checked = Exact(table)
    tree = checked.visit(tree)
    ast.fix_missing_locations(tree)
    for word in checked.used:
        namespace[PREFIX + word] = runtime[word]
    for variable in checked.globals:  # the first run's values are forgotten
        namespace.pop(variable, None)
    exec(compile(tree, filename, "exec"), namespace)  # noqa: S102 - the file's own program
    return namespace[table.get("machine", {}).get(MAIN, MAIN)]


class Exact(ast.NodeTransformer):
    def __init__(self, table):
        machine = table.get("machine", {})
        self.words = {machine.get(w, w): w for w in (*API, *PYTHON_WORDS)}  # the code's name → the runtime's word
        self.arrays = table.get("arrays", {})
        self.definitions = set(table.get("definitions", {}))
        self.used = set()
        self.globals = set()
        self.depth = 0  # functions around: only a definition's own returns leave it
        self.definition = False  # the function being read is a definition of the program

    def runtime(self, word, where):
        self.used.add(word)
        return ast.copy_location(ast.Name(id=PREFIX + word, ctx=ast.Load()), where)

    def checked(self, word, args, where):
        return ast.copy_location(ast.Call(func=self.runtime(word, where), args=args, keywords=[]), where)

    def word(self, node):
        """The runtime's word a name of the code stands for, if it is one."""
        return self.words.get(node.id) if isinstance(node, ast.Name) else None

    # ---- definitions ----

    def visit_FunctionDef(self, node):
        self.depth += 1
        definition = self.depth == 1 and node.name in self.definitions
        outer, self.definition = self.definition, definition
        self.generic_visit(node)
        self.definition = outer
        self.depth -= 1
        if definition:
            line = node.lineno
            enter = ast.Expr(ast.Call(func=self.runtime("войти", node), args=[], keywords=[]))
            for x in (enter, enter.value, enter.value.func):
                x.lineno, x.col_offset, x.end_lineno, x.end_col_offset = line, 0, line, 0  # reported at the call
            at = next((i for i, s in enumerate(node.body) if not isinstance(s, ast.Global)), len(node.body))
            node.body.insert(at, enter)
            if not isinstance(node.body[-1], ast.Return):
                node.body.append(ast.copy_location(ast.Expr(self.checked("выйти", [], node.body[-1])), node.body[-1]))
        return node

    def visit_Return(self, node):
        self.generic_visit(node)
        if self.definition and self.depth == 1:
            node.value = self.checked("выйти", [node.value] if node.value is not None else [], node)
        return node

    def visit_Global(self, node):
        self.globals.update(node.names)
        return node

    # ---- statements ----

    def visit_Assign(self, node):
        target = node.targets[0]
        if isinstance(target, ast.Name) and target.id in self.arrays and self._is_new_array(node.value):
            name, _ = self.arrays[target.id]
            node.value = self.checked("Массив", [ast.Constant(name)], node.value)
            return node
        self.generic_visit(node)
        return node

    @staticmethod
    def _is_new_array(value):
        return isinstance(value, ast.BinOp | ast.ListComp | ast.Dict | ast.Call)

    def visit_If(self, node):
        """An if, a while or a conditional expression: its test checked as a condition."""
        self.generic_visit(node)
        node.test = self.condition(node.test)
        return node

    visit_While = visit_IfExp = visit_If

    def visit_For(self, node):
        it = node.iter
        if isinstance(it, ast.Call) and self.word(it.func) == "range":
            node.iter = self.progression(it)
        self.generic_visit(node)
        return node

    def progression(self, it):
        """`range(a, b + 1)` → `прогрессия(a, 1, b)`: the bound as the program wrote it (the
        readable code writes `b + 1`, or `b - 1` going down, a constant bound folded)."""
        args = it.args
        values = [_integer_constant(a) for a in args]
        if None not in values:
            return it  # constant bounds: the same integers either way
        step = values[2] if len(args) == 3 else 1
        stop = args[1]
        if values[1] is not None:
            stop = ast.copy_location(ast.Constant(values[1] - 1 if step > 0 else values[1] + 1), stop)
        else:  # `b + 1`: the readable code's own form
            stop = stop.left
        step_code = ast.copy_location(ast.Constant(step), it) if step >= 0 else ast.copy_location(
            ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-step)), it)
        return self.checked("прогрессия", [args[0], step_code, stop], it)

    def condition(self, test):
        if isinstance(test, ast.Constant) or isinstance(test, ast.Compare) and isinstance(
                test.ops[0], ast.Is | ast.IsNot | ast.In):  # `while True`, a state loop: the code's own
            return test
        return self.checked("условие", [test], test)

    # ---- expressions ----

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self.checked(CHECKED_OPERATORS[type(node.op)], [node.left, node.right], node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.USub):
            if isinstance(node.operand, ast.Constant):
                return node
            return self.checked(NEGATION.function.__name__, [node.operand], node)
        if isinstance(node.op, ast.Not):
            node.operand = self.logical(node.operand, "НЕ")
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = "И" if isinstance(node.op, ast.And) else "ИЛИ"
        node.values = [self.logical(v, op) for v in node.values]
        return node

    def logical(self, value, op):
        return self.checked("логическое", [value, ast.copy_location(ast.Constant(op), value)], value)

    def visit_Compare(self, node):
        self.generic_visit(node)
        word = CHECKED_COMPARISONS.get(type(node.ops[0]))
        if word is None:  # `is`, `in`: the code's own
            return node
        return self.checked(word, [node.left, node.comparators[0]], node)

    def visit_Call(self, node):
        word = self.word(node.func)
        if word in UNCHECKED:
            return self.visit(node.args[0])
        if word == "Ячейка":
            return self.cell(node)
        self.generic_visit(node)
        if word in GUARDED:
            node.func = self.runtime(GUARDED[word], node.func)
        return node

    def cell(self, node):
        """A РЕЗ cell on an element: on the `Массив`, at its checked index, named."""
        place, key = node.args[0], node.args[1]
        array, indices = self.element(place)
        if array is None:
            self.generic_visit(node)
            if isinstance(place, ast.Call) and isinstance(key, ast.Constant):  # a global's: Ячейка(globals(), 'x', 'x')
                self.globals.add(key.value)
            return node
        name, _ = self.arrays[array]
        node.args = [ast.copy_location(ast.Name(id=array, ctx=ast.Load()), place),
                     self.index(indices + [key], array, node), ast.copy_location(ast.Constant(name), node)]
        return node

    def visit_Subscript(self, node):
        array, indices = self.element(node)
        if array is None or len(indices) != self.arrays[array][1]:
            self.generic_visit(node)
            return node
        return ast.copy_location(ast.Subscript(value=ast.copy_location(ast.Name(id=array, ctx=ast.Load()), node),
                                               slice=self.index(indices, array, node), ctx=node.ctx), node)

    @staticmethod
    def element_of(node, arrays):
        indices = []
        while True:
            if isinstance(node, ast.Subscript):
                part = node.slice
                indices[:0] = part.elts if isinstance(part, ast.Tuple) else [part]
                node = node.value
            elif is_made_row(node):
                indices.insert(0, node.args[0])
                node = node.func.value
            else:
                break
        return (node.id, indices) if isinstance(node, ast.Name) and node.id in arrays else (None, [])

    def element(self, node):
        """(the array, its indices) of `a[i][j]`, `a[i, j]`, `a[i]`, or of an element stored
        in a row made when missing, `a.setdefault(i, {})[j]`; else (None, [])."""
        return self.element_of(node, self.arrays)

    def index(self, indices, array, where):
        """The checked key of an element of the `Массив`: its indices, each read exactly."""
        indices = [self.visit(i) for i in indices]
        key = indices[0] if len(indices) == 1 else ast.copy_location(ast.Tuple(elts=indices, ctx=ast.Load()), where)
        return self.checked("индекс", [key, ast.copy_location(ast.Name(id=array, ctx=ast.Load()), where)], where)


def _integer_constant(e):
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant) \
            and type(e.operand.value) is int:
        return -e.operand.value
    return None


def is_made_row(node):
    """`rows.setdefault(i, {})`: the row `rows[i]` of a dict of dicts, made if it is missing
    (the code generator's own form, pygen/expressions.made_row)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault" \
        and len(node.args) == 2 and not node.keywords and isinstance(node.args[1], ast.Dict) and not node.args[1].keys
