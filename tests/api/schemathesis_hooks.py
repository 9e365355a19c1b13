"""schemathesis CLI hooks (``SCHEMATHESIS_HOOKS=tests/api/schemathesis_hooks.py``): the edit
token of each sheet the run creates, sent with every write to that sheet.

A sheet's ``edit_token`` is shown once, in the ``201`` that creates it, and writes need it as a
bearer token. The document's links carry the sheet's id and ETag to the writes, but a token a
link puts in ``Authorization`` counts for schemathesis as a *generated* credential, so its
``ignored_auth`` check would call every write that works a failure. Given here by an auth
provider, the token is an explicit credential: ``ignored_auth`` then sends the write again
without it and with a wrong one, and expects the ``401`` and ``403`` the API answers.

Nothing else is changed: every case goes out as generated.
"""

from __future__ import annotations

import threading
from typing import Any

import schemathesis
from requests.structures import CaseInsensitiveDict

#: A case schemathesis generated, for any of the document's operations.
Case = schemathesis.Case[Any]

#: The edit token of every sheet this run created, by sheet id (workers share it).
_TOKENS: dict[str, str] = {}
_LOCK = threading.Lock()


@schemathesis.hook
def after_call(
    context: schemathesis.HookContext, case: Case, response: schemathesis.Response
) -> None:
    if (case.method.upper(), case.path, response.status_code) != ("POST", "/v1/matches", 201):
        return
    body = response.json()
    with _LOCK:
        _TOKENS[body["id"]] = body["edit_token"]


@schemathesis.auth(refresh_interval=None)
class EditToken:
    """The token of the sheet a write names, when this run created that sheet."""

    def get(self, case: Case, context: schemathesis.AuthContext) -> str | None:
        match_id = (case.path_parameters or {}).get("match_id")
        with _LOCK:
            return _TOKENS.get(match_id) if isinstance(match_id, str) else None

    def set(self, case: Case, data: str, context: schemathesis.AuthContext) -> None:
        headers = CaseInsensitiveDict(case.headers)
        headers["Authorization"] = f"Bearer {data}"
        case.headers = headers
