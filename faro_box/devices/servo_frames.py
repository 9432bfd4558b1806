"""The host's side of the case-keeper line protocol (firmware/PROTOCOL.md).

Frames carry whole states: 52 bead positions in whole tenths of a millimetre, a 16-bit sequence
number and a CRC-16/CCITT-FALSE checksum, the same function the firmware computes by table.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from faro_box.errors import ProtocolError

PROTOCOL = 1
BEADS = 52
SEQ_MODULO = 65536


def crc16(data: bytes) -> int:
    return binascii.crc_hqx(data, 0xFFFF)


def seal(body: str) -> str:
    return f"{body} {crc16(body.encode('ascii')):04X}"


def unseal(line: str) -> str:
    """The body of a sealed line; ProtocolError when its checksum is missing or wrong."""
    body, _, given = line.rpartition(" ")
    # Four upper-case hex digits, exactly as the firmware writes them (firmware/PROTOCOL.md).
    if not body or given != f"{crc16(body.encode('ascii', 'replace')):04X}":
        raise ProtocolError(f"line {line[:60]!r} has no valid checksum")
    return body


def to_tenths(positions_mm: tuple[float, ...]) -> tuple[int, ...]:
    if len(positions_mm) != BEADS:
        raise ProtocolError(f"a frame carries {BEADS} positions, not {len(positions_mm)}")
    return tuple(int(round(p * 10)) for p in positions_mm)


def state_frame(seq: int, tenths: tuple[int, ...]) -> bytes:
    if not 0 < seq < SEQ_MODULO:
        raise ProtocolError(f"sequence number {seq!r} must be 1..65535")
    return (seal(f"STATE {seq} {','.join(map(str, tenths))}") + "\n").encode("ascii")


def next_seq(seq: int) -> int:
    return seq % (SEQ_MODULO - 1) + 1


@dataclass(frozen=True, slots=True)
class FirmwareState:
    """What the firmware reports: the last state it accepted and where its beads stand now."""

    seq: int
    targets: tuple[int, ...]


def parse_positions_line(line: str, verb: str) -> tuple[int, tuple[int, ...]]:
    """``STATE <seq> <positions> <crc>`` or ``WHERE <moving> <positions> <crc>``."""
    words = unseal(line).split(" ")
    if len(words) != 3 or words[0] != verb or not words[1].isdigit():
        raise ProtocolError(f"expected {verb} <n> <positions> <crc>, got {line[:60]!r}")
    try:
        values = tuple(int(v) for v in words[2].split(","))
    except ValueError:
        raise ProtocolError(f"positions in {line[:60]!r} are not whole numbers") from None
    if len(values) != BEADS:
        raise ProtocolError(f"{line[:60]!r} holds {len(values)} positions, not {BEADS}")
    return int(words[1]), values


@dataclass(frozen=True, slots=True)
class FirmwareVersion:
    firmware: str
    protocol: int
    servos: int
    mode: str
    rod_tenths: int
    bead_tenths: int

    @classmethod
    def parse(cls, line: str) -> FirmwareVersion:
        words = line.split()
        try:
            if words[0] != "VERSION" or words[1] != "faro-box-firmware":
                raise ValueError
            fields = dict(zip(words[3::2], words[4::2], strict=False))
            return cls(words[2], int(fields["protocol"]),
                       int(fields["servos"]), fields["mode"], int(fields["rod"]), int(fields["bead"]))
        except (ValueError, KeyError, IndexError):
            raise ProtocolError(f"not a faro-box firmware VERSION reply: {line[:80]!r}") from None
