"""The address guard: which hosts a redirect may lead to."""

from __future__ import annotations

import ipaddress
import socket


def is_public_address(host: str) -> bool:
    """False for loopback, private, link-local and other non-public addresses of `host`."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return True  # it will fail to connect anyway, with its own clear error
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global or address.is_multicast:
            return False
    return True


def is_global_ip(text: str) -> bool:
    """True only for a global unicast address."""
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    return address.is_global and not address.is_multicast
