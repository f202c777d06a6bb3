"""Rules engine against a peer: ``schocken.throws.evaluate`` beside papr/schocken-discord-bot's engine.

    git clone https://github.com/papr/schocken-discord-bot /tmp/papr
    .venv/bin/python bench/peer.py /tmp/papr              # or: --rounds 21 --rules standard

The peer's code never enters this repository: this script takes the path of a checkout and loads its
``src/schocken/wurf.py`` under another module name (papr's package is also called ``schocken``), in this
process, beside ours from ``firmware/lib``.

The work per throw is the same on both sides: classify the three dice and give the throw's order key.
papr: ``prioritaet(welcher_wurf(dice, aus_der_hand))`` (``welcher_wurf`` sorts the dice and finds the kind,
``prioritaet`` gives the order value); ours: ``evaluate(dice, throws, hand, rules)`` (checks the input,
sorts, classifies and returns a ``Throw`` with ``kind``, ``deckel``, ``key`` and, when read, ``label``).
Both get the same random throws (dice in random order, 1-3 throws, from the hand or not) as the same tuple
objects. Before measuring, the script checks that both engines order all 56 throws, from the hand and not,
the same way under our rule set closest to papr's (``wuerfel63``: Jule, General and Straße only from the
hand).

Each round times one batch of each engine in CPU time (``time.process_time``), alternating which goes
first; a batch is several passes over the throws, sized to about 0.1 s for papr. Printed: each engine's
evaluations/s and the ratio ours/papr per round, then best and median over the rounds.
"""

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The rules package, and MicroPython's const for CPython (host_tools/micropython.py) whatever the venv has.
sys.path[:0] = [str(REPO / "firmware" / "lib"), str(REPO / "host_tools")]

from schocken.rules import PRESETS, Rules  # noqa: E402
from schocken.throws import all_throws, evaluate  # noqa: E402

SEED = 20261130
POOL = 1000
BATCH_TIME = 0.1   # seconds of papr per batch, about


def load_papr(checkout):
    """papr's ``schocken.wurf`` as the module ``papr_wurf``; SystemExit with one line if it is not there."""
    path = Path(checkout) / "src" / "schocken" / "wurf.py"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if "def welcher_wurf" not in text or "def prioritaet" not in text:
        raise SystemExit("peer.py: %s is not a papr/schocken-discord-bot checkout (no src/schocken/wurf.py "
                         "with welcher_wurf and prioritaet)" % checkout)
    spec = importlib.util.spec_from_file_location("papr_wurf", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pool(seed, size):
    rng = random.Random(seed)
    entries = []
    for _ in range(size):
        throws = rng.randint(1, 3)
        hand = True if throws == 1 else rng.random() < 0.5
        entries.append(((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)), throws, hand))
    return entries


def same_order(papr, rules):
    """True if papr's priority and our key order the 56 throws alike, from the hand and not."""
    for hand in (True, False):
        ours = [evaluate(d, 1 if hand else 2, hand, rules).key for d in all_throws()]
        theirs = [-papr.prioritaet(papr.welcher_wurf(d, hand)) for d in all_throws()]
        for i in range(len(ours)):
            for j in range(len(ours)):
                if (ours[i] < ours[j]) != (theirs[i] < theirs[j]):
                    return False
    return True


def papr_batch(papr, entries, passes):
    welcher_wurf, prioritaet = papr.welcher_wurf, papr.prioritaet
    t0 = time.process_time()
    for _ in range(passes):
        for dice, _throws, hand in entries:
            prioritaet(welcher_wurf(dice, hand))
    return passes * len(entries) / (time.process_time() - t0)


def ours_batch(rules, entries, passes):
    t0 = time.process_time()
    for _ in range(passes):
        for dice, throws, hand in entries:
            evaluate(dice, throws, hand, rules)
    return passes * len(entries) / (time.process_time() - t0)


def passes_for(batch, seconds):
    """Passes over the pool that take about ``seconds``, from a one-pass trial."""
    t0 = time.process_time()
    batch(1)
    return max(1, round(seconds / max(time.process_time() - t0, 1e-6)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("papr", help="path of a papr/schocken-discord-bot checkout")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of one batch each (default 15)")
    parser.add_argument("--rules", default="wuerfel63", choices=sorted(PRESETS),
                        help="our rule set (default wuerfel63, the closest to papr's)")
    args = parser.parse_args(argv)
    papr = load_papr(args.papr)
    rules = Rules(args.rules)
    entries = pool(SEED, POOL)
    print("# python %s, %d random throws, our rule set %s" % (sys.version.split()[0], POOL, args.rules))
    print("# same order of the 56 throws (hand and not) as wuerfel63: %s"
          % ("yes" if same_order(papr, Rules("wuerfel63")) else "NO"))

    def theirs(n):
        return papr_batch(papr, entries, n)

    def ours(n):
        return ours_batch(rules, entries, n)
    theirs(1)
    ours(1)  # warm-up: imports, and our result cache where there is one
    papr_passes = passes_for(theirs, BATCH_TIME)
    our_passes = passes_for(ours, BATCH_TIME)
    print("# passes per batch: papr %d, ours %d" % (papr_passes, our_passes))
    rates = []
    for r in range(args.rounds):
        gc.collect()
        if r % 2:
            o, p = ours(our_passes), theirs(papr_passes)
        else:
            p, o = theirs(papr_passes), ours(our_passes)
        rates.append((p, o))
        print("round %2d: papr %9.0f/s  ours %10.0f/s  ratio %5.2f" % (r + 1, p, o, o / p))
    ratios = [o / p for p, o in rates]
    print("papr evaluations/s: best %.0f, median %.0f" % (max(p for p, _ in rates),
                                                         statistics.median(p for p, _ in rates)))
    print("ours evaluations/s: best %.0f, median %.0f" % (max(o for _, o in rates),
                                                         statistics.median(o for _, o in rates)))
    print("ratio ours/papr: best %.2f, median %.2f, worst %.2f"
          % (max(ratios), statistics.median(ratios), min(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
