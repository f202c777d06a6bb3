# Runs at power-up on a board: /board.json + /cup.json -> board module -> cup app (docs/firmware.md,
# "Booting"). On a missing or wrong file it prints why, shows the error on the LEDs if it can and returns to
# the REPL. Nothing here catches KeyboardInterrupt: Ctrl-C (mpremote) always reaches the REPL.
from boot_select import boot

boot("/")
