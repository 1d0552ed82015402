"""Vectorized Moon engine: N hands (or games) in lock-step as numpy arrays (RULES.md §2).

The loops run over phases, calls, tricks and seats, never over hands. Rules come from lookup
tables built cell by cell from reference.py (table.rules_tables); tests replay whole hands through
reference.Hand and whole games through reference.Game. One module per phase:

  table.py       Table (seats, rules) and the flat lookup tables, with their index arithmetic
  rows.py        a seat's hand as one 64-bit word; slot, tile and suit bit masks
  deal.py        deal, deal_with_hand
  auction.py     run_auction -> Auction
  widow.py       widow_and_trump: widow pick-up, discard, trump
  tricks.py      play_tricks -> PlayResult (play_state.py: its state and the lazy PlayView)
  scoring.py     score, instant_results, game_winner
  hand.py        play: one whole hand per game -> Result
  games.py       play_games: whole games -> GameResult

Public encodings (batch dimension first):
  hands     (N, P, 7) int8   tile ids (tiles.py) dealt to each seat, in deal order
  widow     (N,) int8        the widow tile (3 players, 22-tile set), else None
  calls     (N, C) int8      auction calls in speaking order: -1 no call, 0 pass, 3..7 or 21
  bidder    (N,) int8        seat of the contract, -1 when thrown in;  bid (N,) int8, 0 when thrown in
  trump     (N,) int8        0..6, DOUBLES=7, NOTRUMP=8; -1 when thrown in
  play_*    (N, 7P) int8     every play in order (seats, tiles); trick t is columns tP..tP+P-1
Strategies see the views of simulator.moon.views (the PlayView lazily, play_state.LazyPlayView).
"""
from moonshot.simulator.batch import BITS, CLEAR, HIGHEST, LOWEST, POPCOUNT, SLOT_BIT  # noqa: F401
from moonshot.simulator.moon.engine.auction import Auction, run_auction  # noqa: F401
from moonshot.simulator.moon.engine.deal import deal, deal_with_hand  # noqa: F401
from moonshot.simulator.moon.engine.games import GameResult, play_games  # noqa: F401
from moonshot.simulator.moon.engine.hand import Result, play  # noqa: F401
from moonshot.simulator.moon.engine.rows import BITS7, BITS9, UNIFORM, UNIFORM_FLAT, UNIFORM_R  # noqa: F401
from moonshot.simulator.moon.engine.scoring import game_winner, instant_results, score  # noqa: F401
from moonshot.simulator.moon.engine.table import BID_COL, HAND, N_SUITS, N_TRUMPS, TRICKS, Table  # noqa: F401
from moonshot.simulator.moon.engine.tricks import PlayResult, play_tricks  # noqa: F401
from moonshot.simulator.moon.engine.widow import widow_and_trump  # noqa: F401
