"""One hand of Liverpool from another app's side: ask the referee, then keep the score.

    python examples/keep_score.py http://127.0.0.1:8000

Plays round 1 (two sets) as a scorekeeping app would: checks a meld, checks the contract a
player lays down with the hand they hold, then starts a match sheet (safely retried with an
Idempotency-Key) and records the round on it with the edit token and If-Match, the ETag it has
just read — so that a round another phone recorded meanwhile is never overwritten (412).
Needs only httpx. Prints what it did and exits non-zero if the API answered otherwise.
"""

from __future__ import annotations

import sys
import uuid
from typing import Any

import httpx


def ok(answer: httpx.Response, status: int = 200) -> Any:
    """The answer's JSON, if it has the status expected; else the problem document, and stop."""
    if answer.status_code != status:
        sys.exit(
            f"{answer.request.method} {answer.request.url}: {answer.status_code} {answer.text}"
        )
    return answer.json()


def main(base: str) -> None:
    with httpx.Client(base_url=base, timeout=10) as api:
        # --- the referee: is it a meld, is it the contract? ---------------------------------
        meld = ok(
            api.post("/v1/checks/meld", json={"ruleset": "liverpool", "cards": ["7H", "7S", "JK"]})
        )
        print("7H 7S JK is a", meld["meld"]["type"], "- valid:", meld["valid"])
        hand = ["7H", "7S", "JK", "9C", "9D", "9S", "KD"]
        contract = ok(
            api.post(
                "/v1/checks/contract",
                json={
                    "ruleset": "liverpool",
                    "round": 1,
                    "melds": [["7H", "7S", "JK"], ["9C", "9D", "9S"]],
                    "hand": hand,
                },
            )
        )
        print("round 1 contract laid:", contract["valid"], "- left in hand:", contract["remaining"])

        # --- the scorekeeper: a sheet, and round 1 on it -----------------------------------
        created = api.post(
            "/v1/matches",
            json={"ruleset": "liverpool", "players": ["Ann", "Bob", "Cleo"], "title": "Example"},
            headers={"Idempotency-Key": str(uuid.uuid4())},  # a retry answers the same sheet
        )
        sheet = ok(created, 201)
        token = sheet["edit_token"]  # shown only now: keep it to change the sheet later
        print("sheet", created.headers["Location"])

        read = api.get(f"/v1/matches/{sheet['id']}")
        ok(read)
        # Bob melded his contract and went out; Ann and Cleo score what they hold.
        results = [
            {"seat": 0, "cards": contract["remaining"]},
            {"seat": 1, "went_out": True},
            {"seat": 2, "points": 35, "buys": 1},
        ]
        recorded = api.put(
            f"/v1/matches/{sheet['id']}/rounds/1",
            json={"results": results},
            headers={"Authorization": f"Bearer {token}", "If-Match": read.headers["ETag"]},
        )
        after = ok(recorded)
        print("round 1 recorded, sheet now at", recorded.headers["ETag"])
        for standing in after["standings"]:
            print(f"  {standing['rank']}. {standing['name']}: {standing['total']}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1].rstrip("/"))
