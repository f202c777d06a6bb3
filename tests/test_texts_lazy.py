"""The texts modules (schocken.texts, cup.texts, boards.emulated_texts): a firmware module names a text by a
number of its own (``_NAME = const(n)``) and fetches it with ``text(_NAME, *args)`` (schocken.text), so the
numbers are a contract across files. Checked here: every number a module defines is the entry whose comment
names it, every entry is used, and every use passes as many arguments as its text has placeholders."""

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
TEXTS = {"schocken.texts": FIRMWARE / "lib" / "schocken" / "texts.py",
         "cup.texts": FIRMWARE / "cup" / "texts.py",
         "boards.emulated_texts": FIRMWARE / "boards" / "emulated_texts.py"}
ENTRY = re.compile(r'^\s+(["\'].*["\']),\s+# (\d+) (\w+)\.(\w+)$')


def entries(path):
    """number -> (text, module stem, constant name), from the table's lines."""
    out = {}
    for line in path.read_text().splitlines():
        m = ENTRY.match(line)
        if m:
            out[int(m.group(2))] = (ast.literal_eval(m.group(1)), m.group(3), m.group(4))
    return out


def uses(path):
    """(constant name -> number, [(constant name, number of arguments)]) of one firmware file. A use is a call
    with the constant among its arguments: what follows it are the text's arguments (``text(_N, a, b)``,
    cup.core's ``_report(code, re, _N, a)``), or an error's ``why`` written out (``["cup.texts", _N, a]``);
    one picked by a condition (``_refuse(_A if x else _B)``) has none."""
    tree = ast.parse(path.read_text())
    consts, calls = {}, []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "const"
                and isinstance(node.value.args[0], ast.Constant)):
            consts[node.targets[0].id] = node.value.args[0].value
        elif (isinstance(node, ast.List) and len(node.elts) >= 2 and isinstance(node.elts[0], ast.Constant)
              and isinstance(node.elts[1], ast.Name) and node.elts[1].id.isupper()):
            calls.append((node.elts[1].id, len(node.elts) - 2))   # an error's why: [module, _N, args...]
        elif isinstance(node, ast.Call):
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id.isupper():
                    calls.append((arg.id, len(node.args) - i - 1))
                elif isinstance(arg, ast.IfExp):
                    calls += [(n.id, 0) for n in (arg.body, arg.orelse) if isinstance(n, ast.Name)]
    return consts, calls


def placeholders(text):
    return len(re.findall(r"%[^%]", text.replace("%%", "")))


@pytest.mark.parametrize("module", sorted(TEXTS))
def test_numbers_names_and_arguments_agree(module):
    table = entries(TEXTS[module])
    assert sorted(table) == list(range(len(table))), "numbered 0.. in order, none left out"
    used = set()
    for path in sorted(FIRMWARE.rglob("*.py")):
        consts, calls = uses(path)
        for name, nargs in calls:
            n = consts.get(name)
            if n is None or table.get(n, (None, None, None))[2] != name or table[n][1] != path.stem:
                continue  # another texts module's constant
            used.add(n)
            assert nargs == placeholders(table[n][0]), (path.name, name, table[n][0])
        for name, n in consts.items():
            if n in table and table[n][2] == name:
                assert table[n][1] == path.stem, (path.name, name)
    assert used == set(table), "texts nobody uses: %s" % sorted(set(table) - used)


def test_text_formats_and_keeps_the_module_on_cpython():
    from schocken import text
    from schocken import texts
    n = [i for i, t in enumerate(texts.TEXTS) if t == "die %d shows %d, not a six"][0]
    assert text(n, 2, 5) == "die 2 shows 5, not a six"


def test_a_cup_without_room_for_its_texts_names_the_text(monkeypatch):
    """Out of memory for the texts module (a cup's fragmented heap), ``text`` answers with the module and the
    number, so the error it belongs to still goes out with its code."""
    import builtins
    import sys
    from schocken import text
    monkeypatch.delitem(sys.modules, "schocken.texts", raising=False)
    plain = builtins.__import__

    def short_of_memory(name, *args, **kwargs):
        if name == "schocken.texts":
            raise MemoryError
        return plain(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", short_of_memory)
    assert text(3, 1, 2) == "schocken.texts 3"
