"""The import contract (#22 "The layers"; STYLE.md: layers import downwards).

Every ``import`` in ``engine/`` and ``unoduo_tui/`` is read with :mod:`ast` — at module
level and inside functions alike, since a function-level import is a dependency too,
only a later one — and the module graph must keep to these rules:

- ``engine`` never imports ``unoduo_tui`` (nor Textual or Rich);
- ``unoduo_tui.net`` is protocol only: it never imports ``textual``, the CLI
  (``unoduo_tui.cli``, ``unoduo_tui.commands``) nor the screens, widgets or dialogs;
- ``unoduo_tui.widgets`` never import ``unoduo_tui.screens``;
- nothing but the entry point (``unoduo_tui.cli``) imports ``unoduo_tui.commands``
  (a command may use another's module, never the package that lists them all);
- no import cycle anywhere in ``unoduo_tui/``: the test computes the strongly
  connected components of the module graph and names every cycle it finds.

A module that imports a package (``from . import x``, ``import a.b``) depends on that
package's ``__init__`` and on the submodule it names; ``from .x import y`` depends on
``x`` (and on ``x.y`` when that is a module).  ``if TYPE_CHECKING:`` imports are left
out: they never run.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "unoduo_tui")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every Import / ImportFrom under ``tree``, skipping ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _targets(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The absolute names ``node`` (in module ``name``) imports: modules, and for
    ``from m import x`` both ``m`` and ``m.x``."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if node.level:
        is_package = modules()[name].name == "__init__.py"
        base = name.split(".")
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return {module} | {f"{module}.{alias.name}" for alias in node.names}


@cache
def raw_imports() -> dict[str, frozenset[str]]:
    """Each module's imported names (absolute, possibly not modules: ``m.function``)."""
    out = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        out[name] = frozenset(t for node in _imports(tree) for t in _targets(name, node))
    return out


def _resolve(target: str) -> set[str]:
    """The project modules ``target`` brings in: the module itself (or, for
    ``m.function``, ``m``) and the packages above it, whose ``__init__`` runs first."""
    known = modules()
    parts = target.split(".")
    hit = set()
    for i in range(1, len(parts) + 1):
        prefix = ".".join(parts[:i])
        if prefix in known:
            hit.add(prefix)
    return hit


@cache
def graph() -> dict[str, frozenset[str]]:
    """The project-internal module graph: an edge for every import, module-level or not
    (a module's own packages left out: their ``__init__`` is no dependency of it)."""
    out = {}
    for name, targets in raw_imports().items():
        deps = set()
        for target in targets:
            deps |= _resolve(target)
        own_packages = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        out[name] = frozenset(deps - {name} - own_packages)
    return out


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _offenders(importer: str, imported: tuple[str, ...]) -> list[str]:
    """``importer``'s modules that import (by name, project or third party) anything in
    ``imported``, as "module -> name" lines."""
    bad = []
    for name, targets in sorted(raw_imports().items()):
        if not _under(name, importer):
            continue
        for target in sorted(targets):
            if any(_under(target, p) for p in imported):
                bad.append(f"{name} -> {target}")
    return bad


def strongly_connected(g: dict[str, frozenset[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``g`` with more than one module (or a
    module importing itself), each sorted."""
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in g.get(v, ()):
                found.append(sorted(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def _a_cycle(g: dict[str, frozenset[str]], component: list[str]) -> list[str]:
    """One cycle through ``component``'s first module, as a path back to it (BFS)."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(g[v] & members):
            if w == start:
                path = [v]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if w not in previous:
                previous[w] = v
                queue.append(w)
    return component  # pragma: no cover - a component always has a cycle


# -- the tests -------------------------------------------------------------------------


def test_the_contract_reads_the_whole_project():
    # a parser that found nothing would pass every rule below
    g = graph()
    assert "unoduo_tui.cli" in g and "engine.match" in g and "unoduo_tui.net.authority" in g
    assert "unoduo_tui.store" in g["unoduo_tui.cli"] | {
        d for m in g["unoduo_tui.cli"] for d in g.get(m, ())} or any(
        "unoduo_tui.store" in g[m] for m in g if _under(m, "unoduo_tui.commands"))


def test_the_cycle_finder_finds_a_planted_cycle():
    g = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}),
         "d": frozenset({"a"})}
    assert strongly_connected(g) == [["a", "b", "c"]]
    assert _a_cycle(g, ["a", "b", "c"]) == ["a", "b", "c", "a"]


def test_engine_never_imports_the_app_textual_or_rich():
    assert _offenders("engine", ("unoduo_tui", "textual", "rich")) == []


def test_net_is_protocol_only_no_textual_no_cli_no_screens():
    assert _offenders("unoduo_tui.net", (
        "textual", "unoduo_tui.cli", "unoduo_tui.commands", "unoduo_tui.app",
        "unoduo_tui.screens", "unoduo_tui.widgets", "unoduo_tui.dialogs")) == []


def test_widgets_never_import_screens():
    assert _offenders("unoduo_tui.widgets", ("unoduo_tui.screens",)) == []


def test_only_the_entry_point_imports_the_commands():
    bad = [line for line in _offenders("unoduo_tui", ("unoduo_tui.commands",))
           if not line.startswith(("unoduo_tui.cli ", "unoduo_tui.commands"))]
    assert bad == []


def test_a_command_never_imports_the_commands_package():
    # the package lists every command: a command taking a name from it (build_parser,
    # run) would import them all, and itself
    inner = [f"{m} -> {t}" for m, targets in sorted(raw_imports().items())
             if _under(m, "unoduo_tui.commands") for t in sorted(targets)
             if t.rsplit(".", 1)[0] == "unoduo_tui.commands" and t not in modules()
             and m != "unoduo_tui.commands"]
    assert inner == []


def test_no_private_name_is_imported_from_another_module():
    # STYLE.md: a private name used from another module is a helper that wants a home
    bad = []
    for name, targets in sorted(raw_imports().items()):
        if not _under(name, "unoduo_tui"):
            continue
        for target in sorted(targets):
            last = target.rsplit(".", 1)[-1]
            if (_under(target, "unoduo_tui") and last.startswith("_")
                    and not last.startswith("__") and target not in modules()):
                bad.append(f"{name} -> {target}")
    assert bad == []


def test_no_import_cycle_in_the_app():
    g = {m: frozenset(d for d in deps if _under(d, "unoduo_tui"))
         for m, deps in graph().items() if _under(m, "unoduo_tui")}
    cycles = [" -> ".join(_a_cycle(g, c)) + f"  ({len(c)} modules: {', '.join(c)})"
              for c in strongly_connected(g)]
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def test_the_authority_uses_its_table_through_the_hosted_table_interface_only():
    # #22: never the table's private lock, never its match
    from unoduo_tui.table import HostedTable

    allowed = {name for klass in HostedTable.__mro__ for name in vars(klass)
               if not name.startswith("_")} | {
                   name for klass in HostedTable.__mro__
                   for name in vars(klass).get("__annotations__", {})}
    tree = ast.parse(modules()["unoduo_tui.net.authority"].read_text(encoding="utf-8"))
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute) and node.value.attr == "table"}
    used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
             and isinstance(node.value, ast.Name) and node.value.id == "t"}  # t = self.table
    assert used and used <= allowed, sorted(used - allowed)
