"""The cup's state in flash: written at every step of a turn, atomically (a new file, then a rename), so a
reset or a brown-out mid turn comes back in the same state: the cup can neither re-roll nor lose its throw."""

import json
import os

from schocken import RuleError


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


def restore(cup, data):
    """Back to the state of a snapshot (cup.core's ``Cup.snapshot``): True, or False, changing nothing, for a
    snapshot that does not replay under the rules. Here rather than in cup.core: only a cup with a state file
    runs it, once, at start."""
    from schocken.rules import from_dict
    from schocken.turn import Turn, apply_steps
    from cup.core import _fair
    try:
        table, rnd, turn_data = data["table"], data["round"], data["turn"]
        rules = from_dict(table["rules"])
        turn = None
        if turn_data["transcript"] is not None:
            turn = apply_steps(Turn(rules, rnd["limit"]), turn_data["transcript"])
        cup.rules, cup.name, cup.seat, cup.hosted = rules, table["name"], table["seat"], table["hosted"]
        cup.state, cup.round, cup.limit, cup.turn = rnd["state"], rnd["round"], rnd["limit"], turn
        cup.nonce, cup.commit, cup.result = rnd["nonce"], rnd["commit"], rnd["result"]
        cup.fair, cup.awaiting = table["fair"], turn_data["awaiting"]
        cup.seed = _fair().unhex(turn_data["seed"]) if turn_data["seed"] else None
        cup.nonces = {k: v for k, v in turn_data["nonces"]}
    except (RuleError, KeyError, TypeError, ValueError):
        return False
    cup.view.show(cup)
    return True
