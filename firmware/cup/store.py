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
        except Exception:  # none yet, another firmware's, or broken (nested past the parser): the cup starts
            return None    # afresh rather than fail at every boot

    def save(self, data):
        """Writes ``data``: True, or False when the flash refused it (full, worn out, gone). Then no state is
        left there either, so a reset starts the cup afresh rather than from an older step, whose throws it
        could throw again."""
        try:
            with open(self.tmp, "w") as f:
                json.dump(data, f)
            os.rename(self.tmp, self.path)  # replaces atomically on littlefs (the boards' default) and POSIX
            return True
        except OSError:
            self.clear()
            return False

    def clear(self):
        for path in (self.tmp, self.path):
            try:
                os.remove(path)
            except OSError:
                pass


def restore(cup, data):
    """Back to the state of a snapshot (cup.core's ``Cup.snapshot``): True, or False, changing nothing, for a
    snapshot that does not replay under the rules. Here rather than in cup.core: only a cup with a state file
    runs it, once, at start."""
    from schocken.rules import from_dict
    from schocken.turn import Turn, apply_steps
    from cup.core import _fair, IDLE, TURN, DONE, READY, REVEALED
    try:  # everything read first, then set at once: a snapshot that fails half-way changes nothing
        table, rnd, turn_data = data["table"], data["round"], data["turn"]
        rules = from_dict(table["rules"])
        turn = None
        if turn_data["transcript"] is not None:
            turn = apply_steps(Turn(rules, rnd["limit"]), turn_data["transcript"])
        seed = _fair().unhex(turn_data["seed"]) if turn_data["seed"] else None
        nonces = {k: v for k, v in turn_data["nonces"]}
        if rnd["state"] not in (IDLE, TURN, DONE, READY, REVEALED) or (turn is None and rnd["state"] != IDLE):
            return False  # a state the cup never saves: past idle there is always a turn
        fields = (rules, table["name"], table["seat"], table["hosted"], rnd["state"], rnd["round"],
                  rnd["limit"], turn, rnd["nonce"], rnd["commit"], rnd["result"], table["fair"],
                  turn_data["awaiting"], seed, nonces)
    except Exception:  # RuleError, a missing key, a wrong type, ...: not a state this cup can go on from
        return False
    (cup.rules, cup.name, cup.seat, cup.hosted, cup.state, cup.round, cup.limit, cup.turn, cup.nonce,
     cup.commit, cup.result, cup.fair, cup.awaiting, cup.seed, cup.nonces) = fields
    cup.view.show(cup)
    return True
