"""`schocken doctor`: the self-test of a cup (provision/doctor.py runs it)."""

import json

from schocken_host.errors import FAILED, CommandError
from schocken_host.input_checks import check_port, seconds, time_scale
from schocken_host.pace import MAX_FACTOR
from schocken_host.provision import DeployError
from schocken_host.provision.doctor import doctor


def add_arguments(p):
    p.add_argument("--port", help="serial port of the cup, or socket://HOST:PORT, rfc2217://HOST:PORT "
                                    "(default: the one USB board found)")
    p.add_argument("--timeout", type=seconds, default=15.0,
                   help="seconds to wait for each press or shake (default 15)")
    p.add_argument("--cup-slowness", type=time_scale, default=1, metavar="K",
                   help="the cup runs K times slower than a chip (1..%d; an emulated RP2040 about 26, "
                        "docs/build.md): doctor waits K times longer for each answer" % MAX_FACTOR)
    p.add_argument("--no-input", action="store_true",
                   help="skip the tests that need a person (buttons, shake)")
    p.add_argument("--yes", action="store_true", help="do not ask for the eye check of the LEDs")
    p.add_argument("--no-start", action="store_true", help="leave the cup at the REPL afterwards")
    p.add_argument("--calibrate", action="store_true",
                   help="set the shake threshold between three shakes of yours and your handling of the cup "
                        "(instead of the self-test; docs/rules.md, 'The shake')")
    p.add_argument("--json", action="store_true", help="end with the results as one JSON line")


def run(args):
    lang = getattr(args, "lang", "de")
    if args.port:
        check_port(args.port)  # a typo is bad input (exit status 2), not a cup that does not answer
    try:
        results, info = doctor(port=args.port, lang=lang, timeout=args.timeout,
                               interactive=False if args.yes else None, no_input=args.no_input,
                               start=not args.no_start, slowness=args.cup_slowness,
                               calibrate=args.calibrate)
    except DeployError as e:  # the board's refusal: the job failed (status 1), said in one line by cli.main
        raise CommandError.of(e, status=FAILED)
    if args.json:
        print(json.dumps({"board": info["board"], "fw": info["fw"],
                          "results": [{"test": n, "status": s, "detail": d} for n, s, d in results]}))
    return 1 if any(s == "fail" for _, s, _ in results) else 0
