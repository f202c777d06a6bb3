# Raspberry Pi Pico W / Pico 2 W boards: McuBoard plus the RP2 ADC. The RNG (os.urandom: pico_rand, fed by the
# ROSC or the RP2350's TRNG) needs no radio, so radio_on() stays the no-op inherited from McuBoard.

from machine import ADC, Pin

from boards.mcu import McuBoard

from micropython import const

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...

_VREF_MV = const(3300)  # ADC reference is the 3.3 V rail on the Pico boards


class Rp2Board(McuBoard):
    def _make_adc(self, pin):
        return ADC(Pin(pin))

    def _pin_mv(self):
        # read_u16() is scaled to 0..65535 whatever the ADC's native 12 bits.
        return self._adc.read_u16() * _VREF_MV // 65535


    def _sleep(self, pins):
        # DORMANT (machine.lightsleep() without a time: the crystal stopped), woken by an edge on the main
        # button or the LIS3DH's INT1; then a reset, so the cup comes back as from an ESP32's deep sleep, in
        # the turn /state.json kept. The rp2 port's machine.deepsleep() is the same lightsleep and a reset.
        import machine
        Pin(pins["button_main"], Pin.IN, Pin.PULL_UP).irq(_woken, Pin.IRQ_FALLING)
        if pins.get("accel_int") is not None:
            Pin(pins["accel_int"], Pin.IN).irq(_woken, Pin.IRQ_RISING)
        machine.lightsleep()
        machine.reset()


def _woken(pin):
    pass  # the edge itself wakes the chip: nothing to do


def make_board(spec):
    return Rp2Board(spec)
