"""Vectorized Hit the Deck engine: N hands (or games) in lock-step as numpy arrays (RULES.md §3).

The loops run over steps (turns, cuts, flips, draws), never over hands; finished hands are inert
and the arrays are compacted to the unfinished ones now and then, so the long tail is cheap.
Parts:
  table.py   Table (players, rules, per-seat profiles) and the lookup tables (legal-play masks,
             false-slap tables)
  state.py   the batch state (its encodings are listed there) and the pile and hand operations
  hand.py    the phases of a hand: opening, turns, cuts, flips, slaps, false slaps, penalties
  keyed_chance.py  counter-based chance: each game's outcomes from its own key (paired comparisons)
  lazy_view.py  the lazy PlayView strategies see (its fields: views.py)
  record.py  record mode: HISTORY.md events and the legal set of every decision
  hands.py   one hand per game: the deal, Result and play (the entry points, re-exported here)
  games.py   whole games to htd.target_score (HTD-8)

Randomness: `deal_rng` deals (and draws the first dealer), `play_rng` is the strategies', and
`chance_rng` gives each hand one 64-bit key from which every chance outcome of that hand comes
(cut depths, burials, reshuffles, reaction times, forgetting, false slaps).
"""
from moonshot.simulator.hit_the_deck.engine.games import GameResult, play_games
from moonshot.simulator.hit_the_deck.engine.hands import Result, deal, play, shuffled_decks
from moonshot.simulator.hit_the_deck.engine.table import Table, legal_kinds, legal_table

__all__ = ["Table", "deal", "play", "Result", "play_games", "GameResult", "legal_kinds", "legal_table",
           "shuffled_decks"]
