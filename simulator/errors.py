"""The one exception type for bad user input: the CLI prints its message on one line, exit 2."""


class BadInput(ValueError):
    """A value the user gave (game, flag, strategy, hand, count, file) that we cannot accept.

    The message names the bad value and what is accepted.
    """


class IllegalMove(BadInput):
    """A strategy (usually a user plugin) chose a move the rules do not allow."""


def short(value, n: int = 60) -> str:
    """`value` as a message quotes it ({value!r}), cut to about `n` characters: a file or a request
    may carry megabytes, and a message echoes only enough to find the value."""
    if isinstance(value, str):
        return repr(value[:n]) + (f"... ({len(value):,} characters)" if len(value) > n else "")
    text = repr(value)
    return text[:n] + ("..." if len(text) > n else "")


def bad_record(game: str, path: str, line: int, why) -> BadInput:
    """A hand-history record that is malformed or breaks the rules, named by file and line."""
    why = " ".join(str(why).split())                      # one line
    why = why if len(why) <= 300 else why[:297] + "..."   # a record's values may be megabytes
    return BadInput(f"{path}:{line}: bad {game} hand history ({why}); accepted: JSON lines as in HISTORY.md "
                    "that follow RULES.md")


def checked_replay(game: str, replay, record: dict, path: str, line: int) -> str:
    """replay(record), with any failure turned into one BadInput line naming path:line."""
    try:
        return replay(record)
    except BadInput as exc:                               # IllegalMove included
        raise bad_record(game, path, line, exc) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise bad_record(game, path, line, f"{type(exc).__name__}: {exc}") from None
