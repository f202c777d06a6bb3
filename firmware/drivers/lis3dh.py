# ST LIS3DH 3-axis accelerometer, register-level driver (datasheet DocID17530 rev 2).
#
# The I2C object is injected (machine.I2C on a board, a fake in tests), so this module imports no hardware.
# read_into() allocates nothing: it runs at 100 Hz in the shake loop.

from micropython import const

from drivers.i2cdev import I2CDevice

ADDR = const(0x18)  # SA0 low; 0x19 with SA0 high
ID = const(0x33)  # WHO_AM_I value, datasheet table 17

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...

_WHO_AM_I = const(0x0F)
_CTRL_REG1 = const(0x20)
_CTRL_REG4 = const(0x23)
_CTRL_REG2 = const(0x21)
_CTRL_REG3 = const(0x22)
_CTRL_REG5 = const(0x24)
_REFERENCE = const(0x26)
_OUT_X_L = const(0x28)
_FIFO_CTRL = const(0x2E)
_INT1_CFG = const(0x30)
_INT1_SRC = const(0x31)
_INT1_THS = const(0x32)
_INT1_DURATION = const(0x33)
_AUTO_INC = const(0x80)  # I2C sub-address MSB: auto-increment for multi-byte reads (sec. 6.1.1)

# CTRL_REG1 = ODR3..0 | LPen | Zen | Yen | Xen. ODR = 0101 -> 100 Hz, LPen = 0 (normal/HR), XYZ on.
CTRL_REG1_100HZ = const(0x57)
# CTRL_REG4 = BDU | BLE | FS1 FS0 | HR | ST1 ST0 | SIM. BDU = 1 (no torn high/low bytes),
# FS = 01 -> +-4 g, HR = 1 -> 12-bit high-resolution output.
CTRL_REG4_4G_HR = const(0x98)

# Motion wake (the cup on the shelf, the MCU in deep sleep), datasheet sec. 8 and app note AN3308 sec. 6.3:
# CTRL_REG1 = ODR 0010 (10 Hz) | LPen | XYZ: low-power mode, about 3 uA (table 12).
CTRL_REG1_10HZ_LP = const(0x2F)
# CTRL_REG2: HP_IA1 = 1: interrupt 1 sees the accelerations through the high-pass filter (normal mode,
# HPM 00),
# so gravity, whatever way up the cup stands, is no motion.
CTRL_REG2_HP_IA1 = const(0x01)
CTRL_REG3_I1_IA1 = const(0x40)  # interrupt 1's event drives INT1 (push-pull, active high: CTRL_REG6 0)
CTRL_REG4_4G_LP = const(0x90)   # BDU | +-4 g, HR off (low-power mode needs it off)
CTRL_REG5_LIR_INT1 = const(0x08)  # the event is latched until INT1_SRC is read: a short jolt still wakes
FIFO_BYPASS = const(0x00)
INT1_CFG_ANY_HIGH = const(0x2A)  # OR of X, Y, Z above the threshold (XHIE | YHIE | ZHIE)
_MG_PER_THS = const(32)         # INT1_THS: 1 LSb = 32 mg at +-4 g (sec. 8.22)

# Sensitivity at +-4 g in HR mode: 2 mg/digit on the 12-bit value (table 4).
# mm/s^2 = digits * 2 mg * 9.80665 = digits * 19.6133 -> integer (digits * 196133 + 5000) // 10000.
# |digits| <= 2048, so the product (< 4.1e8) stays a small int on 32-bit ports (< 2**30, no bignum).
_MMS2_PER_DIGIT_X10000 = const(196133)


class LIS3DH(I2CDevice):
    WHO_AM_I_REG = _WHO_AM_I
    CHIP_ID = ID
    PART = "LIS3DH"

    def __init__(self, i2c, addr=ADDR):
        I2CDevice.__init__(self, i2c, addr)

    def init(self):
        """Check the chip ID, then set 100 Hz, +-4 g, high resolution, block data update."""
        self._check_id()
        # FS/BDU first so the first sample after ODR starts is already in the right scale.
        self._write(_CTRL_REG4, CTRL_REG4_4G_HR)
        self._write(_CTRL_REG1, CTRL_REG1_100HZ)

    def read_into(self, buf):
        """Fill buf (array('i', 3)) with ax, ay, az in mm/s^2."""
        raw = self._raw
        self.i2c.readfrom_mem_into(self.addr, _OUT_X_L | _AUTO_INC, raw)
        for i in range(3):
            # Little-endian, left-justified 16-bit two's complement; 12 significant bits in HR mode.
            v = raw[2 * i] | (raw[2 * i + 1] << 8)
            if v & 0x8000:
                v -= 0x10000
            buf[i] = ((v >> 4) * _MMS2_PER_DIGIT_X10000 + 5000) // 10000

    def wake_on_motion(self, mg):
        """The sensor alone on the shelf: low power at 10 Hz, INT1 high (latched) once any axis moves by more
        than ``mg`` milli-g through the high-pass filter, for one sample. The MCU sleeps until then."""
        self._write(_CTRL_REG1, CTRL_REG1_10HZ_LP)
        self._write(_CTRL_REG2, CTRL_REG2_HP_IA1)
        self._write(_CTRL_REG3, CTRL_REG3_I1_IA1)
        self._write(_CTRL_REG4, CTRL_REG4_4G_LP)
        self._write(_CTRL_REG5, CTRL_REG5_LIR_INT1)
        self._write(_FIFO_CTRL, FIFO_BYPASS)
        ths = mg // _MG_PER_THS
        self._write(_INT1_THS, 1 if ths < 1 else 127 if ths > 127 else ths)
        self._write(_INT1_DURATION, 0)
        self.i2c.readfrom_mem_into(self.addr, _REFERENCE, self._one)  # sets the filter to the cup at rest
        self._write(_INT1_CFG, INT1_CFG_ANY_HIGH)
        self.i2c.readfrom_mem_into(self.addr, _INT1_SRC, self._one)  # clears an event latched before
