# The case-keeper's brain: commands in, replies out, beads gliding to where the host says.
# No hardware here: servos arrive as an object with .count and .write(index, microseconds),
# storage as an object with .load(name) and .save(name, value), so tests run it in CPython.

from fbproto import (
    BEADS, PROTOCOL, RODS, VERSION, format_positions, is_newer, is_whole, parse_positions, seal, unseal,
)

DEFAULT_CALIBRATION = (1000, 2000, 1)
MIN_PULSE = 400
MAX_PULSE = 2600
CAL_FILE = "calibration.json"


class Keeper:
    def __init__(self, servos, config, storage):
        self.servos = servos
        self.storage = storage
        # Lengths are tenths of a millimetre throughout: whole numbers on the wire.
        self.rod = int(round(config.get("rod_length", 120) * 10))
        self.bead = int(round(config.get("bead", 10) * 10))
        self.speed = config.get("speed", 80) * 10 / 1000.0      # mm/s -> tenths per ms
        self.carriage = servos.count == RODS
        self.seq = 0
        self.exit_requested = False
        self.calibration = self._load_calibration()
        self.targets = self.home()
        self.current = [float(v) for v in self.targets]
        # What the servos stand at: the beads themselves, or in the 13-servo build each rod's
        # carriage, which glides on its own so that it too keeps the speed limit when the rod's
        # newest bead changes.
        self.standing = [float(v) for v in self.servo_positions(self.targets)] if self.carriage else self.current
        self._sent = [None] * servos.count
        # Power just returned: go straight to the safe position (every bead at the inner end).
        self._drive(force=True)

    def home(self):
        return [self.rod - (4 - i) * self.bead for _ in range(RODS) for i in range(4)]

    # ---- calibration -------------------------------------------------------------------
    def _load_calibration(self):
        stored = self.storage.load(CAL_FILE)
        cal = [list(DEFAULT_CALIBRATION) for _ in range(self.servos.count)]
        if isinstance(stored, list):
            for index, entry in enumerate(stored[: self.servos.count]):
                if _valid_calibration(entry):
                    cal[index] = [int(entry[0]), int(entry[1]), int(entry[2])]
        return cal

    def pulse(self, servo, tenths):
        low, high, direction = self.calibration[servo]
        fraction = tenths / self.rod
        if direction < 0:
            fraction = 1 - fraction
        return int(low + (high - low) * fraction + 0.5)

    # ---- motion ------------------------------------------------------------------------
    def servo_positions(self, beads):
        if not self.carriage:
            return beads
        # One carriage per rod stands at the newest bead that left the inner end.
        out = []
        home = self.home()
        for rod in range(RODS):
            front = home[rod * 4]
            for i in range(4):
                if beads[rod * 4 + i] < home[rod * 4 + i]:
                    front = beads[rod * 4 + i]
            out.append(front)
        return out

    def step(self, elapsed_ms):
        # Glide: no bead and no servo moves faster than the speed limit, however far its target jumped.
        limit = self.speed * max(0, elapsed_ms)
        _glide(self.current, self.targets, limit)
        if self.carriage:
            _glide(self.standing, self.servo_positions(self.targets), limit)
        self._drive()

    def _drive(self, force=False):
        for servo in range(self.servos.count):
            us = self.pulse(servo, self.standing[servo])
            if force or us != self._sent[servo]:
                self.servos.write(servo, us)
                self._sent[servo] = us

    @property
    def moving(self):
        if self.carriage and _apart(self.standing, self.servo_positions(self.targets)):
            return True
        return _apart(self.current, self.targets)

    # ---- commands ----------------------------------------------------------------------
    def handle(self, line):
        words = line.split(" ")
        verb = words[0]
        if verb == "STATE":
            return self._state(line)
        if verb == "PING" and len(words) == 1:
            return "PONG %d" % self.seq
        if verb == "VERSION" and len(words) == 1:
            return "VERSION faro-box-firmware %s protocol %d servos %d mode %s rod %d bead %d" % (
                VERSION, PROTOCOL, self.servos.count, "carriage" if self.carriage else "beads",
                self.rod, self.bead)
        if verb == "GET" and len(words) == 1:
            return seal("STATE %d %s" % (self.seq, format_positions(self.targets)))
        if verb == "WHERE" and len(words) == 1:
            now = [int(c + 0.5) for c in self.current]
            return seal("WHERE %d %s" % (1 if self.moving else 0, format_positions(now)))
        if verb == "PARK" and len(words) == 1:
            self.targets = self.home()
            self.seq = 0    # the host's state is no longer shown: its next PING sees 0
            return "OK PARK"
        if verb == "CAL":
            return self._cal(words[1:])
        if verb == "REPL" and len(words) == 1:
            self.exit_requested = True
            return "OK REPL"
        return "ERR - unknown %s" % _quote(verb)

    def _state(self, line):
        body = unseal(line)
        if body is None:
            return "ERR - checksum"
        words = body.split(" ")
        if len(words) != 3 or not is_whole(words[1]) or words[1][0] == "-":
            return "ERR - format expected STATE <seq> <52 positions> <crc>"
        seq = int(words[1])
        if not 0 < seq < 65536:
            return "ERR %s range seq must be 1..65535" % words[1]
        try:
            values = parse_positions(words[2], self.rod)
        except ValueError as exc:
            return "ERR %d range %s" % (seq, exc)
        if self.seq and seq != self.seq and not is_newer(seq, self.seq):
            return "ERR %d stale last=%d" % (seq, self.seq)
        duplicate = seq == self.seq and values == self.targets
        self.targets = values
        self.seq = seq
        return "OK %d DUP" % seq if duplicate else "OK %d" % seq

    def _cal(self, args):
        if args == ["SAVE"]:
            try:
                self.storage.save(CAL_FILE, self.calibration)
            except OSError as exc:
                return "ERR - io cannot save calibration: %s" % exc
            return "OK CAL SAVE"
        if not args or len(args) not in (1, 4) or not all(is_whole(a) for a in args):
            return "ERR - format expected CAL <servo> [<min_us> <max_us> <1|-1>] or CAL SAVE"
        servo = int(args[0])
        if not 0 <= servo < self.servos.count:
            return "ERR - servo %d is not 0..%d" % (servo, self.servos.count - 1)
        if len(args) == 1:
            low, high, direction = self.calibration[servo]
            return "CAL %d %d %d %d" % (servo, low, high, direction)
        entry = [int(a) for a in args[1:]]
        if not _valid_calibration(entry):
            return "ERR - range need %d <= min < max <= %d and direction 1 or -1" % (MIN_PULSE, MAX_PULSE)
        self.calibration[servo] = entry
        self._sent[servo] = None
        self._drive()
        return "OK CAL %d" % servo


def _glide(now, goal, limit):
    for i in range(len(now)):
        gap = goal[i] - now[i]
        if gap > limit:
            now[i] += limit
        elif gap < -limit:
            now[i] -= limit
        else:
            now[i] = float(goal[i])


def _apart(now, goal):
    for i in range(len(now)):
        if abs(now[i] - goal[i]) > 0.01:
            return True
    return False


def _valid_calibration(entry):
    if not isinstance(entry, (list, tuple)) or len(entry) != 3:
        return False
    try:
        low, high, direction = int(entry[0]), int(entry[1]), int(entry[2])
    except (TypeError, ValueError):
        return False
    return MIN_PULSE <= low < high <= MAX_PULSE and direction in (1, -1)


def _quote(word):
    return repr(word[:24])
