"""``openapi.yaml`` is what the code generates: it can never drift from the API.

Like flask-smorest's own tests/test_spec.py. When this fails, regenerate the file:

    FLASK_APP=wsgi .venv/bin/flask openapi write --format=yaml openapi.yaml
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from flask import Flask
from flask.testing import FlaskCliRunner

OPENAPI_YAML = Path(__file__).resolve().parent.parent / "openapi.yaml"


def _spec(app: Flask) -> dict[str, Any]:
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    # Through JSON, as a client sees it (tuples become lists).
    return json.loads(json.dumps(api.spec.to_dict()))  # type: ignore[no-any-return]


def test_openapi_yaml_is_generated_from_the_code(app: Flask) -> None:
    written = yaml.safe_load(OPENAPI_YAML.read_text(encoding="utf-8"))
    assert written == _spec(app), (
        "openapi.yaml is stale: FLASK_APP=wsgi flask openapi write --format=yaml openapi.yaml"
    )


def test_the_write_command_gives_the_same_document(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    target = tmp_path / "openapi.yaml"
    result = runner.invoke(args=["openapi", "write", "--format=yaml", str(target)])
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(target.read_text(encoding="utf-8")) == _spec(app)


def test_served_document_is_the_same(app: Flask) -> None:
    assert app.test_client().get("/openapi.json").get_json() == _spec(app)


def test_the_document_is_valid_openapi(app: Flask) -> None:
    """openapi-spec-validator on the checked-in file and on the served document: the drift test
    above cannot see a document that is the code's and still invalid (a response without its
    description was)."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    written, _ = read_from_filename(str(OPENAPI_YAML))
    validate(written)
    validate(app.test_client().get("/openapi.json").get_json())


def test_an_invalid_document_is_refused() -> None:
    """The validator is not a check that cannot fail: the old createMatch 201 is refused."""
    import pytest
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    written = yaml.safe_load(OPENAPI_YAML.read_text(encoding="utf-8"))
    created = written["paths"]["/v1/matches"]["post"]["responses"]["201"]
    del created["description"]
    with pytest.raises(OpenAPIValidationError):
        validate(written)


def test_create_match_answers_201_with_its_links_and_description(app: Flask) -> None:
    created = _spec(app)["paths"]["/v1/matches"]["post"]["responses"]["201"]
    assert created["description"]
    assert created["content"]["application/json"]["schema"]["$ref"].endswith("/CreatedSheet")
    assert set(created["links"]) == {"GetMatch", "RecordRound", "TakeBackRound", "DeleteMatch"}
