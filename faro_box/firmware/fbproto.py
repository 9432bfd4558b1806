# The case-keeper's line protocol (firmware/PROTOCOL.md): checksums, positions, limits.
# Plain MicroPython: no typing, no dataclasses, so the same file runs on the Pico and in CPython.

VERSION = "1.0.0"
PROTOCOL = 1
RODS = 13
BEADS = 52
MAX_LINE = 640
SEQ_MODULO = 65536
HEX_DIGITS = "0123456789ABCDEF"
DECIMAL_DIGITS = "0123456789"


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data):
    # CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): the host's binascii.crc_hqx(data, 0xFFFF).
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def seal(body):
    # A line with its checksum: the CRC of everything before the last space.
    return "%s %04X" % (body, crc16(body.encode()))


def unseal(line):
    # The body of a sealed line, or None when the checksum is missing or wrong.
    cut = line.rfind(" ")
    if cut < 0:
        return None
    body, given = line[:cut], line[cut + 1:]
    # Exactly four upper-case hex digits: int(x, 16) alone would also take "0x1F", "+1FF", "1_FF".
    if len(given) != 4 or not all(c in HEX_DIGITS for c in given):
        return None
    return body if int(given, 16) == crc16(body.encode()) else None


def is_whole(text):
    # A whole number as the protocol writes it: digits, one optional leading minus. "--5" is not.
    digits = text[1:] if text[:1] == "-" else text
    return len(digits) > 0 and all(c in DECIMAL_DIGITS for c in digits)


def format_positions(values):
    return ",".join([str(v) for v in values])


def parse_positions(text, limit):
    # 52 whole tenths of a millimetre, 0..limit; raises ValueError naming what is wrong.
    parts = text.split(",")
    if len(parts) != BEADS:
        raise ValueError("need %d positions, got %d" % (BEADS, len(parts)))
    values = []
    for part in parts:
        if not is_whole(part) or part[0] == "-":
            raise ValueError("position %r is not a whole number" % part)
        value = int(part)
        if value > limit:
            raise ValueError("position %d is beyond the rod (%d)" % (value, limit))
        values.append(value)
    return values


def is_newer(seq, last):
    # Serial-number arithmetic on 16 bits, so the counter may wrap.
    diff = (seq - last) % SEQ_MODULO
    return 0 < diff < SEQ_MODULO // 2
