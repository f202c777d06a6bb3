"""The cup's state in flash: written at every step of a turn, atomically (a new file, then a rename), so a
reset or a brown-out mid turn comes back in the same state: the cup can neither re-roll nor lose its throw."""

import json
import os


class Store:
    def __init__(self, path):
        self.path = path
        self.tmp = path + ".new"

    def load(self):
        try:
            with open(self.path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None  # no state yet, or a file from a firmware that wrote something else

    def save(self, data):
        with open(self.tmp, "w") as f:
            json.dump(data, f)
        os.rename(self.tmp, self.path)  # replaces atomically on littlefs (the boards' default) and POSIX

    def clear(self):
        try:
            os.remove(self.path)
        except OSError:
            pass
