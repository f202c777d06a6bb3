"""Putting the cup on a board: the board data, building the firmware, the board over mpremote, deploy and
the self-test."""

from schocken_host.i18n import LocalizedError


class DeployError(LocalizedError):
    """Something the user must fix on the board or its cable; the message says what."""
