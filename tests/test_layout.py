"""The codebase keeps the shape a newcomer can live in: the rules engine apart from the web and
the database, storage apart from the web, no reliance on other libraries' private names, and
one path for every request.

These are the layout promises of docs/, held by a test so that they cannot quietly erode.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "api")
#: Where the project's code is, its tests and benchmarks included.
EVERYWHERE = (*PACKAGES, "tests", "bench")
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


@functools.cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported_roots(module: ast.Module) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_storage_apart_from_the_web(path: Path) -> None:
    roots = imported_roots(tree(path))
    if "sqlalchemy" in roots or "alembic" in roots:
        assert not roots & set(WEB), f"{path.name} imports the database and {roots & set(WEB)}"


def test_rules_import_no_web_and_no_database() -> None:
    for path in (ROOT / "rules").rglob("*.py"):
        roots = imported_roots(tree(path))
        assert not roots & {*WEB, "sqlalchemy", "alembic", "marshmallow"}, path.name


def everywhere() -> list[Path]:
    """Every Python file of the project, its tests and benchmarks included."""
    return sorted(path for folder in EVERYWHERE for path in (ROOT / folder).rglob("*.py"))


@functools.cache
def own_private_names() -> frozenset[str]:
    """Every underscore name this project defines itself (modules, classes, attributes)."""
    names: set[str] = set()
    for path in everywhere():
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
    return frozenset(name for name in names if name.startswith("_"))


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@pytest.mark.parametrize("path", everywhere(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_library_names(path: Path) -> None:
    """No ``lib._name``, ``from lib import _name``, ``obj._name`` or ``getattr(obj, "_name")``
    that the project does not define itself: a minor release of a library may rename any."""
    own = own_private_names()
    found = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and not node.level:
            found += [a.name for a in node.names if is_private(a.name) and a.name not in own]
            if any(is_private(part) for part in (node.module or "").split(".")):
                found.append(node.module or "")
        elif isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in own:
            found.append(f"{node.attr} (line {node.lineno})")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and is_private(node.args[1].value)
            and node.args[1].value not in own
        ):
            found.append(f"{node.func.id}(..., {node.args[1].value!r}) (line {node.lineno})")
    assert not found, found


def test_one_path_for_every_request() -> None:
    """Every request goes through Flask's dispatch and flask-smorest's decorators: nothing in
    api/ replaces a view after registration, wraps the app's WSGI callable, or inserts itself
    into Flask's lists of hooks."""
    found = []
    for path in sources():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    text = ast.unparse(target)
                    if "view_functions" in text or text.endswith(".wsgi_app"):
                        found.append(f"{path.name}:{node.lineno} assigns {text}")
            elif isinstance(node, ast.Attribute) and node.attr in (
                "before_request_funcs",
                "after_request_funcs",
                "teardown_request_funcs",
            ):
                found.append(f"{path.name}:{node.lineno} reaches into {node.attr}")
            elif isinstance(node, ast.FunctionDef) and [a.arg for a in node.args.args][-2:] == [
                "environ",
                "start_response",
            ]:
                found.append(f"{path.name}:{node.lineno} {node.name} is a WSGI callable")
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
