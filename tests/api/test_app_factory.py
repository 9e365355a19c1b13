"""The app factory, its settings, and the health check."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from api import create_app
from api.config import Config, ConfigError, env_bool, env_int
from api.json_provider import JSONProvider


def test_config_from_a_mapping() -> None:
    assert not create_app().testing
    assert create_app({"TESTING": True}).testing


def test_config_from_an_object() -> None:
    class Settings:
        TESTING = True
        MAX_JSON_DEPTH = 9

    app = create_app(Settings)
    assert app.testing
    assert app.config["MAX_JSON_DEPTH"] == 9


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "4096")
    monkeypatch.setenv("LOG_LEVEL", "warning")
    app = create_app()
    assert app.config["MAX_CONTENT_LENGTH"] == 4096
    assert app.config["LOG_LEVEL"] == "WARNING"


def test_the_app_writes_json_with_its_provider(client: FlaskClient) -> None:
    assert isinstance(create_app().json, JSONProvider)
    answer = client.post(
        "/v1/matches", json={"ruleset": "liverpool", "players": ["Åse", "Bø", "Ünal"]}
    )
    # Compact UTF-8, the keys in the schema's order, and a final newline.
    assert answer.get_data().startswith(b'{"id":')
    assert '"name":"Åse"'.encode() in answer.get_data()
    assert answer.get_data().endswith(b"}\n")


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_sqlite_database_in_memory_is_refused_by_name(url: str) -> None:
    with pytest.raises(ConfigError, match="in memory"):
        create_app({"DATABASE_URL": url})


def test_a_bad_setting_stops_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "lots")
    with pytest.raises(ConfigError, match="MAX_CONTENT_LENGTH"):
        create_app()


def test_typed_helpers() -> None:
    assert env_int("N", 3, {}) == 3
    assert env_int("N", 3, {"N": " 12 "}) == 12
    with pytest.raises(ConfigError):
        env_int("N", 3, {"N": "2"}, minimum=5)
    assert env_bool("B", False, {"B": "Yes"}) is True
    assert env_bool("B", True, {"B": "off"}) is False
    with pytest.raises(ConfigError, match="B must be true or false"):
        env_bool("B", True, {"B": "maybe"})
    assert Config({}).MAX_JSON_DEPTH == 32


def test_health(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}
