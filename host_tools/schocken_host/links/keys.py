"""The host's copy of every cup's secret (docs/protocol.md "Authentication"): cups.json in the user's data
folder, written by `schocken deploy`, and the keys of emulated cups registered in this process."""

import json
import os
from pathlib import Path


def data_dir():
    if os.environ.get("SCHOCKEN_DATA_DIR"):
        return Path(os.environ["SCHOCKEN_DATA_DIR"])
    import platformdirs
    return Path(platformdirs.user_data_dir("schocken"))


def cups_file():
    return data_dir() / "cups.json"


def load_cups():
    try:
        return json.loads(cups_file().read_text())
    except (OSError, ValueError):
        return {}


def save_cup(cup_id, entry):
    cups = load_cups()
    cups[cup_id] = entry
    path = cups_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)   # secrets: readable by the user only
    with os.fdopen(fd, "w") as f:
        json.dump(cups, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


# cup id -> [secret hex, ...] registered at run time (emulated cups; tables side by side in one process may
# reuse a cup id, so every registered secret of an id is tried)
REGISTERED_SECRETS: "dict[str, list[str]]" = {}


def deployed_keys():
    """cup id -> secret hex of every cup this host deployed (deploy keeps them in cups.json)."""
    out = {}
    for cup_id, entry in load_cups().items():
        if isinstance(entry, dict) and isinstance(entry.get("secret"), str):
            out[cup_id] = entry["secret"]
    return out


def keystore():
    """The default keystore, cup id -> secret hex: deployed cups, then the cups registered in this process
    (the newest registration wins here; ``hello`` tries all of them)."""
    keys = deployed_keys()
    for cup_id, found in REGISTERED_SECRETS.items():
        keys[cup_id] = found[-1]
    return keys


def register_key(cup_id, secret):
    REGISTERED_SECRETS.setdefault(cup_id, []).append(secret)


def unregister_key(cup_id, secret):
    found = REGISTERED_SECRETS.get(cup_id, [])
    if secret in found:
        found.remove(secret)
    if not found:
        REGISTERED_SECRETS.pop(cup_id, None)

