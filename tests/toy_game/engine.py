"""The toy game's batch engine: every hand of the batch at once, one decision per seat."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Table:
    players: int
    rules: object

    @property
    def n_sides(self) -> int:
        return self.players

    @property
    def side_of_seat(self) -> np.ndarray:
        return np.arange(self.players)


@dataclass
class PlayView:
    hand: np.ndarray            # (n, 2) this seat's cards
    legal: np.ndarray           # (n, 2) bool

    def __len__(self) -> int:
        return len(self.hand)


@dataclass
class Result:
    hands: np.ndarray           # (n, players, 2)
    played: np.ndarray          # (n, players) the card each seat played
    winner: np.ndarray          # (n,) seat, -1 on a tie
    score: np.ndarray           # (n, players) hands taken in this hand: 1 for the winner


@dataclass
class GameResult:
    winner: np.ndarray          # (n,) seat, -1 when unfinished
    hands: np.ndarray           # (n,) hands played
    hand_log: list              # with keep_hands: [(game indices, Result)] per hand


def deal(rng, size: int, table: Table) -> np.ndarray:
    return rng.integers(0, 10, (size, table.players, 2))


def play(table: Table, size: int, strategies, deal_rng, play_rng, hands=None) -> Result:
    hands = deal(deal_rng, size, table) if hands is None else hands
    played = np.empty((size, table.players), dtype=np.int64)
    for seat in range(table.players):
        choice = strategies[seat].play(PlayView(hands[:, seat], np.ones((size, 2), bool)), play_rng)
        played[:, seat] = hands[np.arange(size), seat, choice]
    top = played.max(axis=1)
    alone = (played == top[:, None]).sum(axis=1) == 1
    winner = np.where(alone, played.argmax(axis=1), -1)
    return Result(hands, played, winner, (winner[:, None] == np.arange(table.players)).astype(np.int64))


def play_games(table: Table, size: int, strategies, deal_rng, play_rng, max_hands: int = 60,
               keep_hands: bool = False) -> GameResult:
    won = np.zeros((size, table.players), dtype=np.int64)
    winner = np.full(size, -1)
    hands = np.zeros(size, dtype=np.int64)
    log = []
    for _ in range(max_hands):
        live = winner < 0
        if not live.any():
            break
        r = play(table, size, strategies, deal_rng, play_rng)
        if keep_hands:
            log.append((np.flatnonzero(live), Result(r.hands[live], r.played[live], r.winner[live], r.score[live])))
        hands += live
        took = live & (r.winner >= 0)
        won[np.flatnonzero(took), r.winner[took]] += 1
        done = live & (won.max(axis=1) >= table.rules.target)
        winner[done] = won[done].argmax(axis=1)
    return GameResult(winner, hands, log)
