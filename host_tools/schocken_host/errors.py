"""The one error a verb raises for what the user got wrong (or, with status 1, for a job that failed):
`cli.main` prints it as one line, `schocken: Fehler: ...` in the user's language, and exits with its status.
Flag misuse, a missing or broken file, a table that cannot be seated: a CommandError. The rules package raises
RuleError for a rule set or a throw it refuses (its text stays English: the package is the firmware's too);
the command line treats both alike.

A CommandError is raised with a text key and its fields, ``CommandError("seating.too_many_bots", bots=5,
cups=4)``; ``str(e)`` is the English text, ``e.localized(lang)`` the user's (i18n.LocalizedError)."""

from schocken_host.i18n import LocalizedError

BAD_INPUT = 2           # the exit status of every refusal
FAILED = 1              # the job failed: a game not finished, a board that does not answer, a failed test


class CommandError(LocalizedError):
    def __init__(self, key, status=BAD_INPUT, **fields):
        super().__init__(key, **fields)
        self.status = status

    @classmethod
    def of(cls, error, status=BAD_INPUT):
        """``error`` (a LocalizedError of a lower layer: a board, a link, the log) as a verb's refusal, in the
        same words."""
        return cls(error.message.key, status=status, **error.message.fields)
