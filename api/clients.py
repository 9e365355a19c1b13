"""Who sent a request: the client's address, believing ``X-Forwarded-For`` only from a proxy.

Behind a reverse proxy every request comes from the proxy's address, and the proxy says whose
request it forwards in ``X-Forwarded-For``. Anyone can send that header, so it is believed only
when the peer is one of the proxies named by ``FORWARDED_ALLOW_IPS`` (the same setting
gunicorn reads for ``X-Forwarded-Proto``; empty by default: no proxy, no header believed).
Then the address taken is the nearest one the configured proxies did not add themselves: the
right-most hop that is not a proxy, since a client can put anything to the left of it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from flask import current_app, request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_networks(setting: str) -> tuple[Network, ...] | None:
    """``FORWARDED_ALLOW_IPS`` read: addresses and networks, or None for ``*`` (any peer)."""
    names = [name.strip() for name in setting.split(",") if name.strip()]
    if "*" in names:
        return None
    return tuple(ipaddress.ip_network(name, strict=False) for name in names)


def _is_proxy(address: str, proxies: Iterable[Network] | None) -> bool:
    if proxies is None:
        return True
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in proxies)


def address_of(environ: Mapping[str, Any], proxies: tuple[Network, ...] | None) -> str:
    """The client's address for one WSGI request, given the trusted proxies."""
    peer = str(environ.get("REMOTE_ADDR") or "")
    if not peer or not _is_proxy(peer, proxies):
        return peer
    forwarded = str(environ.get("HTTP_X_FORWARDED_FOR") or "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:  # a hop that is not an address: nothing left of it can be believed
            return peer
        if proxies is None or not _is_proxy(hop, proxies):
            return hop
        peer = hop
    return peer


def client_address() -> str:
    """The address of the client of the current request (what a rate limit counts by)."""
    proxies: tuple[Network, ...] | None = current_app.config["FORWARDED_PROXIES"]
    return address_of(request.environ, proxies)


__all__ = ["address_of", "client_address", "proxy_networks"]
