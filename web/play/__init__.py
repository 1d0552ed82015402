"""Play a hand: one module per game drives a hand one decision at a time for a person in one seat,
with the built-in strategies in the others (web/play/session.py runs it)."""

ADAPTERS = {"moon": "moonshot.web.play.moon:MoonHand", "shoot-the-moon": "moonshot.web.play.shoot_the_moon:StmHand",
            "hit-the-deck": "moonshot.web.play.hit_the_deck:HtdHand"}


def adapter(game: str):
    """The play adapter class of `game` (web/play/<game>.py)."""
    import importlib
    module, _, name = ADAPTERS[game].partition(":")
    return getattr(importlib.import_module(module), name)
