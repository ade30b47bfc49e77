"""The address guard, tested on the functions themselves: a failing guard must not send packets."""

import socket

import pytest

from watchers.fetch import _GUARDED, RefusedAddress, _guarded_socket
from watchers.guard import is_global_ip

REFUSED = [
    "127.0.0.1",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "192.0.0.8",  # IETF protocol assignments
    "192.0.0.9",
    "192.0.2.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "192.88.99.1",
    "224.0.0.1",
    "240.0.0.1",
    "::",
    "::1",
    "[::1]",
    "::127.0.0.1",  # IPv4-compatible
    "::8.8.8.8",  # IPv4-compatible is deprecated whatever it carries
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "::ffff:192.0.0.8",
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2001::1",  # Teredo
    "2001:db8::1",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",
    "ff02::1",
    "100::1",
    "3fff::1",
    "not an address",
    "",
]
ALLOWED = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
]


@pytest.mark.parametrize("address", REFUSED)
def test_non_global_addresses_are_refused(address):
    assert is_global_ip(address) is False


@pytest.mark.parametrize("address", ALLOWED)
def test_global_addresses_pass(address):
    assert is_global_ip(address) is True


@pytest.mark.parametrize("address", ["127.0.0.1", "192.0.0.8", "::127.0.0.1", "::ffff:10.0.0.1"])
def test_the_socket_a_guarded_connection_uses_is_refused_before_it_exists(address):
    """The check sits on the address the connector is about to connect to, not on a second
    DNS answer; refused here, no socket is made, so nothing is sent."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    info = (family, socket.SOCK_STREAM, 6, "", (address, 80))
    token = _GUARDED.set(True)
    try:
        with pytest.raises(RefusedAddress, match="private or local address"):
            _guarded_socket(info)
    finally:
        _GUARDED.reset(token)
    unguarded = _guarded_socket(info)  # an unguarded first hop may reach a local source
    unguarded.close()
