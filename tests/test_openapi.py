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
