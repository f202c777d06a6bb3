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


def make_board(spec):
    return Rp2Board(spec)
