"""`schocken rules`: the ranking table and the options of a rule set."""

import sys

from schocken.rules import OPTION_NAMES
from schocken.throws import evaluate, all_throws, ALL

from schocken_host.i18n import TEXTS, tr
from schocken_host.input_checks import add_rule_arguments, make_rules


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


def dice_text(throw):
    """Dice as the rule texts write them: a plain number in reading order (6-4-1), the rest rising (1-1-4)."""
    if throw.kind == "zahl":
        return "-".join(throw.label)
    if throw.kind == "general":
        return "-".join(str(d) for d in throw.dice)
    return "-".join(str(d) for d in reversed(throw.dice))


_CLASS_NAMES = {"general": "General", "strasse": "Straße", "zahl": "Zahl"}


def _deckel_text(rules, lang, first, last):
    if first.deckel == ALL:
        return tr(lang, "rules.all_half" if rules.schock_aus == "all" else "rules.all_middle")
    if first.deckel == last.deckel:
        return str(first.deckel)
    return "%s … %s" % (first.deckel, last.deckel)


def print_rules(rules, lang="de", out=sys.stdout):
    out.write(tr(lang, "rules.title", name=rules.name, seed=rules.seed) + "\n\n")
    rows = []
    for kind, first, last, _, count in classes(rules):
        label = first.label
        if count > 1:
            label = _CLASS_NAMES.get(kind) or "%s … %s" % (first.label, last.label)
        dice = dice_text(first) if count == 1 else "%s … %s" % (dice_text(first), dice_text(last))
        rows.append((label, dice, _deckel_text(rules, lang, first, last)))
    head = (tr(lang, "rules.col_throw"), tr(lang, "rules.col_dice"), tr(lang, "rules.col_deckel"))
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(3)]
    for row in [head] + rows:
        out.write("  ".join(row[i].ljust(widths[i]) for i in range(3)).rstrip() + "\n")
    out.write("\n%s:\n" % tr(lang, "rules.options"))
    changed = rules.changed()
    values = rules.options()
    settings = []
    for name in OPTION_NAMES:
        value = values[name]
        if isinstance(value, bool):
            value = "true" if value else "false"
        settings.append(("%s = %s" % (name, value), name))
    width = max(len(setting) for setting, _ in settings)
    for setting, name in settings:
        mark = " (%s)" % tr(lang, "rules.changed") if name in changed else ""
        out.write("  %s  %s%s\n" % (setting.ljust(width), option_text(name, lang), mark))


def option_text(name, lang):
    """What a rule option means, in a few words (its name where the host has none: a newer rules package)."""
    key = "rules.option_" + name
    return tr(lang, key) if key in TEXTS else name


def add_arguments(p):
    add_rule_arguments(p)


def run(args):
    rules = make_rules(args.rules, args.set)
    print_rules(rules, args.lang)
    return 0


