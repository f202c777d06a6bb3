# ESP32 and ESP32-S3 boards (esp32_devkitc, esp32_s3_devkitc): McuBoard plus the ESP32 ADC and BLE radio.

from machine import ADC, Pin

from boards.mcu import McuBoard

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...


class Esp32Board(McuBoard):
    def __init__(self, spec):
        self._ble = None
        McuBoard.__init__(self, spec)

    def _make_adc(self, pin):
        # 11 dB attenuation: about 0-3.1 V full scale, enough for a halved 4.2 V LiPo.
        return ADC(Pin(pin), atten=ADC.ATTN_11DB)

    def _pin_mv(self):
        # read_uv() applies the eFuse calibration; raw counts are off by up to ~100 mV.
        return self._adc.read_uv() // 1000

    def radio_on(self):
        # os.urandom only returns true random numbers while the RF subsystem runs (ESP-IDF esp_random).
        if self._ble is None and self.spec.get("ble", True):
            import bluetooth

            self._ble = bluetooth.BLE()
        if self._ble is not None:
            self._ble.active(True)


    def _sleep(self, pins):
        # ext0: the main button (active low, its RTC pull-up kept); ext1: the LIS3DH's INT1 (active high).
        # Both are RTC GPIOs (boards/pins.py checks "wake"). ESP-IDF's deep sleep: the RTC alone runs.
        import esp32
        import machine
        esp32.wake_on_ext0(pin=Pin(pins["button_main"], Pin.IN, Pin.PULL_UP), level=esp32.WAKEUP_ALL_LOW)
        if pins.get("accel_int") is not None:
            esp32.wake_on_ext1(pins=(Pin(pins["accel_int"], Pin.IN),), level=esp32.WAKEUP_ANY_HIGH)
        machine.deepsleep()


def make_board(spec):
    return Esp32Board(spec)
