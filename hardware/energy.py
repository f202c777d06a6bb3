"""The energy model: what a cup draws, from what its firmware does.

The counters are the cup's own (cup/clock.py's meter, the ``power`` message), recorded over a
scripted evening on the emulated cup by bench/energy.py into hardware/evening.json: the evening at the table,
then the cup left on the shelf. Each board file's currents ("power": "ma", each with its source) and the
parts' (hardware/parts.json: LEDs, sensor, divider, protection) turn them into the average current at the
cell, and that into hours of play and days on the shelf per 1,000 mAh. hardware/generate.py writes the figures
into hardware/power_budget.md; tests/test_hardware.py checks that the README's hardware table states them.
"""

GOAL_PLAY_H = 10      # two evenings of five hours on one charge (issue 43)
GOAL_SHELF_DAYS = 14  # a fortnight between two evenings without a charge


def phase_ma(spec, parts, c, n_pixels):
    """Average current at the cell (mA) over a phase whose counters are ``c``, by what draws it: a dict.

    The CPU works for ``wakes`` x the board's ``pass_us`` (the emulated cup's own working time is the PC's,
    not the chip's) and waits for the rest of its time awake; on a board with BLE the radio is connected while
    a host holds the cup and advertises while it is awake without one; it is off in deep sleep."""
    p = spec["power"]
    ma = {k: v[0] for k, v in p["ma"].items()}
    total = c["ms"]
    deep, light = c["deep_sleep"], c["light_sleep"]
    awake = max(0, total - deep - light)
    working = min(awake, c["wakes"] * p["pass_us"] / 1000)
    out = {
        "CPU working": working * ma["working"] / total,
        "CPU waiting": (awake - working) * ma["waiting"] / total,
        "light sleep": light * ma["light_sleep"] / total,
        "deep sleep": deep * ma["deep_sleep"] / total,
    }
    if spec.get("ble"):
        hosted = min(c["hosted"], awake)
        out["BLE connected"] = hosted * ma["connected"] / total
        out["BLE advertising"] = (awake - hosted) * ma["advertising"] / total
    leds = parts["led"]
    out["LEDs, their own draw (supply on)"] = c["leds_on"] * n_pixels * leds["ma_idle"] / total
    out["LEDs, lit channels"] = c["led_channel_s"] * 1000 * leds["ma_per_channel"] / total
    sensor = spec["sensor"]
    out["sensor"] = (awake * parts["sensor_ma"][sensor] + (deep + light) * parts["sensor_sleep_ma"][sensor]) \
        / total + (parts["breakout_ma"] if sensor != "switch" else 0.0)
    out["board (regulator, USB bridge)"] = ma["board"] + p.get("regulator_iq_ma", [0.0])[0]
    bat = parts["battery"]
    out["battery divider"] = bat["nominal_v"] / sum(parts["divider_ohm"]) * 1000
    out["charger and protection"] = bat["protection_ma"]
    return out


def asleep_counters():
    """The counters of a cup in deep sleep and nothing else: the shelf after its first minutes."""
    return {"ms": 1, "wakes": 0, "waiting": 0, "light_sleep": 0, "deep_sleep": 1, "hosted": 0, "leds_on": 0,
            "led_channel_s": 0}


def figures(spec, parts, evening, n_pixels):
    """Per board: the evening's and the shelf's currents by part, hours of play and days on the shelf per the
    battery's capacity (parts.json, 1,000 mAh), and whether each meets its goal."""
    bat = parts["battery"]
    usable = bat["capacity_mah"] * bat["usable"]
    play = phase_ma(spec, parts, evening["evening"], n_pixels)
    play_ma = sum(play.values())
    # The shelf: the cup awake for its first minutes (the recorded shelf counters up to its deep sleep), then
    # asleep until the charge is spent.
    shelf = evening["shelf"]
    awake_h = (shelf["ms"] - shelf["deep_sleep"]) / 3_600_000
    first = dict(shelf, ms=shelf["ms"] - shelf["deep_sleep"], deep_sleep=0)
    first_ma = sum(phase_ma(spec, parts, first, n_pixels).values()) if first["ms"] > 0 else 0.0
    asleep = phase_ma(spec, parts, asleep_counters(), n_pixels)
    asleep_ma = sum(asleep.values())
    shelf_h = awake_h + (usable - first_ma * awake_h) / asleep_ma
    hours, days = usable / play_ma, shelf_h / 24
    return {"play": play, "play_ma": play_ma, "asleep": asleep, "asleep_ma": asleep_ma, "first_ma": first_ma,
            "awake_h": awake_h, "hours": hours, "days": days,
            "goals": hours >= GOAL_PLAY_H and days >= GOAL_SHELF_DAYS}


def readme_row(name, f):
    """The README hardware table's row of one board, as generate.py states the figures."""
    return "| %s | %.1f h | %.0f days |" % (name, f["hours"], f["days"])
