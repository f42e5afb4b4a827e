"""The packages import one way, in the order docs/architecture.md draws: a module imports
only its own package and the layers below it (imports under TYPE_CHECKING are types only,
and do not count), with no exception: the language of sentences (language/) sits below
every layer that writes them."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "validator"
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"

LAYERS = (
    ("system",),
    ("engine", "errors"),
    ("language",),
    ("records",),
    ("rulesets",),
    ("check",),
    ("contest", "solver"),
    ("report",),
    ("render",),
    ("tui",),
    ("cli",),
    ("api", "__init__", "__main__"),
)
LEVEL = {name: n for n, names in enumerate(LAYERS) for name in names}
I18N = "validator.language.i18n"
RULESETS_ORDER = ("expansions", "files", "names", "describe")


def _is_type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`."""
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
    return name == "TYPE_CHECKING"


def _import_statements(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements run at import or call time: statements only (an import is
    never an expression), the bodies of `if TYPE_CHECKING:` left out."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _import_statements(node.orelse)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _import_statements(inner)


@cache
def _runtime_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in _import_statements(tree.body):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("validator"):
            if node.module == "validator" and all(a.name == "__version__" for a in node.names):
                continue  # the version number only
            folder = PACKAGE.joinpath(*node.module.split(".")[1:])
            modules = [a.name for a in node.names if (folder / f"{a.name}.py").exists()]
            # `from validator.render import svg` imports the module render/svg.py
            found.extend(f"{node.module}.{m}" for m in modules)
            if len(modules) < len(node.names):
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if a.name.startswith("validator"))
    return found


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        out.append((".".join(("validator", *rel.parts)).removesuffix(".__init__"), path))
    return out


def test_every_package_is_a_layer() -> None:
    top = {
        p.name.removesuffix(".py")
        for p in PACKAGE.iterdir()
        if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())
    }
    assert top <= set(LEVEL), top - set(LEVEL)


def test_imports_run_one_way() -> None:
    wrong = []
    for module, path in _modules():
        mine = _layer(module) if module != "validator" else "__init__"
        for target in _runtime_imports(path):
            theirs = _layer(target) if target != "validator" else "__init__"
            if theirs == mine or theirs not in LEVEL:
                continue
            if LEVEL[theirs] > LEVEL[mine]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_package_graph_has_no_cycle() -> None:
    """Not even between the packages of one layer (contest/ and solver/, engine/ and errors)."""
    graph: dict[str, set[str]] = {}
    for module, path in _modules():
        mine = _layer(module) if module != "validator" else "__init__"
        graph.setdefault(mine, set()).update(
            _layer(t) for t in _runtime_imports(path) if t != "validator" and _layer(t) != mine
        )
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name not in done:
            for target in sorted(graph.get(name, ())):
                visit(target, (*path, name))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_the_engine_is_pure() -> None:
    """The engine imports only itself and the standard library (no I/O helpers of the
    package, no click, rich, pydantic or yaml), though system/ lies below it."""
    for path in (PACKAGE / "engine").glob("*.py"):
        for node in _import_statements(ast.parse(path.read_text(encoding="utf-8")).body):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                top = name.split(".")[0]
                inside = name == "validator.engine" or name.startswith("validator.engine.")
                assert inside or top in sys.stdlib_module_names | {"", "__future__"}, (
                    path.name,
                    name,
                )


def test_the_plumbing_imports_nothing_of_the_package() -> None:
    for path in (PACKAGE / "system").glob("*.py"):
        assert _runtime_imports(path) == [], path.name


def test_the_wording_module_is_a_leaf() -> None:
    imports = _runtime_imports(PACKAGE / "language" / "wording.py")
    assert all(m in ("validator.engine", "validator.engine.phrase", I18N) for m in imports), imports


def test_the_language_module_is_a_leaf() -> None:
    assert _runtime_imports(PACKAGE / "language" / "i18n.py") == []


def test_rulesets_modules_import_only_those_before_them() -> None:
    for n, name in enumerate(RULESETS_ORDER):
        imports = _runtime_imports(PACKAGE / "rulesets" / f"{name}.py")
        inside = [m.rsplit(".", 1)[-1] for m in imports if m.startswith("validator.rulesets.")]
        assert all(RULESETS_ORDER.index(m) < n for m in inside), (name, inside)
    assert "yaml_source" not in (PACKAGE / "rulesets" / "__init__.py").read_text()


SHARED_BY_RENDERERS = {"shared", "sanitize", "board_text", "svg", "texts"}
"""The modules made for renderers to share (what they say alike, escaping, the board as
text and as SVG, the sentences of the site and the replies); the registry names them all."""


def test_no_renderer_imports_another_renderer() -> None:
    """Renderers share pieces through the modules made for sharing, never by importing
    another renderer (the site's and replies' pages are given the HTML renderer)."""
    for path in sorted((PACKAGE / "render").glob("*.py")):
        name = path.stem
        if name in SHARED_BY_RENDERERS | {"registry", "__init__"}:
            continue
        imports = _runtime_imports(path)
        others = {m.rsplit(".", 1)[-1] for m in imports if m.startswith("validator.render.")}
        assert others <= SHARED_BY_RENDERERS, (name, others - SHARED_BY_RENDERERS)
    for name in SHARED_BY_RENDERERS:
        imports = _runtime_imports(PACKAGE / "render" / f"{name}.py")
        others = {m.rsplit(".", 1)[-1] for m in imports if m.startswith("validator.render.")}
        assert others <= SHARED_BY_RENDERERS, (name, others - SHARED_BY_RENDERERS)


def test_the_architecture_names_every_package() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for path in PACKAGE.iterdir():
        if path.is_dir() and (path / "__init__.py").exists():
            assert f"{path.name}/" in text, path.name
            doc = ast.get_docstring(ast.parse((path / "__init__.py").read_text(encoding="utf-8")))
            assert doc and "\n" not in doc, f"{path.name}/__init__.py: one line of docstring"
