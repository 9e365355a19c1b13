"""Immutable values that are quick to make.

The engine answers with frozen dataclasses (a meld's reading, a verdict, a violation), and a
single check makes several of them. A frozen dataclass's ``__init__`` stores each field by
calling ``object.__setattr__`` by name, which costs as much as the rest of reading a small
meld: measured under callgrind, a nine-field ``Meld`` took 15k instructions to make, and a
round-2 contract check makes three such values and a verdict.

:func:`quick_init` gives a frozen, slotted dataclass an ``__init__`` with the same signature
that stores each field through its slot's own descriptor instead (9k instructions for that
``Meld``). Everything else stays the dataclass's: equality, hashing, ``repr``,
``FrozenInstanceError`` on assignment, ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")

#: The default of a parameter whose field has a ``default_factory``.
_FACTORY = object()


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of ``cls``, a ``@dataclass(frozen=True, slots=True)``.

    Fields that are ``kw_only``, left out of ``__init__``, or ``InitVar`` pseudo-fields are
    not supported: a class with any is refused with ``TypeError`` rather than given an
    ``__init__`` of another signature.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__} is not a frozen, slotted dataclass")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    expected = [p.name for p in inspect.signature(cls.__init__).parameters.values()][1:]
    if any(f.kw_only or not f.init for f in fields) or expected != [f.name for f in fields]:
        raise TypeError(f"{cls.__qualname__}: only plain positional fields are supported")

    namespace: dict[str, Any] = {"_FACTORY": _FACTORY}
    parameters: list[str] = []
    body: list[str] = []
    for number, field in enumerate(fields):
        name = field.name
        if field.default is not dataclasses.MISSING:
            namespace[f"_default_{number}"] = field.default
            parameters.append(f"{name}=_default_{number}")
        elif field.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{number}"] = field.default_factory
            parameters.append(f"{name}=_FACTORY")
            body.append(f"if {name} is _FACTORY: {name} = _factory_{number}()")
        else:
            parameters.append(name)
        # The slot's member descriptor: its __set__ bypasses the frozen __setattr__.
        namespace[f"_set_{number}"] = cls.__dict__[name].__set__
        body.append(f"_set_{number}(self, {name})")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "".join(
        f"    {line}\n" for line in body or ["pass"]
    )
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    # What help() and inspect show: the dataclass's own, with its annotations and <factory>.
    init.__signature__ = inspect.signature(cls.__init__)
    init.__annotations__ = cls.__init__.__annotations__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
