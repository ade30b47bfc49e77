"""The address guard: which addresses a redirected request may connect to.

Only global unicast addresses pass. Python's `is_global` alone is not enough (3.11 calls
192.0.0.8 and ::127.0.0.1 global), so the IANA special-purpose ranges are listed here, and an
IPv6 form that carries an IPv4 address (mapped, 6to4, NAT64) is judged on the address it carries.
"""

from __future__ import annotations

import ipaddress

_NET = ipaddress.ip_network
# IANA special-purpose registries (RFC 6890 and later), plus multicast and the reserved class E
NOT_GLOBAL_V4 = tuple(
    _NET(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",  # IETF protocol assignments, the two anycast exceptions included
        "192.0.2.0/24",
        "192.88.99.0/24",  # the deprecated 6to4 relay anycast
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
    )
)
NOT_GLOBAL_V6 = tuple(
    _NET(n)
    for n in (
        "::/96",  # unspecified, loopback and the deprecated IPv4-compatible form (::127.0.0.1)
        "64:ff9b:1::/48",  # local-use NAT64
        "100::/64",
        "2001::/23",  # IETF protocol assignments: Teredo, ORCHID, benchmarking, ...
        "2001:db8::/32",
        "3fff::/20",
        "5f00::/16",
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "ff00::/8",
    )
)
MAPPED = _NET("::ffff:0:0/96")
NAT64 = _NET("64:ff9b::/96")
SIX_TO_FOUR = _NET("2002::/16")


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped, NAT64 or 6to4 address leads to; None for other forms."""
    if address in MAPPED or address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in SIX_TO_FOUR:
        return ipaddress.IPv4Address((int(address) >> 80) & 0xFFFFFFFF)
    return None


def is_global_ip(text: str) -> bool:
    """True only for a global unicast address, written as an IPv4 or IPv6 literal."""
    try:
        address = ipaddress.ip_address(text.strip("[]").split("%")[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        if any(address in net for net in NOT_GLOBAL_V6):
            return False
        inner = embedded_ipv4(address)
        if inner is not None:
            return is_global_ip(str(inner))
    elif any(address in net for net in NOT_GLOBAL_V4):
        return False
    return address.is_global and not (address.is_multicast or address.is_reserved)
