"""Moon's expert player: the search player's judgement learned, played at batch speed.

Two small models, fitted from a seed by benchmarks/train_moon_expert.py and shipped in
strategies/models/moon_expert.npz:
  * a trick model (strategies/moon_expert_bid.py): for a hand and a trump, the chance of each number
    of tricks (0..7) the hand's side takes when it bids and everyone plays as this player does. It
    bids, discards and names trump by the expected score of each choice under the contract's scoring;
  * a play model (strategies/moon_expert_play.py): every legal tile scored by a linear model over what
    the mover's view shows, fitted to `pimc`'s values of the same decisions.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import tiles as dominoes
from moonshot.simulator.moon.engine.table import BID_COL
from moonshot.simulator.moon.views import BID_VALUES, PASS, BidView, DiscardView, PlayView, TrumpView
from moonshot.strategies.base import register
from moonshot.strategies import moon_expert_bid as tm
from moonshot.strategies.moon import KEEP, allowed_trumps, trick_estimate
from moonshot.strategies.moon_expert_play import F, SITUATIONS, play_choice
from moonshot.strategies.moon_search import OUTCOMES, bidder_points

GAME = "moon"
MODEL_PATH = Path(__file__).with_name("models") / "moon_expert.npz"
FORMAT = 1                      # the model file's layout; a file of another format is refused
N_TRUMPS = dominoes.N_TRUMPS
TRICK_MODELS = ("p3_pre", "p3_post", "p4_post")   # 3 players before the widow and after the discard; 4 players
# The expected score a bid must reach (passing defends instead): pimc's own, which agrees more with
# pimc's first bids (CHANGELOG.md, moon/4). And what a bid of 21 must beat the other bids by: 0, for
# a margin of 8 that made its 21s agree with pimc's cost points against pimc itself (CHANGELOG.md).
MIN_GAIN = 1.0
MOON_MARGIN = 0.0
DISCARDS = 3                    # tiles tried as the discard under each trump: the least worth keeping
BID_TRUMPS = 4                  # trumps valued when bidding and discarding: the most promising by a quick estimate


class Model:
    """The fitted weights, checked on load: for each table size, the trick model before the widow
    (3 players' bidding: the dealt 7 tiles), after it (the 7 kept), and the play weights."""

    def __init__(self, arrays: dict[str, np.ndarray], path: str = "the expert's model"):
        def need(key, shape):
            a = arrays.get(key)
            if a is None or a.shape != shape or not np.isfinite(a).all():
                raise BadInput(f"{path}: {key} is missing or not a finite array of shape {shape}; "
                               f"rebuild it with benchmarks/train_moon_expert.py")
            return a.astype(np.float32)
        fmt = arrays.get("format")
        if fmt is None or np.shape(fmt) != () or not np.issubdtype(np.asarray(fmt).dtype, np.integer) \
                or int(fmt) != FORMAT:
            raise BadInput(f"{path}: model format {fmt} is not {FORMAT}; "
                           "rebuild it with benchmarks/train_moon_expert.py")
        shapes = {"w1": (tm.INPUTS, tm.HIDDEN), "b1": (tm.HIDDEN,), "w2": (tm.HIDDEN, tm.CLASSES), "b2": (tm.CLASSES,)}
        self.tricks = {key: {part: need(f"{key}_{part}", shape) for part, shape in shapes.items()}
                       for key in TRICK_MODELS}
        self.play = {P: need(f"p{P}_play", (SITUATIONS, F)) for P in (3, 4)}

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> "Model":
        try:
            with np.load(path, allow_pickle=False) as f:
                arrays = {k: f[k] for k in f.files}
        except (OSError, ValueError) as e:
            raise BadInput(f"cannot read the expert's model {path}: {e}") from None
        return cls(arrays, str(path))


@lru_cache(maxsize=1)
def shipped_model() -> Model:
    return Model.load()


def promising(hand: np.ndarray, allowed: np.ndarray, k: int) -> np.ndarray:
    """(n, k) each hand's k most promising allowed trumps by the threshold players' trick estimate
    (the trick model values only these, as pimc solves only its most promising trumps)."""
    est = np.where(allowed, trick_estimate(np.asarray(hand)), -np.inf)
    k = min(k, int(allowed.sum()))
    return np.argpartition(-est, k - 1, axis=1)[:, :k]            # (their order does not matter)


@lru_cache(maxsize=64)
def _points_table(players: int, rules, outcome: str) -> np.ndarray:
    """(7, 8) the bidder side's outcome (moon_search.bidder_points) by BID_VALUES column and tricks.

    Under moon.scoring=marks7 the levels are valued by the points game's table: a hand's mark goes to
    the contract's side whatever the level, so by marks alone every level is worth the same (it bid
    the lowest and, with MIN_GAIN in points, passed nearly every hand), while a higher bid is what
    takes the contract from the others (CHANGELOG, moon/5, has the figures)."""
    if rules.scoring == "marks7":
        rules = replace(rules, scoring="points21")
    return np.stack([bidder_points(players, rules, int(b), outcome) if b != PASS else np.zeros(8)
                     for b in BID_VALUES])


@register(GAME, "expert")
class ExpertMoon:
    """Bid, discard and name trump by the expected score of each choice under a trick model learned
    from play; play each tile by a model fitted to `pimc`'s values of the same decisions.

    Bids the level (and plans the trump) with the highest expected score, a bid of 21 less
    `moon_margin` points, if that reaches `min_gain` points, else passes; discards the tile whose
    loss costs least; names the trump with the highest expected score for the bid. Plays at batch
    speed (one compiled pass per decision step).
    """

    ranges = {"min_gain": (-63, 63), "moon_margin": (0, 63)}             # points
    adapts_to = ("moon.tile_set", "moon.allow_doubles_trump", "moon.allow_doubles_trump_4p",
                 "moon.notrump_doubles", "moon.bid_success", "moon.scoring", "moon.bidder_score_4p",
                 "moon.min_bid")

    def __init__(self, min_gain: float = MIN_GAIN, moon_margin: float = MOON_MARGIN, outcome: str = "auto"):
        if outcome not in OUTCOMES:
            raise BadInput(f"expert: unknown outcome {outcome!r}; accepted: {', '.join(OUTCOMES)}")
        self.min_gain, self.moon_margin, self._outcome = min_gain, moon_margin, outcome
        self.model = shipped_model()

    @classmethod
    def with_model(cls, model: Model, **params) -> "ExpertMoon":
        """This player with other weights (training, and its tests)."""
        player = cls.__new__(cls)
        player.min_gain, player.moon_margin = params.get("min_gain", MIN_GAIN), params.get("moon_margin", MOON_MARGIN)
        player._outcome = params.get("outcome", "auto")
        player.model = model
        return player

    def outcome(self, players: int) -> str:
        """As pimc scores its worlds: the side's points less the other side's with four players."""
        if self._outcome != "auto":
            return self._outcome
        return "margin" if players == 4 else "side"

    def _points(self, players: int, rules, bids) -> np.ndarray:
        """(len(bids), 8) the bidder side's outcome for 0..7 tricks under each bid."""
        return _points_table(players, rules, self.outcome(players))[BID_COL[np.asarray(bids).astype(np.intp)]]

    def _weights(self, players: int, before_widow: bool) -> dict:
        return self.model.tricks["p3_pre" if before_widow else "p3_post"] if players == 3 else \
            self.model.tricks["p4_post"]

    def bid_values(self, view: BidView) -> tuple[np.ndarray, np.ndarray]:
        """(value (n, B), trump (n, B)): for each number bid of BID_VALUES (pass left out) the expected
        score at its best trump among the hand's most promising, and that trump; -inf where illegal."""
        P, rules = view.players, view.rules
        trumps = promising(view.hand, allowed_trumps(P, rules), BID_TRUMPS)      # (n, T)
        cols = np.flatnonzero(BID_VALUES != PASS)
        widow = dominoes.widow_size(P, rules) > 0
        pts = self._points(P, rules, BID_VALUES[cols])[None]                    # (1, B, 8)
        value = tm.expected(self._weights(P, widow), view.hand, trumps, pts)[:, :, 0]  # (n, T, B)
        best = value.argmax(axis=1)                                             # (n, B)
        trump = np.take_along_axis(trumps, best, axis=1)
        value = np.take_along_axis(value, best[:, None, :], axis=1)[:, 0]
        return np.where(view.legal[:, cols], value, -np.inf), trump

    def bid(self, view: BidView, rng) -> np.ndarray:
        value, _ = self.bid_values(view)
        number_bids = BID_VALUES[BID_VALUES != PASS]
        value = value - np.where(number_bids == 21, self.moon_margin, 0.0)
        pick = value.argmax(axis=1)
        best = value[np.arange(len(view)), pick]
        can_pass = view.legal[:, 0]
        return np.where(can_pass & (best < self.min_gain), PASS, number_bids[pick]).astype(np.int16)

    def _exchange_values(self, view, trumps: np.ndarray) -> np.ndarray:
        """(n, T, D) the expected score of keeping all but one tile of the 8 under each trump (n, T):
        the DISCARDS tiles least worth keeping under that trump (the threshold players' keep value)."""
        pts = self._points(view.players, view.rules, view.bid)[:, None]          # (n, 1, 8): each game's bid
        hand = np.asarray(view.hand)
        keep = KEEP[hand[:, None, :], trumps[:, :, None]]                         # (n, T, 8)
        skip = tm.lowest_slots(keep, DISCARDS)
        value = tm.expected(self._weights(view.players, False), hand, trumps, pts, skip)[..., 0]
        return value, skip

    def discard(self, view: DiscardView, rng) -> np.ndarray:
        named = np.asarray(view.trump)[:, None]
        trumps = np.where(named >= 0, named, promising(view.hand, allowed_trumps(view.players, view.rules),
                                                        BID_TRUMPS))
        value, skip = self._exchange_values(view, trumps)
        n, T, D = value.shape
        best = value.reshape(n, -1).argmax(axis=1)
        slot = skip.reshape(n, -1)[np.arange(n), best]
        # the trump chosen with the discard, for the trump question that follows (asked of the same games)
        kept = np.sort(np.where(np.arange(view.hand.shape[1]) == slot[:, None], 99, view.hand), axis=1)[:, :-1]
        self._planned = (kept, trumps[np.arange(n), best // D])
        return slot

    def trump(self, view: TrumpView, rng) -> np.ndarray:
        n = len(view)
        trumps = np.broadcast_to(np.arange(N_TRUMPS), (n, N_TRUMPS))
        if view.hand.shape[1] > dominoes.HAND_SIZE:                              # trump first, the widow in hand
            v = self._exchange_values(view, trumps)[0].max(axis=2)              # each trump with its best discard
        else:
            planned = self._plan_for(view)
            if planned is not None:
                return planned
            pts = self._points(view.players, view.rules, view.bid)[:, None]
            v = tm.expected(self._weights(view.players, False), view.hand, trumps, pts)[:, :, 0, 0]
        return np.where(view.legal, v, -np.inf).argmax(axis=1)

    def _plan_for(self, view: TrumpView) -> np.ndarray | None:
        """The trumps planned with this player's last discards, if these are the hands it kept and
        each planned trump is legal (else None: value the trumps afresh)."""
        planned, self._planned = getattr(self, "_planned", None), None
        if planned is None or len(planned[0]) != len(view):
            return None
        kept, trump = planned
        if not (np.sort(view.hand, axis=1) == kept).all() or not view.legal[np.arange(len(view)), trump].all():
            return None
        return trump

    def predict_make(self, hand: np.ndarray, trump: np.ndarray, bid: np.ndarray, players: int, rules) -> np.ndarray:
        """The bidder's own belief that its dealt hand makes `bid` in `trump` (for calibration): the
        trick model's chance of the tricks the bid needs (before the widow with three players)."""
        widow = dominoes.widow_size(players, rules) > 0
        made = _points_table(players, rules, "side")[BID_COL[np.asarray(bid).astype(np.intp)]] > 0   # (n, 8)
        p = tm.expected(self._weights(players, widow), hand, np.asarray(trump)[:, None],
                        made[:, None].astype(float))
        return p[:, 0, 0, 0]

    def play(self, view: PlayView, rng) -> np.ndarray:
        return play_choice(view, self.model.play[view.players])

    def call_end(self, view: PlayView, slot, rng) -> np.ndarray:
        tile = np.asarray(view.hand)[np.arange(len(view)), slot]
        return dominoes.HIGH[tile]
