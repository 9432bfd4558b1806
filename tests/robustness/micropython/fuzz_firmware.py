# The firmware's command-line path under the unix port of MicroPython, one fuzz case a line:
# stdin gets the case's bytes in hex, stdout answers "accepted", "refused" or "CRASH <why>".
# The same modules the Pico runs (fblines, fbkeeper, fbstore) on MICROPYPATH, its servos checked
# for range on every write. Run by tests/robustness/fuzz_targets.py (MicroPythonFirmwareTarget).

import sys

import fbkeeper
import fblines
import fbstore


class Servos:
    count = 52

    def write(self, index, us):
        if not 0 <= index < 52 or not 400 <= us <= 2600:
            raise AssertionError("servo %d driven to %d us" % (index, us))


def main(folder):
    keeper = fbkeeper.Keeper(Servos(), {"speed": 100}, fbstore.Storage(folder + "/"))
    lines = fblines.LineReader()
    while True:
        case = sys.stdin.readline()
        if not case:
            return
        outcome = "refused"
        try:
            for text, _reason in lines.feed(bytes.fromhex(case.strip()) + b"\n"):
                if text is None:
                    continue
                reply = keeper.handle(text)
                if not isinstance(reply, str) or not reply or "\n" in reply:
                    raise AssertionError("answered %r with %r" % (text, reply))
                if not reply.startswith("ERR"):
                    outcome = "accepted"
                keeper.step(20)
        except Exception as exc:    # on a Pico this would end in a watchdog reboot
            outcome = "CRASH %s %s" % (type(exc).__name__, str(exc).replace("\n", " ")[:200])
        keeper.exit_requested = False
        sys.stdout.write(outcome + "\n")


main(sys.argv[1])
