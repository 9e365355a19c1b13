"""``quick_init`` makes the same values as the dataclass ``__init__`` it replaces."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

import rules
from rules import checks, melds, violations
from rules.values import quick_init


def _sample(quick: bool) -> type[Any]:
    @dataclass(frozen=True, slots=True)
    class Sample:
        name: str
        count: int = 2
        tags: tuple[str, ...] = ()
        extra: dict[str, int] = field(default_factory=dict, hash=False)
        made: list[str] = field(default_factory=list, compare=False, repr=False)

        def __post_init__(self) -> None:
            self.made.append(self.name)
            if self.count < 0:
                raise ValueError(f"a negative count: {self.count!r}")

    return quick_init(Sample) if quick else Sample


PLAIN, QUICK = _sample(False), _sample(True)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("a",), {}),
        (("a", 5), {}),
        (("a", 5, ("x",), {"k": 1}), {}),
        ((), {"name": "b", "extra": {"j": 2}}),
        (("c",), {"tags": ("y", "z"), "count": 0}),
    ],
)
def test_the_same_value_as_the_dataclass_makes(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    plain, quick = PLAIN(*args, **kwargs), QUICK(*args, **kwargs)
    assert dataclasses.astuple(plain) == dataclasses.astuple(quick)
    assert repr(plain) == repr(quick)
    assert quick == QUICK(*args, **kwargs) and hash(quick) == hash(QUICK(*args, **kwargs))
    assert quick.made == [quick.name]  # __post_init__ ran once, after every field was set


def test_each_default_factory_makes_a_new_object() -> None:
    first, second = QUICK("a"), QUICK("a")
    assert first.extra == {} and first.extra is not second.extra


def test_the_signature_and_the_errors_are_the_dataclasss() -> None:
    assert inspect.signature(QUICK.__init__) == inspect.signature(PLAIN.__init__)
    assert QUICK.__init__.__qualname__.endswith("Sample.__init__")
    for make in (PLAIN, QUICK):
        with pytest.raises(TypeError):
            make()
        with pytest.raises(TypeError):
            make("a", unknown=1)
        with pytest.raises(ValueError, match="-1"):
            make("a", -1)


def test_values_stay_frozen() -> None:
    value = QUICK("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.count = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del value.count  # type: ignore[misc]
    assert dataclasses.replace(value, count=4).count == 4


def test_the_engines_values_are_quick_and_pickle() -> None:
    for cls in (melds.Meld, melds.Wild, violations.Violation, checks.ContractVerdict):
        assert "_set_0" in cls.__init__.__globals__, cls  # the descriptors quick_init wrote
    verdict = rules.check_contract(
        rules.find_ruleset("liverpool"),
        2,
        [rules.parse_cards(["7H", "7S", "7D"]), rules.parse_cards(["4H", "5H", "JK", "7H"])],
    )
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    assert verdict.melds[1].wilds == (melds.Wild(2, "6H"),)


@pytest.mark.parametrize(
    "make",
    [
        lambda: type("NotADataclass", (), {}),
        lambda: dataclass(slots=True)(type("Mutable", (), {"__annotations__": {"a": int}})),
        lambda: dataclass(frozen=True)(type("NoSlots", (), {"__annotations__": {"a": int}})),
        lambda: dataclass(frozen=True, slots=True, kw_only=True)(
            type("KwOnly", (), {"__annotations__": {"a": int}})
        ),
    ],
    ids=["not a dataclass", "mutable", "no slots", "kw_only"],
)
def test_other_classes_are_refused(make: Any) -> None:
    with pytest.raises(TypeError):
        quick_init(make())
