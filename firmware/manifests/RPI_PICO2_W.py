# Raspberry Pi Pico 2 W with the cup frozen in (docs/build.md, "Firmware with the cup frozen in"):
#     make -C ports/rp2 BOARD=RPI_PICO2_W FROZEN_MANIFEST=<checkout>/firmware/manifests/RPI_PICO2_W.py
# FROZEN_MANIFEST replaces the board's own manifest, so it is included first: at MicroPython v1.27.0, v1.28.0
# and master (2026-08) ports/rp2/boards/RPI_PICO2_W/manifest.py is the port's manifest plus
# require("bundle-networking") and require("aioble"). aioble comes with it: no require here.
include("$(BOARD_DIR)/manifest.py")
include("../manifest.py")
