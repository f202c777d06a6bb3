"""What the tournament's tests and bench/turnier.py send a director that it must hold back."""

import json


def tampered(text, game_id):
    """A game's log with its first revealed die changed (the check must fail at that reveal), under
    ``game_id`` so that it is not the game already counted."""
    out, changed = [], False
    for line in text.splitlines():
        ev = json.loads(line)
        if ev.get("ev") == "start":
            ev["game_id"] = game_id
        if ev.get("ev") == "reveal" and not changed:
            ev["dice"][0] = 1 if ev["dice"][0] != 1 else 2
            changed = True
        out.append(json.dumps(ev))
    return "\n".join(out) + "\n"
