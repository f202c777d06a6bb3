"""`schocken rank`: rank one round read as JSON from standard input."""

import json
import sys

from schocken.throws import ALL
from schocken.ranking import rank_round

from schocken_host.errors import CommandError
from schocken_host.i18n import json_error, tr
from schocken_host.input_checks import add_rule_arguments, make_rules
from schocken_host.commands.rules import dice_text


def parse_round(text, rules):
    """The JSON of `schocken rank` -> list of (dice, throws, hand). Raises CommandError naming the problem."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise CommandError("rank.not_json", error=json_error(e))
    except RecursionError:  # json recurses per bracket: "[[[[..." runs out of stack, not out of syntax
        raise CommandError("rank.nested")
    if not isinstance(data, dict) or not isinstance(data.get("throws"), list):
        raise CommandError("rank.no_throws")
    entries = []
    for i, item in enumerate(data["throws"]):
        if not isinstance(item, dict) or "dice" not in item:
            raise CommandError("rank.no_dice", i=i)
        unknown = set(item) - {"dice", "throws", "hand"}
        if unknown:
            raise CommandError("rank.unknown_field", i=i, fields=", ".join(sorted(unknown)))
        entries.append((item["dice"], item.get("throws", 1), item.get("hand", True)))
    if len(entries) < 2:
        raise CommandError("rank.one_throw", n=len(entries))
    return entries


def print_round(rules, entries, result, lang="de", out=sys.stdout):
    for pos in result.ranking:
        t = result.results[pos]
        n = t.throws
        throws = tr(lang, "rank.throws_1" if n == 1 else "rank.throws", n=n)
        how = tr(lang, "rank.hand" if t.hand else "rank.built")
        player = tr(lang, "rank.player", n=pos + 1)
        out.write("%d. %-10s %s  %-10s %s, %s\n" % (
            result.ranking.index(pos) + 1, player, dice_text(t), t.label, throws, how))
    best = tr(lang, "rank.player", n=result.best + 1)
    worst = tr(lang, "rank.player", n=result.worst + 1)
    if result.deckel == ALL:
        out.write(tr(lang, "rank.gets_all", who=worst) + "\n")
    else:
        out.write(tr(lang, "rank.gets", who=worst, n=result.deckel, whom=best) + "\n")


def add_arguments(p):
    add_rule_arguments(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args):
    rules = make_rules(args.rules, args.set)
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:  # decoded here: what the locale makes of stdin differs between hosts
        raise CommandError("rank.not_utf8", byte=data[e.start], offset=e.start)
    entries = parse_round(text, rules)
    result = rank_round(rules, entries)
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        print_round(rules, entries, result, args.lang)
    return 0

