"""Play a hand: each game's adapter (its page parts' ADAPTER, a web.play.common.Hand) drives a hand
one decision at a time for a person in one seat, with the built-in strategies in the others
(web/play/session.py runs it)."""


def adapter(game: str):
    """The play adapter class of `game`, from its registry entry's page parts."""
    from moonshot.simulator.games import get
    return get(game).page.ADAPTER
