"""A list of cards reads every card at once (api.fields.CardList) and answers what marshmallow's
own List of CardFields answers, for any list a client can send: the same cards, or the same
messages at the same positions."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.fields import CardField, CardList, List, length
from rules.cards import SPELLINGS

TEXTS = st.sampled_from(sorted(SPELLINGS)) | st.text(max_size=4)
ITEMS = TEXTS | st.none() | st.integers() | st.lists(TEXTS, max_size=2) | st.just({"card": "7H"})


def read(field: ma.fields.Field[Any], value: Any) -> tuple[str, Any]:
    try:
        return "cards", field.deserialize(value)
    except ma.ValidationError as error:
        return "refused", error.messages


@given(
    st.lists(TEXTS, max_size=8) | st.lists(ITEMS, max_size=6) | ITEMS,
    st.sampled_from([(None, None), (1, None), (None, 3), (2, 5)]),
)
# The app only gives the messages their language: the same for every example.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_card_list_reads_as_marshmallows_list_of_cards(
    app: Flask, value: Any, bounds: tuple[int | None, int | None]
) -> None:
    low, high = bounds
    ours = CardList(min_items=low, max_items=high)
    stock = List(CardField(), validate=length(low, high) if low or high else None)
    with app.test_request_context("/"):
        assert read(ours, value) == read(stock, value)
