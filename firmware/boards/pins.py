# Board description loader and pin validator.
#
# Shared by the firmware (MicroPython, checks /board.json at boot) and the host/tests (CPython), so both
# apply the same rules. It must therefore import nothing hardware-specific: only json.
#
# Every chip fact lives ONCE in CHIPS below, as data; the checks only interpret those tables.

import json

LED_COUNT = 22  # 3 dice x 7 pips + 1 status LED
SENSORS = ("lis3dh", "mpu6050", "switch")
# I2C addresses each sensor can answer on (pin-strapped: LIS3DH SA0, MPU-6050 AD0).
SENSOR_ADDRS = {"lis3dh": (0x18, 0x19), "mpu6050": (0x68, 0x69)}

# Pin roles and what each needs from its pad.
#   out    : drives a line (LED data)
#   pullup : input needing the internal pull-up (buttons, shake switch to GND)
#   i2c    : open-drain bidirectional line (needs output + pull-up)
#   adc    : analog input usable while the radio is on
#   wake   : input that can wake the chip from deep sleep (the accelerometer's motion interrupt)
ROLES = (
    ("led_data", "out"),
    ("button_die1", "pullup"),
    ("button_die2", "pullup"),
    ("button_die3", "pullup"),
    ("button_main", "pullup"),
    ("i2c_sda", "i2c"),
    ("i2c_scl", "i2c"),
    ("shake_switch", "pullup"),
    ("battery_sense", "adc"),
    ("led_power", "out"),     # the LED supply switch (a MOSFET): high = the strip powered
    ("accel_int", "wake"),    # the LIS3DH's INT1: motion wakes the cup
)
# Roles that may be null (part not fitted). shake_switch is required when sensor == "switch".
OPTIONAL = ("shake_switch", "battery_sense", "led_power", "accel_int")
# Roles a board file may leave out (as null): parts added after the first cups were built.
LATER = ("led_power", "accel_int")


def _r(a, b):
    # Inclusive range as a tuple: the tables read like the datasheets.
    return tuple(range(a, b + 1))


# Per-chip pad facts. Sources: ESP32 datasheet v4 (sec. 2.2, strapping 2.4), ESP32-S3 datasheet v1.8
# (sec. 2.3, strapping 3), RP2040/RP2350 datasheets (GPIO function tables), Pico W / Pico 2 W datasheets.
CHIPS = {
    "esp32": {
        "arch": "xtensawin",
        "gpio": _r(0, 19) + (21, 22, 23, 25, 26, 27) + _r(32, 39),
        "flash": _r(6, 11),  # SPI flash on WROOM/WROVER modules
        "strapping": (0, 2, 5, 12, 15),  # boot mode / flash voltage / boot log
        "input_only": _r(34, 39),  # no output driver
        "no_pullup": _r(34, 39),  # no internal pull-up/down
        "adc_ok": _r(32, 39),  # ADC1
        "adc_radio": (0, 2, 4) + _r(12, 15) + (25, 26, 27),  # ADC2: unusable while Wi-Fi/BLE is on
        "wake": (0, 2, 4) + _r(12, 15) + (25, 26, 27) + _r(32, 39),  # RTC GPIOs: ext0/ext1 wake (sec. 4.1.3)
        "reserved": {
            1: "UART0 TX, the USB serial link",
            3: "UART0 RX, the USB serial link",
            16: "PSRAM on WROVER modules (DevKitC ships with either)",
            17: "PSRAM on WROVER modules (DevKitC ships with either)",
        },
        "i2c_pins": None,  # any output pin via the GPIO matrix
    },
    "esp32s3": {
        "arch": "xtensawin",
        "gpio": _r(0, 21) + _r(26, 48),
        "flash": _r(26, 32) + _r(33, 37),  # quad flash/PSRAM; 33-37 on octal-PSRAM modules (N8R8 etc.)
        "strapping": (0, 3, 45, 46),
        "input_only": (),
        "no_pullup": (),
        "adc_ok": _r(1, 10),  # ADC1
        "adc_radio": _r(11, 20),  # ADC2: unreliable while Wi-Fi is on
        "wake": _r(0, 21),  # RTC GPIOs: ext0/ext1 wake
        "reserved": {
            19: "USB D- (native USB REPL)",
            20: "USB D+ (native USB REPL)",
            43: "UART0 TX to the USB-UART bridge",
            44: "UART0 RX from the USB-UART bridge",
            38: "on-board RGB LED (DevKitC-1 v1.1)",
            48: "on-board RGB LED (DevKitC-1 v1.0)",
        },
        "i2c_pins": None,
    },
    "rp2040": {
        "arch": "armv6m",
        "gpio": _r(0, 29),
        "flash": (),  # QSPI flash has its own pads, not GPIOs
        "strapping": (),  # BOOTSEL is on the QSPI CS pad
        "input_only": (),
        "no_pullup": (),
        "adc_ok": (26, 27, 28),  # ADC0-2 (ADC3 = GP29 is taken on the W)
        "adc_radio": (),
        "wake": None,  # any GPIO wakes the chip from DORMANT (RP2040 datasheet 2.11.5.2)
        "reserved": {
            23: "CYW43 WL_ON on Pico W",
            24: "CYW43 SPI data/IRQ on Pico W",
            25: "CYW43 SPI CS on Pico W",
            29: "CYW43 SPI CLK and VSYS/3 sense on Pico W",
        },
        # Fixed function table: I2C block -> SDA pins, SCL pins.
        "i2c_pins": {
            0: ((0, 4, 8, 12, 16, 20, 24, 28), (1, 5, 9, 13, 17, 21, 25, 29)),
            1: ((2, 6, 10, 14, 18, 22, 26), (3, 7, 11, 15, 19, 23, 27)),
        },
    },
}
# RP2350A (Pico 2 W) has the same 30-GPIO pinout and I2C table as the RP2040; only the arch differs.
CHIPS["rp2350"] = dict(CHIPS["rp2040"])
CHIPS["rp2350"]["arch"] = "armv7emsp"


def load(path):
    """Read a board JSON file and return its dict."""
    with open(path) as f:
        return json.load(f)


def _is_int(v):
    # bool is an int subclass; a pin written as true/false is a typo, not GPIO 1/0.
    return type(v) is int


def validate(spec):
    """Return a list of problems (strings) with a board spec; empty means usable."""
    probs = []
    if type(spec) is not dict:
        return ["spec is not a JSON object"]
    chip_name = spec.get("chip")
    chip = CHIPS.get(chip_name)
    if chip is None:
        return ["chip %r unknown (known: %s)" % (chip_name, ", ".join(sorted(CHIPS)))]
    if spec.get("mpy_arch") != chip["arch"]:
        probs.append("mpy_arch %r should be %r for %s" % (spec.get("mpy_arch"), chip["arch"], chip_name))
    if spec.get("leds") != LED_COUNT:
        probs.append("leds is %r, the cup has %d" % (spec.get("leds"), LED_COUNT))
    sensor = spec.get("sensor")
    if sensor not in SENSORS:
        probs.append("sensor %r unknown (known: %s)" % (sensor, ", ".join(SENSORS)))
    elif sensor in SENSOR_ADDRS and spec.get("i2c_addr") not in SENSOR_ADDRS[sensor]:
        probs.append("i2c_addr %r is not a %s address %r" % (
            spec.get("i2c_addr"), sensor, SENSOR_ADDRS[sensor]))
    if type(spec.get("ble")) is not bool:
        probs.append("ble must be true or false")
    div = spec.get("battery_divider")
    if type(div) not in (int, float) or div < 1:
        probs.append("battery_divider must be a number >= 1 (Vbat / Vpin)")
    pins = spec.get("pins")
    if type(pins) is not dict:
        probs.append("pins missing")
        return probs
    for name in pins:
        if name not in [r[0] for r in ROLES]:
            probs.append("pins.%s: unknown role" % name)
    used = {}
    for name, kind in ROLES:
        if name not in pins:
            if name not in LATER:
                probs.append("pins.%s: missing" % name)
            continue
        pin = pins[name]
        if pin is None:
            if name not in OPTIONAL or (name == "shake_switch" and sensor == "switch"):
                probs.append("pins.%s: required, got null" % name)
            continue
        if not _is_int(pin):
            probs.append("pins.%s: %r is not a GPIO number" % (name, pin))
            continue
        if pin in used:
            probs.append("pins.%s: GPIO%d used twice (also %s)" % (name, pin, used[pin]))
        used[pin] = name
        probs.extend(_check_pin(chip_name, chip, name, kind, pin))
    probs.extend(_check_i2c(chip_name, chip, spec, pins))
    return probs


def _check_pin(chip_name, chip, name, kind, pin):
    where = "pins.%s: GPIO%d" % (name, pin)
    if pin not in chip["gpio"]:
        return ["%s does not exist on %s" % (where, chip_name)]
    probs = []
    if pin in chip["flash"]:
        probs.append("%s is a flash/PSRAM pin on %s" % (where, chip_name))
    if pin in chip["strapping"]:
        probs.append("%s is a strapping pin on %s (boot mode)" % (where, chip_name))
    if pin in chip["reserved"]:
        probs.append("%s is reserved on %s: %s" % (where, chip_name, chip["reserved"][pin]))
    if kind in ("out", "i2c") and pin in chip["input_only"]:
        probs.append("%s is input-only on %s, cannot drive %s" % (where, chip_name, name))
    if kind in ("pullup", "i2c") and pin in chip["no_pullup"]:
        probs.append("%s has no internal pull-up on %s" % (where, chip_name))
    if kind == "wake" and chip["wake"] is not None and pin not in chip["wake"]:
        probs.append("%s cannot wake %s from deep sleep; use one of %r" % (where, chip_name, chip["wake"]))
    if kind == "adc" and pin not in chip["adc_ok"]:
        if pin in chip["adc_radio"]:
            probs.append("%s is ADC2 on %s, unusable while the radio is on; use ADC1 %r" % (
                where, chip_name, chip["adc_ok"]))
        else:
            probs.append("%s has no usable ADC on %s; use one of %r" % (where, chip_name, chip["adc_ok"]))
    return probs


def _check_i2c(chip_name, chip, spec, pins):
    # Chips with a fixed function table (RP2) need SDA and SCL on the same I2C block, matching i2c_id.
    table = chip["i2c_pins"]
    sda, scl = pins.get("i2c_sda"), pins.get("i2c_scl")
    if table is None or not _is_int(sda) or not _is_int(scl):
        return []
    bus = spec.get("i2c_id")
    if bus not in table:
        return ["i2c_id %r: %s has I2C blocks %r" % (bus, chip_name, tuple(sorted(table)))]
    probs = []
    if sda not in table[bus][0]:
        probs.append("pins.i2c_sda: GPIO%d is not an SDA pin of I2C%d on %s" % (sda, bus, chip_name))
    if scl not in table[bus][1]:
        probs.append("pins.i2c_scl: GPIO%d is not an SCL pin of I2C%d on %s" % (scl, bus, chip_name))
    return probs


def check_file(path):
    """Load and validate one file: returns (spec or None, problems)."""
    try:
        spec = load(path)
    except (OSError, ValueError) as e:
        return None, ["%s: cannot load: %s" % (path, e)]
    return spec, validate(spec)


if __name__ == "__main__":
    import sys

    bad = 0
    for p in sys.argv[1:]:
        _, problems = check_file(p)
        for msg in problems:
            print("%s: %s" % (p, msg))
        bad += len(problems)
        if not problems:
            print("%s: ok" % p)
    sys.exit(1 if bad else 0)
