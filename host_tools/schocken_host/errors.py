"""The one error a verb raises for what the user got wrong (or, with status 1, for a job that failed):
`cli.main` prints it as one line, `schocken: error: ...`, and exits with its status. Flag misuse, a missing or
broken file, a table that cannot be seated: a CommandError. The rules package raises RuleError for a rule set or
a throw it refuses; the command line treats both alike."""

BAD_INPUT = 2           # the exit status of every refusal
FAILED = 1              # the job failed: a game not finished, a board that does not answer, a failed self-test


class CommandError(Exception):
    def __init__(self, message, status=BAD_INPUT):
        super().__init__(message)
        self.status = status
