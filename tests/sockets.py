"""Loopback sockets for tests that must prove the bot did not contact Discord."""

from __future__ import annotations

import socket


def closed_port() -> int:
    """A localhost port nothing listens on (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def contacted(sentinel: socket.socket) -> bool:
    """Whether anything connected to the listening ``sentinel`` socket."""
    try:
        conn, _ = sentinel.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True
