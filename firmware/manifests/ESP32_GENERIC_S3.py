# ESP32-S3-DevKitC-1 (ESP32_GENERIC_S3) with the cup frozen in (docs/build.md, "Firmware with the cup frozen
# in"), from a MicroPython checkout (C = this checkout):
#     make -C ports/esp32 BOARD=ESP32_GENERIC_S3 FROZEN_MANIFEST=$C/firmware/manifests/ESP32_GENERIC_S3.py
# The board has no manifest of its own: the port's (ports/esp32/boards/manifest.py) is its default, and at
# MicroPython v1.27.0, v1.28.0 and master (2026-08) it freezes no aioble. The cup's Bluetooth LE link
# (firmware/boards/ble.py) needs it, so it is required here (from micropython-lib, the build's
# lib/micropython-lib submodule).
include("$(PORT_DIR)/boards/manifest.py")
require("aioble")
include("../manifest.py")
