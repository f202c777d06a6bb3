"""Pin names shared by the generated documents: GPIO names as printed on the board, the Raspberry Pi Pico
header's 40 physical pins (hardware/parts.json "rp2_header") and the role texts of the board files' pins."""

import re

ROLE_TEXT = {
    "button_die1": "button 1 (die 1)", "button_die2": "button 2 (die 2)", "button_die3": "button 3 (die 3)",
    "button_main": "main button", "i2c_sda": "SDA", "i2c_scl": "SCL", "shake_switch": "vibration switch",
    "battery_sense": "battery sense", "led_data": "LED data", "led_power": "LED supply switch",
    "accel_int": "motion interrupt (INT1)",
}


def gpio_name(spec, pin):
    if spec["chip"].startswith("rp2"):
        return "GP%d" % pin
    return "GPIO%d" % pin


def pin_label(spec, pin, parts):
    name = gpio_name(spec, pin)
    if spec["chip"].startswith("rp2"):
        phys = parts["rp2_header"]["pins"].get(str(pin))
        if phys:
            name += " (pin %d)" % phys
    return name


def rp2_header(parts):
    """{physical pin 1..40: silkscreen name} of the Pico header."""
    h = parts["rp2_header"]
    names = {int(phys): "GP%s" % gpio for gpio, phys in h["pins"].items()}
    names.update({int(phys): name for phys, name in h["other"].items()})
    return names


def physical_pin(text):
    """The physical pin in a power_pins entry such as "VSYS (pin 39)"; None when it names none."""
    m = re.search(r"\(pin (\d+)\)", text)
    return int(m.group(1)) if m else None
