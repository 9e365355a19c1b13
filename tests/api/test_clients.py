"""The client's address: X-Forwarded-For believed only from a proxy FORWARDED_ALLOW_IPS names.

:func:`api.clients.client_address` is what per-client limits count by; a client that sends its
own X-Forwarded-For straight to the service must not become somebody else.
"""

from __future__ import annotations

import pytest

from api import create_app
from api.clients import address_of, client_address, proxy_networks
from api.config import Config, ConfigError


def address(setting: str, peer: str, forwarded: str | None = None) -> str:
    app = create_app({"TESTING": True, "FORWARDED_PROXIES": proxy_networks(setting)})
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    with app.test_request_context("/", headers=headers, environ_base={"REMOTE_ADDR": peer}):
        found = client_address()
    app.extensions["database"].dispose()
    return found


def test_by_default_no_forwarded_header_is_believed() -> None:
    assert Config({}).FORWARDED_PROXIES == ()
    assert address("", "203.0.113.7", "198.51.100.1") == "203.0.113.7"
    assert address("", "127.0.0.1", "198.51.100.1") == "127.0.0.1"


def test_a_peer_that_is_not_a_configured_proxy_is_the_client() -> None:
    assert address("10.0.0.2", "203.0.113.7", "198.51.100.1") == "203.0.113.7"


def test_a_configured_proxy_forwards_the_clients_address() -> None:
    assert address("10.0.0.2", "10.0.0.2", "198.51.100.1") == "198.51.100.1"
    assert address("10.0.0.0/24,::1", "::1", "2001:db8::5") == "2001:db8::5"


def test_what_a_client_put_left_of_the_proxys_hop_is_not_believed() -> None:
    # The client sent "X-Forwarded-For: 192.0.2.66"; the proxy appended the address it saw.
    assert address("10.0.0.2", "10.0.0.2", "192.0.2.66, 198.51.100.1") == "198.51.100.1"
    # Two proxies of ours in a row: the first hop that is not ours is the client.
    assert address("10.0.0.0/24", "10.0.0.2", "192.0.2.66, 198.51.100.1, 10.0.0.3") == (
        "198.51.100.1"
    )


def test_a_garbled_or_missing_header_leaves_the_peer() -> None:
    assert address("10.0.0.2", "10.0.0.2", "not-an-address") == "10.0.0.2"
    assert address("10.0.0.2", "10.0.0.2") == "10.0.0.2"
    assert address_of({}, ()) == ""


def test_a_star_believes_any_peer_one_hop_deep() -> None:
    assert address("*", "203.0.113.7", "192.0.2.66, 198.51.100.1") == "198.51.100.1"


def test_a_bad_setting_stops_the_app_with_its_name() -> None:
    with pytest.raises(ConfigError, match="FORWARDED_ALLOW_IPS"):
        Config({"FORWARDED_ALLOW_IPS": "10.0.0.300"})
