# Board implementation shared by the ESP32 and RP2 ports (docs/board-interface.md).
#
# Both ports offer the same machine.Pin / machine.I2C / neopixel API; only the ADC and the radio differ,
# so esp32.py and rp2.py subclass McuBoard and override _make_adc(), _pin_mv() and radio_on().
# All pin numbers come from spec["pins"] (hardware/boards/<name>.json, deployed as /board.json).

import os
import time

from machine import I2C, Pin, freq
from neopixel import NeoPixel

from boards import common
from cup.clock import frame

from micropython import const

BUTTON_ROLES = ("button_die1", "button_die2", "button_die3", "button_main")  # bit 0..3
_I2C_FREQ = const(400000)
# After the LED supply switch closes, the strip's bulk capacitor charges and the WS2812B's driver starts
# before
# its first data bit: 1 ms, far above either (about 0.3 ms for 1000 uF through the MOSFET's ~0.1 ohm and a
# 1 A limited cell).
_LED_POWER_UP_US = const(1000)
# Motion that wakes a cup on the shelf: a hand picking it up moves it by far more than 0.2 g; a truck passing
# the bar does not (the LIS3DH's high-pass filter takes gravity out, drivers/lis3dh.py).
_WAKE_MG = const(200)


class McuBoard:
    asleep = False  # the emulated board's (boards/emulated.py): a board's deep sleep never returns

    def __init__(self, spec):
        self.spec = spec
        self.name = spec.get("name", "unknown")
        pins = spec["pins"]
        n = spec["leds"]
        # The CPU's clock where the board file lowers it (ESP32: 80 MHz, the least BLE runs at): the
        # cup's loop needs little of it (docs/benchmarks.md, "Energy").
        mhz = spec.get("cpu_mhz")
        if mhz:
            freq(mhz * 1000000)

        self._np = NeoPixel(Pin(pins["led_data"], Pin.OUT), n)
        # The LED supply switch (a P-MOSFET in the strip's supply, its gate pulled by a BSS138 on this pin):
        # on only while a pixel is lit, so 22 dark pixels draw nothing (about 1 mA each otherwise). Without
        # the pin (an older build) the strip is always powered.
        supply = pins.get("led_power")
        self._led_power = None if supply is None else Pin(supply, Pin.OUT)
        if supply is not None:
            self._led_power.value(0)  # its gate's pull-down held it off until now
        self.led_supply = 1 if supply is None else 0
        self.power = None  # the app's power meter (cup/clock.py): told what each frame lights
        brightness = spec.get("brightness", common.DEFAULT_BRIGHTNESS)
        self.pixels = common.make_pixels(n, self._write_leds, brightness)

        # Active-low buttons to GND with the internal pull-up: XOR with 1 turns "pressed" into 1.
        self._invert = 1 if spec.get("buttons_active_low", True) else 0
        pull = Pin.PULL_UP if spec.get("buttons_pull", "up") == "up" else None
        # Polled every 10 ms by the app (cup/buttons.py debounces): no interrupt, nothing would wait on one.
        self._buttons = [Pin(pins[role], Pin.IN, pull) for role in BUTTON_ROLES]

        self.sensor_kind = common.sensor_kind(spec)
        self._switch = self._accel = None
        if self.sensor_kind == "accel":
            i2c = I2C(spec.get("i2c_id", 0), scl=Pin(pins["i2c_scl"]), sda=Pin(pins["i2c_sda"]),
                      freq=spec.get("i2c_freq", _I2C_FREQ))
            # Bind the driver's method directly: one call level less in the 100 Hz loop.
            self._accel = _make_accel(spec, i2c)
            self.read_accel = self._accel.read_into
        else:
            self._switch = Pin(pins["shake_switch"], Pin.IN, pull)

        bat = pins.get("battery_sense")
        self._adc = None if bat is None else self._make_adc(bat)

    def _write_leds(self, buf):
        switch = self._led_power
        level = frame(self.power, buf, switch is not None)
        if switch is not None and level and not self.led_supply:
            switch.value(1)
            time.sleep_us(_LED_POWER_UP_US)
            self.led_supply = 1
        # Point the NeoPixel object at the GRB buffer instead of copying it; write() sends self.buf. A dark
        # frame is written too: the data line rests low, so no current flows into an unpowered strip's DIN.
        self._np.buf = buf
        self._np.write()
        if switch is not None and not level:
            switch.value(0)
            self.led_supply = 0

    def read_buttons(self):
        m = 0
        b, inv = self._buttons, self._invert
        for i in range(4):
            if b[i].value() ^ inv:
                m |= 1 << i
        return m

    def read_accel(self, buf):
        raise OSError("board has no accelerometer (sensor_kind %s)" % self.sensor_kind)

    def read_switch(self):
        # Vibration switch to GND with pull-up, like the buttons: 1 = contact closed.
        return self._switch.value() ^ self._invert

    def urandom(self, n):
        return os.urandom(n)

    def radio_on(self):
        pass

    def battery_mv(self):
        if self._adc is None:
            return None
        return _battery_mv(self._pin_mv(), self.spec)

    def link(self):
        return common.stdio_link()

    def deep_sleep(self):
        """Off the table (cup/app.py): the LED supply off, the LIS3DH left to watch for motion on INT1, the
        chip powered down until INT1 or the main button wakes it (``_sleep``, per port). It boots again
        (main.py), in the turn its flash kept (/state.json), as after any reset."""
        if self._led_power is not None:
            self._led_power.value(0)
        if self._accel is not None and hasattr(self._accel, "wake_on_motion"):
            self._accel.wake_on_motion(_WAKE_MG)
        self._sleep(self.spec["pins"])

    # Port-specific hooks.
    def _make_adc(self, pin):
        raise NotImplementedError

    def _pin_mv(self):
        raise NotImplementedError

    def _sleep(self, pins):
        raise NotImplementedError


def _make_accel(spec, i2c):
    """Driver object for spec['sensor'] on an I2C bus, initialised; None for a switch board."""
    name = spec.get("sensor")
    if name == "lis3dh":
        from drivers.lis3dh import LIS3DH as cls
    elif name == "mpu6050":
        from drivers.mpu6050 import MPU6050 as cls
    else:
        return None
    addr = spec.get("i2c_addr")
    dev = cls(i2c) if addr is None else cls(i2c, addr)
    dev.init()
    return dev


def _battery_mv(pin_mv, spec):
    """Battery voltage from the ADC pin voltage and the divider ratio, as int mV."""
    # Ratio kept in thousandths so the result is an int; battery reads are rare, floats are fine here.
    return pin_mv * int(spec.get("battery_divider", 1) * 1000) // 1000
