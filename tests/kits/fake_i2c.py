# Fake I2C bus and driver checks, shared by CPython (tests/test_drivers.py) and the MicroPython unix port
# (run as a subprocess), so both interpreters execute exactly the same assertions.
# Plain asserts and no pytest: this file must import under MicroPython.

from array import array

G = 9.80665  # m/s^2 per g


class FakeI2C:
    """One device at `addr` with 256 byte registers.

    autoinc_mask: LIS3DH-style chips only auto-increment when the sub-address MSB is set; 0 means the
    chip always auto-increments (MPU-6050). Reads allocate nothing, so heap_lock checks stay valid.
    """

    def __init__(self, addr, autoinc_mask=0):
        self.addr = addr
        self.regs = bytearray(256)
        self.autoinc_mask = autoinc_mask
        self.writes = []  # (reg, value) in write order
        self.last_read = -1

    def _check(self, addr):
        if addr != self.addr:
            raise OSError(19)  # ENODEV, like machine.I2C on a missing device

    def readfrom_mem_into(self, addr, memaddr, buf):
        self._check(addr)
        step = 1
        reg = memaddr
        if self.autoinc_mask:
            step = 1 if memaddr & self.autoinc_mask else 0
            reg = memaddr & (0xFF ^ self.autoinc_mask)
        self.last_read = reg
        for i in range(len(buf)):
            buf[i] = self.regs[(reg + i * step) & 0xFF]

    def writeto_mem(self, addr, memaddr, buf):
        self._check(addr)
        for i in range(len(buf)):
            self.regs[memaddr + i] = buf[i]
            self.writes.append((memaddr + i, buf[i]))


def _s16(v):
    return v & 0xFFFF


def _expect_close(got, want_float, what):
    assert abs(got - want_float) <= 1, "%s: got %d, want %.1f" % (what, got, want_float)


def _heap_locked(fn):
    # On MicroPython prove fn() allocates nothing (it runs at 100 Hz); on CPython just call it.
    try:
        import micropython

        lock = micropython.heap_lock
    except (ImportError, AttributeError):
        fn()
        return
    lock()
    try:
        fn()
    finally:
        micropython.heap_unlock()


def lis3dh_bus(addr=0x18):
    bus = FakeI2C(addr, autoinc_mask=0x80)
    bus.regs[0x0F] = 0x33  # WHO_AM_I
    return bus


def check_lis3dh():
    from drivers.lis3dh import LIS3DH

    bus = lis3dh_bus()
    dev = LIS3DH(bus)
    assert dev.who_am_i() == 0x33
    dev.init()
    # Datasheet DocID17530: CTRL_REG1 (0x20) = ODR 0101 (100 Hz) | Zen Yen Xen = 0x57;
    # CTRL_REG4 (0x23) = BDU | FS=01 (+-4 g) | HR = 0x98. Nothing else is written.
    assert bus.regs[0x20] == 0x57, hex(bus.regs[0x20])
    assert bus.regs[0x23] == 0x98, hex(bus.regs[0x23])
    assert sorted(r for r, _ in bus.writes) == [0x20, 0x23], bus.writes
    # Left-justified 12-bit samples, 2 mg/digit at +-4 g HR: digits -> digits * 2 mg * g.
    cases = ((500, -500, 0), (2047, -2048, 1), (123, -7, 1000))
    buf = array("i", (0, 0, 0))
    for digits in cases:
        for i in range(3):
            v = _s16(digits[i] << 4)
            bus.regs[0x28 + 2 * i] = v & 0xFF  # OUT_X_L, little-endian
            bus.regs[0x29 + 2 * i] = v >> 8
        _heap_locked(lambda: dev.read_into(buf))
        assert bus.last_read == 0x28, bus.last_read
        for i in range(3):
            _expect_close(buf[i], digits[i] * 2 * G, "lis3dh axis %d" % i)
    # +1 g exactly: 500 digits -> 9807 mm/s^2 (9806.65 rounded).
    bus.regs[0x28], bus.regs[0x29] = 0x40, 0x1F  # 500 << 4 = 0x1F40
    dev.read_into(buf)
    assert buf[0] == 9807, buf[0]
    # A missing or wrong chip is reported, not silently used.
    bad = lis3dh_bus()
    bad.regs[0x0F] = 0x44
    try:
        LIS3DH(bad).init()
        raise AssertionError("wrong WHO_AM_I accepted")
    except OSError:
        pass
    # SA0 high address.
    alt = lis3dh_bus(0x19)
    LIS3DH(alt, 0x19).init()
    assert alt.regs[0x20] == 0x57


def mpu6050_bus(addr=0x68):
    bus = FakeI2C(addr)
    bus.regs[0x75] = 0x68  # WHO_AM_I
    bus.regs[0x6B] = 0x40  # PWR_MGMT_1 reset value: SLEEP
    return bus


def check_mpu6050():
    from drivers.mpu6050 import MPU6050

    bus = mpu6050_bus()
    dev = MPU6050(bus)
    assert dev.who_am_i() == 0x68
    dev.init()
    # Register map RM-MPU-6000A-00 rev 4.2: PWR_MGMT_1 (0x6B) = 0 (awake, 8 MHz), PWR_MGMT_2 (0x6C) = 0x07
    # (gyros standby), CONFIG (0x1A) DLPF_CFG = 3 (44 Hz), SMPLRT_DIV (0x19) = 9 (1 kHz / 10 = 100 Hz),
    # ACCEL_CONFIG (0x1C) AFS_SEL = 1 -> 0x08 (+-4 g).
    want = {0x6B: 0x00, 0x6C: 0x07, 0x1A: 0x03, 0x19: 0x09, 0x1C: 0x08}
    for reg in want:
        assert bus.regs[reg] == want[reg], (hex(reg), bus.regs[reg])
    assert bus.writes[0] == (0x6B, 0x00), "wake first: %r" % bus.writes
    assert sorted(r for r, _ in bus.writes) == sorted(want), bus.writes
    # 8192 LSB/g at +-4 g, big-endian from ACCEL_XOUT_H (0x3B).
    buf = array("i", (0, 0, 0))
    for raw in ((8192, -8192, 0), (32767, -32768, 1), (4096, -1, 12345)):
        for i in range(3):
            v = _s16(raw[i])
            bus.regs[0x3B + 2 * i] = v >> 8
            bus.regs[0x3C + 2 * i] = v & 0xFF
        _heap_locked(lambda: dev.read_into(buf))
        assert bus.last_read == 0x3B, bus.last_read
        for i in range(3):
            _expect_close(buf[i], raw[i] * G * 1000 / 8192, "mpu6050 axis %d" % i)
    bus.regs[0x3B], bus.regs[0x3C] = 0x20, 0x00  # 8192 = +1 g
    dev.read_into(buf)
    assert buf[0] == 9807, buf[0]
    bad = mpu6050_bus()
    bad.regs[0x75] = 0x70  # MPU-6500 answers 0x70: a different register map
    try:
        MPU6050(bad).init()
        raise AssertionError("wrong WHO_AM_I accepted")
    except OSError:
        pass


def run_all():
    check_lis3dh()
    check_mpu6050()
    print("drivers ok")


if __name__ == "__main__":
    run_all()
