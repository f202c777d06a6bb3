"""The command line's one registry (commands/__init__.py): verbs and jobs with their aliases in one kind of
table, and argparse speaking the user's language through its public hooks, not a patched argparse._."""

import argparse

import pytest

from schocken_host import cli
from schocken_host.commands import VERBS, Command, Commands, liga, turnier
from schocken_host.input_checks import argparse_words


def test_every_verb_and_job_is_found_by_its_name_and_its_aliases():
    assert cli.verb_names(cli.build_parser("en")) == VERBS.names()
    assert liga.JOBS["glueck"] is liga.JOBS["luck"] and liga.JOBS["kasse"].name == "ledger"
    assert turnier.JOBS["recount"] is turnier.JOBS["nachzaehlen"]
    assert liga.JOBS.names() == ["import", "merge", "rebuild", "luck", "evening", "season", "stake", "ledger"]


def test_a_name_taken_twice_is_refused():
    with pytest.raises(ValueError):
        Commands("job", "league.job_metavar", Command("a", "luck.job", print, aliases=("b",)),
                 Command("b", "luck.job", print))


def test_argparse_is_not_patched_and_still_speaks_german():
    before = argparse._
    cli.build_parser("de")
    assert argparse._ is before
    assert argparse_words("de", "argument --emulate: expected one argument") == \
        "Argument --emulate: braucht einen Wert"
    assert argparse_words("de", "argument BEFEHL: invalid choice: 'x' (choose from 'a', 'b')") == \
        "Argument BEFEHL: ungültige Wahl: 'x' (möglich: 'a', 'b')"
    assert argparse_words("de", "the following arguments are required: DIR, NAME") == \
        "diese Argumente fehlen: DIR, NAME"
    assert argparse_words("de", "something argparse says that we do not know") == \
        "something argparse says that we do not know"
    help_text = cli.build_parser("de").verb_parsers["liga"].format_help()
    assert help_text.startswith("Aufruf: schocken liga") and "\nOptionen:\n" in help_text
    cli.argparse_in("de")
