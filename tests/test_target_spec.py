"""SCHOCKEN_TARGET, the target lane's one setting (issue 34), parsed in one place
(testbed.target): every kind, and a malformed value refused in one line that names it. The
lane's tests on the target are tests/test_target.py."""

import pytest

from testbed import target as target_lane

def test_each_kind_of_target_is_parsed(tmp_path):
    elf, uf2 = tmp_path / "mp.elf", tmp_path / "RPI_PICO_W.uf2"
    elf.write_bytes(b"\x7fELF")
    uf2.write_bytes(b"UF2\n")
    assert target_lane.parse("serial:/dev/ttyACM0") == target_lane.Target("serial", "/dev/ttyACM0")
    assert target_lane.parse("serial:socket://localhost:4000") == target_lane.Target("serial", "socket://localhost:4000")
    assert target_lane.parse("qemu:%s" % elf) == target_lane.Target("qemu", str(elf))
    assert target_lane.parse("rp2040:%s" % uf2) == target_lane.Target("rp2040", str(uf2))
    assert str(target_lane.parse(" qemu:%s " % elf)) == "qemu:%s" % elf


@pytest.mark.parametrize("value, says", [
    ("/dev/ttyACM0", "expected one of serial:PORT, rp2040:IMAGE.uf2, qemu:IMAGE.elf"),
    ("serial:", "expected one of"),
    ("esp32:/dev/ttyUSB0", "expected one of"),
    ("qemu:firmware.bin", "a qemu target is a .elf image (qemu:IMAGE.elf)"),
    ("rp2040:firmware.elf", "a rp2040 target is a .uf2 image"),
    ("qemu:/nowhere/firmware.elf", "no image at /nowhere/firmware.elf"),
])
def test_a_malformed_target_is_refused_in_one_line_that_names_it(value, says):
    with pytest.raises(target_lane.TargetError) as e:
        target_lane.parse(value)
    text = str(e.value)
    assert says in text and "SCHOCKEN_TARGET=%r" % value in text and "\n" not in text


def test_no_target_is_none():
    assert target_lane.from_env({}) is None
    assert target_lane.from_env({"SCHOCKEN_TARGET": "  "}) is None
    assert target_lane.from_env({"SCHOCKEN_TARGET": "serial:/dev/ttyACM1"}).where == "/dev/ttyACM1"


