"""Putting the cup on a board: the board data, building the firmware, the board over mpremote, deploy and
the self-test."""


class DeployError(Exception):
    """Something the user must fix on the board or its cable; the message says what."""
