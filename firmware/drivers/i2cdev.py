# What every register-level I2C sensor driver here shares: the injected bus, a preallocated one-byte buffer
# for register writes and reads, and the chip-ID check. Each device subclass names its WHO_AM_I register,
# its expected ID and its part name, and adds its own init() and read_into().


class I2CDevice:
    WHO_AM_I_REG = 0
    CHIP_ID = 0
    PART = "?"

    def __init__(self, i2c, addr):
        self.i2c = i2c
        self.addr = addr
        self._raw = bytearray(6)  # one burst of three 16-bit axes, reused by read_into()
        self._one = bytearray(1)

    def _write(self, reg, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.addr, reg, self._one)

    def who_am_i(self):
        self.i2c.readfrom_mem_into(self.addr, self.WHO_AM_I_REG, self._one)
        return self._one[0]

    def _check_id(self):
        if self.who_am_i() != self.CHIP_ID:
            raise OSError("%s not found at 0x%02x" % (self.PART, self.addr))
