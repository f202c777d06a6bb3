"""`schocken deploy`: put the cup firmware on a board (or an emulated board) with one command
(provision/deploy.py does it; docs/build.md, "Flashing")."""

import os

from schocken.protocol import MAX_NAME

from schocken_host.errors import BAD_INPUT, FAILED, CommandError
from schocken_host.input_checks import brightness, check_port, seconds, time_scale
from schocken_host.pace import MAX_FACTOR
from schocken_host.provision.boards import board_names
from schocken_host.provision.deploy import SHAKE_SENSITIVITIES, deploy
from schocken_host.provision import DeployError


def add_arguments(p):
    p.add_argument("--port", help="serial port of the cup, or socket://HOST:PORT, rfc2217://HOST:PORT "
                                    "(default: the one USB board found)")
    p.add_argument("--board", choices=board_names(),
                   help="board (default: the /board.json on it, else detected)")
    p.add_argument("--name", help="player name the cup shows until a host seats it (max. 24)")
    p.add_argument("--cup-id", help="the cup's id (default: the one on it, else a new one)")
    p.add_argument("--new-secret", action="store_true", help="give the cup a new fair-play secret")
    p.add_argument("--link", choices=("serial", "ble"), default=None,
                   help="how the host reaches the cup: USB serial (default) or Bluetooth LE")
    p.add_argument("--brightness", type=brightness, default=None,
                   help="the LEDs' brightness as a share of full, e.g. 0.1 in a dark bar (default: the one "
                        "on the cup, else its cap of 0.21)")
    p.add_argument("--shake", choices=SHAKE_SENSITIVITIES, default=None,
                   help="how firm a shake must be to throw (docs/rules.md, 'The shake'; default: what the "
                        "cup has, else normal)")
    p.add_argument("--no-mip", action="store_true", help="do not install aioble (needs network)")
    p.add_argument("--no-start", action="store_true", help="leave the cup at the REPL afterwards")
    p.add_argument("--control", metavar="PTY",
                   help="emulated board only: its control channel (buttons, shakes)")
    p.add_argument("--timeout", type=seconds, default=5.0, help="seconds to wait for the REPL (default 5)")
    p.add_argument("--cup-slowness", type=time_scale, default=1, metavar="K",
                   help="the cup runs K times slower than a chip (1..%d; an emulated RP2040 about 26, "
                        "docs/build.md): deploy waits K times longer for the REPL and each answer"
                        % MAX_FACTOR)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--romfs", dest="romfs", action="store_const", const=None, default=None,
                       help="the firmware into the board's ROMFS partition where it has one (default)")
    where.add_argument("--no-romfs", "--files", dest="romfs", action="store_const", const=False,
                       help=".mpy files on the board's filesystem, even where it has a ROMFS partition")
    p.add_argument("--from", dest="source", metavar="DIR",
                   help="deploy the artefacts of `schocken build` in DIR (no firmware sources or mpy-cross "
                        "needed; their hashes are checked first)")


def check_arguments(args):
    """Bad arguments are refused before the cup is touched (exit status 2; the board's refusals exit 1)."""
    if args.port:
        check_port(args.port)
    if args.control:
        check_port(args.control, "--control")
    if args.cup_id is not None and not 1 <= len(args.cup_id) <= MAX_NAME:
        raise CommandError("deploy.cup_id_length", most=MAX_NAME, cup_id=args.cup_id)
    if args.name is not None and len(args.name) > MAX_NAME:
        raise CommandError("deploy.name_length", most=MAX_NAME, name=args.name)
    if args.source is not None and not os.path.isdir(args.source):
        raise CommandError("deploy.from_not_folder", path=args.source)


def run(args):
    check_arguments(args)
    try:
        deploy(port=args.port, board=args.board, name=args.name, cup_id=args.cup_id, mip=not args.no_mip,
               link=args.link, brightness=args.brightness, start=not args.no_start, control=args.control,
               new_secret=args.new_secret, timeout=args.timeout, lang=getattr(args, "lang", "de"),
               romfs=args.romfs, source=args.source, slowness=args.cup_slowness, shake=args.shake)
    except DeployError as e:  # the board's refusal: the job failed (status 1), said in one line by cli.main
        # A release folder that fails its hashes is bad input (a file), refused before the board is touched.
        bad_file = e.message.key.startswith("release.")
        raise CommandError.of(e, status=BAD_INPUT if bad_file else FAILED)
    return 0

