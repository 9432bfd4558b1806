# Small JSON files in the Pico's flash. A save writes a new file and renames it over the old,
# so a power cut mid-write leaves the previous calibration, never half of one.

import json
import os


class Storage:
    def __init__(self, prefix=""):
        self.prefix = prefix

    def load(self, name):
        try:
            with open(self.prefix + name) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def save(self, name, value):
        path = self.prefix + name
        with open(path + ".new", "w") as f:
            json.dump(value, f)
        os.rename(path + ".new", path)
