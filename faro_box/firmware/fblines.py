# Bytes from the USB serial line to command lines. Binary and control bytes never reach the
# parser: a line holding one is dropped whole with a reason, and an overlong line is cut off
# at its newline, so one burst of noise costs at most the frame it landed in.

from fbproto import MAX_LINE


class LineReader:
    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.buf = bytearray()
        self.bad = False
        self.overflow = False

    def feed(self, data):
        # Returns a list of (text, None) for good lines and (None, reason) for dropped ones.
        events = []
        for byte in data:
            if byte == 10:
                if self.overflow:
                    events.append((None, "too-long"))
                elif self.bad:
                    events.append((None, "bad-bytes"))
                elif len(self.buf):
                    events.append((bytes(self.buf).decode(), None))
                self.buf = bytearray()
                self.bad = False
                self.overflow = False
            elif byte == 13:
                continue
            elif self.overflow:
                continue
            elif len(self.buf) >= self.limit:
                self.overflow = True
            else:
                if byte < 32 or byte > 126:
                    self.bad = True
                self.buf.append(byte)
        return events
