"""The codebase keeps the shape a newcomer can live in: short functions and modules, storage
apart from the web, and no reliance on other libraries' private names.

These are the layout promises of docs/ (and of the issue that set them), held by a test so that
they cannot quietly erode: a function of 81 lines or a module of 801 fails here, with its name.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "api")
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 800
#: Libraries whose underscore names are theirs to change in any release.
LIBRARIES = ("flask_smorest", "webargs", "marshmallow", "apispec", "flask", "werkzeug")
WEB = ("flask", "werkzeug", "flask_smorest", "webargs")


def sources() -> list[Path]:
    """The project's modules; Alembic's own scripts (``migrations/``) are run by Alembic only."""
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported_roots(module: ast.Module) -> set[str]:
    roots = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_is_short(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.name} has {lines} lines"


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_functions_are_short(path: Path) -> None:
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(tree(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, long


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_storage_apart_from_the_web(path: Path) -> None:
    roots = imported_roots(tree(path))
    if "sqlalchemy" in roots or "alembic" in roots:
        assert not roots & set(WEB), f"{path.name} imports the database and {roots & set(WEB)}"


def test_rules_import_no_web_and_no_database() -> None:
    for path in (ROOT / "rules").rglob("*.py"):
        roots = imported_roots(tree(path))
        assert not roots & {*WEB, "sqlalchemy", "alembic", "marshmallow"}, path.name


def own_private_names() -> set[str]:
    """Every underscore name this project defines itself (modules, classes, attributes)."""
    names: set[str] = set()
    for path in sources():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[-1])
    return {name for name in names if name.startswith("_")}


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_library_names(path: Path) -> None:
    """No ``lib._name``, ``from lib import _name`` or ``obj._name`` that the project does not
    define itself: a minor release of flask-smorest or marshmallow may rename any of them."""
    own = own_private_names()
    found = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            found += [a.name for a in node.names if is_private(a.name)]
            if any(is_private(part) for part in (node.module or "").split(".")):
                found.append(node.module or "")
        elif isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in own:
            found.append(f"{node.attr} (line {node.lineno})")
    assert not found, found


def test_no_override_of_private_library_methods() -> None:
    """No class of ours defines an underscore name its library base classes have (a hook such
    as marshmallow's ``_serialize`` or flask-smorest's ``_register_responses``)."""
    found = []
    for path in sources():
        module = importlib.import_module(module_name(path))
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.ClassDef) or not hasattr(module, node.name):
                continue
            cls = getattr(module, node.name)
            defined = {
                item.name
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            } | {
                target.id
                for item in node.body
                if isinstance(item, ast.Assign | ast.AnnAssign)
                for target in (item.targets if isinstance(item, ast.Assign) else [item.target])
                if isinstance(target, ast.Name)
            }
            for name in filter(is_private, defined):
                for base in inspect.getmro(cls)[1:]:
                    if base.__module__.split(".")[0] in LIBRARIES and name in vars(base):
                        found.append(f"{module.__name__}.{cls.__name__}.{name} ({base.__name__})")
    assert not found, found
