# InvenSense MPU-6050 accelerometer part, register-level driver (register map RM-MPU-6000A-00 rev 4.2).
#
# Only the accelerometer is used: the gyros are put in standby to save ~3.6 mA.
# The I2C object is injected; read_into() allocates nothing (100 Hz shake loop).

from micropython import const

from drivers.i2cdev import I2CDevice

# A constant object (an Ellipsis: no heap object). Without one MicroPython keeps the heap object after this
# module's table of names alive with the module (docs/firmware.md, Memory; tests/test_micropython.py).
_CONSTANT = ...

ADDR = const(0x68)  # AD0 low; 0x69 with AD0 high
ID = const(0x68)  # WHO_AM_I value (sec. 4.32): bits 6..1 of the address, AD0 not reflected

_SMPLRT_DIV = const(0x19)
_CONFIG = const(0x1A)
_ACCEL_CONFIG = const(0x1C)
_ACCEL_XOUT_H = const(0x3B)
_PWR_MGMT_1 = const(0x6B)
_PWR_MGMT_2 = const(0x6C)
_WHO_AM_I = const(0x75)

# PWR_MGMT_1: SLEEP = 0 (reset value 0x40 sleeps), CLKSEL = 0 internal 8 MHz (the gyro PLL needs the
# gyros running, and they are in standby).
PWR_MGMT_1_WAKE = const(0x00)
# PWR_MGMT_2: STBY_XG | STBY_YG | STBY_ZG.
PWR_MGMT_2_GYRO_STBY = const(0x07)
# CONFIG: DLPF_CFG = 3 -> accel bandwidth 44 Hz (below the 50 Hz Nyquist of 100 Hz sampling),
# and the gyro output rate becomes 1 kHz.
CONFIG_DLPF_44HZ = const(0x03)
# SMPLRT_DIV: sample rate = 1 kHz / (1 + 9) = 100 Hz.
SMPLRT_DIV_100HZ = const(0x09)
# ACCEL_CONFIG: AFS_SEL = 1 (bits 4..3) -> +-4 g, 8192 LSB/g.
ACCEL_CONFIG_4G = const(0x08)

# mm/s^2 = raw * 9806.65 / 8192 = raw * 1.19710; as integer (raw * 19613 + 8192) >> 14 (error 0.002 %).
# |raw| <= 32768, product <= 6.5e8 < 2**30: stays a small int on 32-bit ports.
_MMS2_MUL = const(19613)
_MMS2_SHIFT = const(14)
_MMS2_ROUND = const(8192)


class MPU6050(I2CDevice):
    WHO_AM_I_REG = _WHO_AM_I
    CHIP_ID = ID
    PART = "MPU-6050"

    def __init__(self, i2c, addr=ADDR):
        I2CDevice.__init__(self, i2c, addr)

    def init(self):
        """Check the chip ID, wake it, then set 100 Hz, DLPF 44 Hz, +-4 g, gyros in standby."""
        self._check_id()
        # Wake first: while SLEEP is set the other registers still take writes, but keep the
        # datasheet's power-up order.
        self._write(_PWR_MGMT_1, PWR_MGMT_1_WAKE)
        self._write(_PWR_MGMT_2, PWR_MGMT_2_GYRO_STBY)
        self._write(_CONFIG, CONFIG_DLPF_44HZ)
        self._write(_SMPLRT_DIV, SMPLRT_DIV_100HZ)
        self._write(_ACCEL_CONFIG, ACCEL_CONFIG_4G)

    def read_into(self, buf):
        """Fill buf (array('i', 3)) with ax, ay, az in mm/s^2."""
        raw = self._raw
        # Registers auto-increment: one burst reads X, Y, Z high/low bytes (big-endian).
        self.i2c.readfrom_mem_into(self.addr, _ACCEL_XOUT_H, raw)
        for i in range(3):
            v = (raw[2 * i] << 8) | raw[2 * i + 1]
            if v & 0x8000:
                v -= 0x10000
            buf[i] = (v * _MMS2_MUL + _MMS2_ROUND) >> _MMS2_SHIFT
