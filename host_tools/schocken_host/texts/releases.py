"""Texts of the firmware's ROMFS deploy and release artefacts: `schocken deploy --romfs/--files/--from`
(provision/romfs_deploy.py, provision/release.py) and `schocken build` (commands/build.py).
{key: (German, English)}."""

TEXTS = {
    # --- deploy: ROMFS or .mpy files (one line says which, and why); aioble already there
    "deploy.romfs_chosen": (
        "ROMFS: die Firmware kommt in die ROMFS-Partition des Boards ({size} B von {room} B; --files für "
        ".mpy-Dateien)",
        "ROMFS: the firmware goes into the board's ROMFS partition ({size} B of {room} B; --files for "
        ".mpy files)"),
    "deploy.files_chosen": (
        ".mpy-Dateien im Dateisystem (--files)",
        ".mpy files on the filesystem (--files)"),
    "deploy.no_romfs": (
        "kein ROMFS auf diesem MicroPython (`vfs.rom_ioctl` fehlt): stattdessen .mpy-Dateien im "
        "Dateisystem",
        "no ROMFS on this MicroPython (no `vfs.rom_ioctl`): .mpy files on the filesystem instead"),
    "deploy.no_romfs_partition": (
        "das Board hat keine ROMFS-Partition: stattdessen .mpy-Dateien im Dateisystem",
        "the board has no ROMFS partition: .mpy files on the filesystem instead"),
    "deploy.romfs_too_small": (
        "das ROMFS-Abbild ({size} B) passt nicht in die Partition ({room} B): stattdessen .mpy-Dateien im "
        "Dateisystem",
        "the ROMFS image ({size} B) does not fit the partition ({room} B): .mpy files on the filesystem "
        "instead"),
    "deploy.romfs_same": (
        "ROMFS-Partition enthält dieses Abbild schon ({size} B): unverändert",
        "the ROMFS partition holds this image already ({size} B): unchanged"),
    "deploy.removed_moved": (
        "  {n} Dateien der Firmware aus dem Dateisystem entfernt (jetzt im ROM; sie kämen vor /rom)",
        "  removed {n} firmware files from the filesystem (in the ROM now; they would come before /rom)"),
    "deploy.removed_frozen": (
        "  {n} Dateien der Firmware aus dem Dateisystem entfernt (sie ist ins Image eingefroren; die Dateien "
        "kämen davor)",
        "  removed {n} firmware files from the filesystem (it is frozen into the image; the files would come "
        "before it)"),
    "deploy.frozen_config_only": (
        "die Firmware ist in dieses MicroPython-Image eingefroren: nur main.py, board.json und cup.json "
        "kommen auf das Board (--files legt die Firmware dieses Checkouts darüber)",
        "the firmware is frozen into this MicroPython image: only main.py, board.json and cup.json go on "
        "the board (--files puts this checkout's firmware over it)"),
    "deploy.frozen_shadowed": (
        "--files: .mpy-Dateien im Dateisystem; sie kommen vor der ins Image eingefrorenen Firmware und "
        "ersetzen sie (ihr Bytecode liegt dann wieder im Heap)",
        "--files: .mpy files on the filesystem; they come before the firmware frozen into the image and "
        "replace it (their bytecode is in the heap again)"),
    "deploy.romfs_emptied": (
        "ROMFS-Partition geleert (die alte Firmware darin käme vor /lib)",
        "ROMFS partition emptied (the old firmware in it would come before /lib)"),
    "deploy.romfs_mpremote": (
        "dieses mpremote kann kein ROMFS schreiben: `pip install -U mpremote` (1.25 oder neuer) oder "
        "--files",
        "this mpremote cannot write a ROMFS: `pip install -U mpremote` (1.25 or newer) or --files"),
    "deploy.romfs_write_failed": (
        "ROMFS schreiben fehlgeschlagen ({error}): noch einmal, oder --files",
        "writing the ROMFS failed ({error}): try again, or --files"),
    "deploy.aioble_present": (
        "aioble ist schon auf dem Board ({where}): keine Installation über das Netz",
        "aioble is on the board already ({where}): no install over the network"),
    "deploy.release": (
        "Release {version} aus {path} (alle SHA-256 geprüft)",
        "release {version} from {path} (every SHA-256 checked)"),
    # --- release artefacts: refused before the board is touched
    "deploy.from_not_folder": (
        "--from {path}: kein Ordner (einer von `schocken build`)",
        "--from {path}: no folder (one made by `schocken build`)"),
    "release.no_manifest": (
        "{path} fehlt oder ist kaputt: ein Ordner von `schocken build`?",
        "{path} is missing or broken: a folder made by `schocken build`?"),
    "release.format": (
        "{path} hat Format {found}, dieses schocken liest Format 1: mit dieser Version neu bauen",
        "{path} has format {found}, this schocken reads format 1: build it again with this version"),
    "release.missing": (
        "{path} fehlt (im Manifest genannt): nichts auf das Board geschrieben",
        "{path} is missing (named in the manifest): nothing written to the board"),
    "release.tampered": (
        "{path} passt nicht zum Manifest (Größe oder SHA-256): nichts auf das Board geschrieben",
        "{path} does not match the manifest (size or SHA-256): nothing written to the board"),
    "release.no_arch": (
        "das Release hat keine Dateien für {arch} (Board {board}); es hat: {archs}",
        "the release has no files for {arch} (board {board}); it has: {archs}"),
    # --- schocken build
    "build.arch": (
        "{arch}: {n} Dateien, {size} B; ROMFS-Abbild {image} B",
        "{arch}: {n} files, {size} B; ROMFS image {image} B"),
    "build.done": (
        "Firmware {version} für {archs} in {path}",
        "firmware {version} for {archs} in {path}"),
    "build.out_not_folder": (
        "--out {path}: eine Datei, kein Ordner",
        "--out {path}: a file, no folder"),
    "build.failed": (
        "Bauen fehlgeschlagen: {error}",
        "build failed: {error}"),
}
