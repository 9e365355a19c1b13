"""The addresses other phones at the table can open this service at.

A laptop serving the table often opens the start page as ``http://127.0.0.1:8000``: a link or a
QR code made from that address leads every other phone to itself. The sheet page asks
``GET /network`` for the machine's addresses on the table's network instead, each with whether
this service answers there (it does only when it listens on every interface, ``HOST=0.0.0.0``).

Only a page opened on the machine itself is told (the request comes from loopback, to a loopback
host, through no proxy): the addresses of a machine are nobody else's business.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

#: One address in each private range and one public one: connecting a UDP socket to each sends
#: nothing, but makes the system choose the address it would send from, i.e. this machine's
#: address on the network that reaches there (a table's Wi-Fi is usually one of these ranges).
ROUTES = ("192.168.255.255", "10.255.255.255", "172.31.255.255", "198.51.100.1")
#: How long to wait for this service to answer at an address: it is this machine.
PROBE_SECONDS = 0.3


@dataclass(frozen=True)
class Address:
    """An address of this machine, and whether this service answers there."""

    host: str
    reachable: bool


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, as a browser's address bar holds it) is this
    machine itself."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, loopback excluded, most likely first."""
    found: list[str] = []
    for route in ROUTES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect((route, 9))
            except OSError:
                continue  # no route there: not on such a network
            host = probe.getsockname()[0]
        if not ipaddress.ip_address(host).is_loopback and host not in found:
            found.append(host)
    return found


def answers_at(host: str, port: int) -> bool:
    """Whether something accepts connections at ``host:port`` (this service, listening there)."""
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            return True
    except OSError:
        return False


def addresses(port: int) -> list[Address]:
    """Every network address of this machine, and whether this service is reachable there."""
    return [Address(host, answers_at(host, port)) for host in machine_addresses()]


__all__ = ["Address", "addresses", "answers_at", "is_loopback", "machine_addresses"]
