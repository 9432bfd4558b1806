"""The live stream against a real `faro-box run` on 127.0.0.1: one address cannot take every
viewer's place."""

from __future__ import annotations

import socket
import time

from box import Box, stranger

SHARE = 6          # WebLimits.sse_per_client


def open_stream(box: Box, source: str) -> tuple[int, socket.socket]:
    sock = socket.create_connection(("127.0.0.1", box.port), timeout=10, source_address=(source, 0))
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(1024)
        if not chunk:
            break
        head += chunk
    return int(head.split(b" ")[1]), sock


def test_one_address_cannot_take_all_viewer_slots(tmp_path):
    box = Box(tmp_path)
    streams = []
    try:
        hog = [open_stream(box, stranger(0)) for _ in range(64)]        # every slot, from one machine
        streams += [sock for _, sock in hog]
        codes = [code for code, _ in hog]
        assert codes.count(200) == SHARE and codes.count(503) == 64 - SHARE, codes
        neighbour, sock = open_stream(box, stranger(1))                  # another phone in the room
        streams.append(sock)
        assert neighbour == 200
        for code, sock in hog:                                           # the hog leaves one page
            if code == 200:
                sock.close()
                break
        again = None
        for _ in range(50):                                              # its place is given back
            again, sock = open_stream(box, stranger(0))
            streams.append(sock)
            if again == 200:
                break
            time.sleep(0.1)
        assert again == 200
    finally:
        for sock in streams:
            sock.close()
        box.stop()
