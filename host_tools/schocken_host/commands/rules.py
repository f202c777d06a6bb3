"""The verbs `schocken rules` (the ranking table of a rule set) and `schocken rank` (rank one round)."""

import json
import sys

from schocken import RuleError
from schocken.rules import Rules, OPTION_NAMES
from schocken.throws import evaluate, all_throws, ALL, KINDS
from schocken.ranking import rank_round

from schocken_host.i18n import tr


def parse_assignments(items):
    """``["jule=true", "max_throws=2"]`` -> dict, as given on the command line with ``--set``."""
    result = {}
    for item in items:
        if "=" not in item:
            raise RuleError("--set needs OPTION=VALUE, not %r" % item)
        key, value = item.split("=", 1)
        result[key.strip()] = value.strip()
    return result


def make_rules(preset, assignments):
    return Rules(preset, **parse_assignments(assignments or []))


def classes(rules):
    """Rows (kind, best dice, worst dice, deckel, count) from best to worst, derived by evaluating all
    56 throws from the hand; so the table shows what the engine does, not what someone typed."""
    ranked = sorted((evaluate(d, 1, True, rules) for d in all_throws()), key=lambda t: -t.key)
    rows = []
    for t in ranked:
        if rows and rows[-1][0] == t.kind:
            rows[-1][2] = t
            rows[-1][4] += 1
        else:
            rows.append([t.kind, t, t, t.deckel, 1])
    return rows


def _dice(throw):
    """Dice as the rule texts write them: a plain number in reading order (6-4-1), the rest rising (1-1-4)."""
    if throw.kind == "zahl":
        return "-".join(throw.label)
    if throw.kind == "general":
        return "-".join(str(d) for d in throw.dice)
    return "-".join(str(d) for d in reversed(throw.dice))


_CLASS_NAMES = {"general": "General", "strasse": "Straße", "zahl": "Zahl"}


def _deckel_text(rules, lang, first, last):
    if first.deckel == ALL:
        return tr(lang, "all_half" if rules.schock_aus == "all" else "all_middle")
    if first.deckel == last.deckel:
        return str(first.deckel)
    return "%s … %s" % (first.deckel, last.deckel)


def print_rules(rules, lang="de", out=sys.stdout):
    out.write(tr(lang, "rules_title", name=rules.name, seed=rules.seed) + "\n\n")
    rows = []
    for kind, first, last, _, count in classes(rules):
        label = first.label
        if count > 1:
            label = _CLASS_NAMES.get(kind) or "%s … %s" % (first.label, last.label)
        dice = _dice(first) if count == 1 else "%s … %s" % (_dice(first), _dice(last))
        rows.append((label, dice, _deckel_text(rules, lang, first, last)))
    head = (tr(lang, "col_throw"), tr(lang, "col_dice"), tr(lang, "col_deckel"))
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(3)]
    for row in [head] + rows:
        out.write("  ".join(row[i].ljust(widths[i]) for i in range(3)).rstrip() + "\n")
    out.write("\n%s:\n" % tr(lang, "options"))
    changed = rules.changed()
    values = rules.options()
    for name in OPTION_NAMES:
        mark = "  (%s)" % tr(lang, "changed") if name in changed else ""
        value = values[name]
        if isinstance(value, bool):
            value = "true" if value else "false"
        out.write("  %s = %s%s\n" % (name, value, mark))


def parse_round(text, rules):
    """The JSON of `schocken rank` -> list of (dice, throws, hand). Raises RuleError naming the problem."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise RuleError("input is not JSON: %s" % e)
    except RecursionError:  # json recurses per bracket: "[[[[..." runs out of stack, not out of syntax
        raise RuleError("input nested too deeply: a round is an object with a \"throws\" list")
    if not isinstance(data, dict) or not isinstance(data.get("throws"), list):
        raise RuleError('input needs an object with a "throws" list')
    entries = []
    for i, item in enumerate(data["throws"]):
        if not isinstance(item, dict) or "dice" not in item:
            raise RuleError('throw %d: needs an object with "dice"' % i)
        unknown = set(item) - {"dice", "throws", "hand"}
        if unknown:
            raise RuleError("throw %d: unknown field %s" % (i, ", ".join(sorted(unknown))))
        entries.append((item["dice"], item.get("throws", 1), item.get("hand", True)))
    if len(entries) < 2:
        raise RuleError("a round needs at least two throws, got %d" % len(entries))
    return entries


def print_round(rules, entries, result, lang="de", out=sys.stdout):
    for pos in result.ranking:
        t = result.results[pos]
        n = t.throws
        throws = tr(lang, "throws_n" if n == 1 else "throws_n_pl", n=n)
        how = tr(lang, "hand" if t.hand else "built")
        out.write("%d. %-10s %s  %-10s %s, %s\n" % (
            result.ranking.index(pos) + 1, tr(lang, "player", n=pos + 1), _dice(t), t.label, throws, how))
    best = tr(lang, "player", n=result.best + 1)
    worst = tr(lang, "player", n=result.worst + 1)
    if result.deckel == ALL:
        out.write(tr(lang, "gets_all", who=worst) + "\n")
    else:
        out.write(tr(lang, "gets", who=worst, n=result.deckel, whom=best) + "\n")


def cmd_rules(args):
    rules = make_rules(args.rules, args.set)
    print_rules(rules, args.lang)
    return 0


def cmd_rank(args):
    rules = make_rules(args.rules, args.set)
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:  # decoded here: what the locale makes of stdin differs between hosts
        raise RuleError("input is not UTF-8 text (byte 0x%02x at offset %d)" % (data[e.start], e.start))
    entries = parse_round(text, rules)
    result = rank_round(rules, entries)
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        print_round(rules, entries, result, args.lang)
    return 0
