"""The one exception type for bad user input: the CLI prints its message on one line, exit 2."""


class BadInput(ValueError):
    """A value the user gave (game, flag, strategy, hand, count, file) that we cannot accept.

    The message names the bad value and what is accepted.
    """


class IllegalMove(BadInput):
    """A strategy (usually a user plugin) chose a move the rules do not allow."""
