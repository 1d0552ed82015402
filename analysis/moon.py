"""Moon (dominoes) analyses: headline simulation, the hand analyzer (trump x bid table for one
hand), bid success by hand class with calibration (and under the pimc search player: strong play),
the value of the widow, seat advantage, game odds for strategy match-ups and rules what-ifs. Every
number carries its n and 95% interval.
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from moonshot.analysis.common import (Analysis, Call, Hooks, Progress, Setup, match_call, match_result, one_row,
                                      players_said, run, run_many, unfinished_words)
from moonshot.analysis.moon_forced import CHOSEN, TRUMP_KINDS, add_forced, forced_chunk, hand_class
from moonshot.analysis.moon_hand_check import SPEC as HAND_CHECK
from moonshot.analysis.result import Result, pick
from moonshot.analysis.strong_play import MIN_N, lineups, versus
from moonshot.analysis.words import all_for_players, change, effects, say, standing, stands_out, value
from moonshot.analysis.stats import estimate, wilson
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.moon import engine
from moonshot.simulator.moon import tiles
from moonshot.simulator.moon.rules import check_players, parse_rules
from moonshot.simulator.moon.views import BID_VALUES, MOON_BID
from moonshot.simulator.runner import Share, Tally, chunk_rngs, chunk_seeds, difference, stream_seed
from moonshot.strategies.moon import FixedTrump

GAME = "moon"
SEAT_ORDERS = ("first", "middle", "last")
HAND_CHUNK = 16_384


# --------------------------------------------------------------------------------------------
# per-hand outcomes
# --------------------------------------------------------------------------------------------

def bidder_side(table, res) -> np.ndarray:
    return np.where(res.bidder >= 0, table.side_of_seat[np.maximum(res.bidder, 0)], -1)


class MoonHooks(Hooks):
    words = {            # how the glossary and table headers name this game's metrics and keys
        "score": ("points", "points the side scored in the hand"),
        "tricks": ("tricks", "tricks the side took in the hand"),
        "p_bidder": ("P(takes bid)", "the side won the auction"),
        "p_thrown_in": ("P(thrown in)", "everybody passed and the hand was redealt"),
        "p_made": ("P(contract made)", "a contract was played and made (per hand dealt)"),
        "p_set": ("P(contract set)", "a contract was played and set (per hand dealt)"),
        "p_bid21": ("P(21 contract)", "the contract was 21, shooting the moon (per hand dealt)"),
        "p_make": ("P(make)", "the contract was made (at least the bid in tricks)"),
        "p_make_open": ("P(make), open hands", "P(make) when every seat sees every hand and plays its best "
                        "(double dummy, the exact solver)"),
        "make": ("P(make)", "the contract was made"),
        "p_make_forced": ("P(make) if this hand bids", "the hand's seat was made the bidder at the row's bid, the "
                          "others passing, and made it (every bid forced on the same deals)"),
        "score_forced": ("points if this hand bids", "points of the forced bidder's side at the row's bid"),
        "bidder_score": ("bidder points", "points the bidder's side scored"),
        "bidder_tricks": ("bidder tricks", "tricks the bidder's side took"),
        "predicted": ("predicted P(make)", "the bidding strategy's own forecast"),
        "p_made_as_bidder": ("P(bid and made)", "the seat won the auction and made its bid"),
        "p_outbid": ("P(outbid)", "another player would take the contract at that bid"),
        "bid": ("bid", "the contract: 4..7 tricks, or 21 (all seven, for 21 points)"),
        "trump": ("trump", "blanks..sixes, doubles or no trump"),
        "trump_tiles": ("trump tiles", "tiles of the named trump in the dealt hand, its double included"),
        "trump_kind": ("trump kind", "a number suit (blanks..sixes), doubles, or no trump (follow me)"),
        "doubles": ("doubles", "doubles in the dealt hand"),
        "trump_double": ("trump double", "the dealt hand holds the double of trump"),
    }
    hands_word = "hands"
    game_unit = "P(winning the game)"    # to 21 points, or 7 marks under moon.scoring=marks7
    side_outcome_names = ("score",)
    side_outcome_unit = "points per hand"
    metric_words = {"score": "points per hand", "win": "P(winning the game)"}
    seat_outcome_names = ("score", "p_bidder", "p_thrown_in")
    headline_names = ("p_made", "p_set", "p_thrown_in", "p_bid21")
    lab_size = (3_000, 30_000)
    lab_baseline = "greedy"          # threshold's bidding with greedy play: the gap is threshold's defence

    def make_table(self, players, partners, rule_args, profiles) -> engine.Table:
        check_players(players)
        if partners and players != 4:
            raise BadInput(f"--partners needs 4 players in moon, got {players}; 3-player Moon is every player "
                           "for themselves")
        return engine.Table(players, parse_rules(rule_args, players))

    def tally_hands(self, setup, res, tally: Tally) -> None:
        table = setup.table
        S = table.n_sides
        size = len(res.bidder)
        played = res.bidder >= 0
        bside = bidder_side(table, res)
        tally.add_columns("sides", "side", {"score": res.score, "tricks": np.where(played[:, None], res.tricks, 0),
                                            "p_bidder": bside[:, None] == np.arange(S)})
        tally.add("thrown_in", one_row(size), {"p_thrown_in": ~played})
        p = np.flatnonzero(played)
        if len(p):
            btricks = res.tricks[p, bside[p]]
            tally.add("contracts", {"bid": res.bid[p]},
                      {"p_make": res.made[p], "bidder_score": res.score[p, bside[p]], "bidder_tricks": btricks})
            tally.add("trumps", {"trump": res.trump[p]}, {"p_make": res.made[p]})

    def hand_tables(self, setup, t: Tally, res: Result) -> None:
        res.tables["sides"] = estimate(t.get("sides"), ["side"], ["score", "tricks", "p_bidder"])
        res.tables["thrown_in"] = estimate(t.get("thrown_in"), [], ["p_thrown_in"])
        if "contracts" in t.tables:
            res.tables["contracts"] = estimate(t.get("contracts"), ["bid"], ["p_make", "bidder_score",
                                                                             "bidder_tricks"])
            trumps = estimate(t.get("trumps"), ["trump"], ["p_make"])
            res.tables["trumps"] = trumps.assign(trump=[tiles.trump_words(int(x)) for x in trumps["trump"]])
        if "contracts" in res.tables:
            c = res.tables["contracts"]
            made = c[c["metric"] == "p_make"]
            share, lo, hi = wilson(made["n"], made["n"].sum())
            shares = made.assign(estimate=share, ci_low=lo, ci_high=hi, kind="proportion")
            res.findings.append(stands_out(shares, lambda r: f"a bid of {int(r['bid'])}", "bid",
                                           "is the most common contract", "how often it is the contract"))
            res.findings.append("Contracts make: "
                                + "; ".join(f"bid {int(r['bid'])} {say(r)}" for _, r in made.iterrows())
                                + f"; {say(res.row('thrown_in', 'p_thrown_in'))} of hands are thrown in.")
        res.notes.append("score: points of the side this hand (0 on a thrown-in hand); contracts: the winning bid, "
                         "how often it was made and what the bidder scored.")

    def game_tables(self, setup, t: Tally, res: Result) -> None:
        res.notes.append("hands: hands dealt per game, thrown-in hands included; p_unfinished: games still "
                         "open after the engine's hand limit.")

    def side_outcomes(self, setup, res) -> dict[str, np.ndarray]:
        return {"score": res.score}

    def first_player(self, setup, g) -> np.ndarray:
        return g.first_bidder

    def headline(self, setup, res) -> dict[str, np.ndarray]:
        """Per hand dealt: a contract made, a contract set, thrown in, the contract is 21."""
        played = res.bidder >= 0
        return {"p_made": played & res.made, "p_set": played & ~res.made, "p_thrown_in": ~played,
                "p_bid21": played & (res.bid == MOON_BID)}

    def whatif_tally(self, setup, res, tally: Tally, arm: str) -> None:
        p = np.flatnonzero(res.bidder >= 0)
        bside = bidder_side(setup.table, res)
        bids = np.concatenate([res.bid[p], np.zeros(len(p), dtype=res.bid.dtype)])     # 0: every contract
        tally.add(f"contracts_{arm}", {"bid": bids}, {"p_make": np.tile(res.made[p], 2),
                                                      "bidder_score": np.tile(res.score[p, bside[p]], 2)})

    def whatif_tables(self, t: Tally, res: Result) -> None:
        """Contracts by bid under each rule set and the change (the auctions differ, so each bid's
        contracts are other hands under each: the change treats them as independent samples)."""
        if "contracts_base" not in t.tables or "contracts_variant" not in t.tables:
            return
        arms = {}
        for arm in ("base", "variant"):
            table = estimate(t.get(f"contracts_{arm}"), ["bid"], ["p_make", "bidder_score"])
            arms[arm] = table.assign(bid=[str(int(b)) if b else "all" for b in table["bid"]])
        res.tables["contracts"] = versus("variant", arms["variant"], "base", arms["base"], ["bid"]).rename(
            columns={"strategy": "rules"})
        at = lambda rules, bid="all": pick(res.tables["contracts"], metric="p_make", rules=rules, bid=bid)  # noqa
        res.findings.append(
            f"Contracts make {say(at('variant'))} of the time under the variant and {say(at('base'))} under the "
            f"base rules{change(at('variant - base'))}; by bid, under the variant: "
            + "; ".join(f"bid {b} {say(r)}" for b, r in ((b, at("variant", b)) for b in
                                                          sorted(set(arms["variant"]["bid"]) - {"all"}, key=int)))
            + ".")
        res.notes.append("contracts: the winning bids under each rule set and how often each was made; the auctions "
                         "differ, so a difference row treats the two as independent samples (Newcombe's interval).")

    def seat_outcomes(self, setup, res) -> dict[str, np.ndarray]:
        table = setup.table
        size, P = len(res.bidder), table.players
        cols = np.tile(table.side_of_seat, (size, 1))
        rows = np.arange(size)[:, None]
        return {"score": res.score[rows, cols], "p_bidder": res.bidder[:, None] == np.arange(P),
                "p_thrown_in": np.repeat((res.bidder < 0)[:, None], P, axis=1)}

    def hand_rows(self, setup, res) -> dict[str, np.ndarray]:
        """One row per hand (--save-hands): the auction (first bidder, winning bidder and bid, -1/0
        when thrown in), trump, discard, widow and whether the bid was made; per seat its hand's
        doubles and longest suit as dealt, its highest call (-1 none, 0 pass), its tricks and its
        side's score."""
        table = setup.table
        n = len(res.bidder)
        rows = {"first_bidder": res.first_bidder.astype(np.int8), "bidder": res.bidder.astype(np.int8),
                "bid": res.bid.astype(np.int8), "trump": res.trump.astype(np.int8),
                "discard": res.discard.astype(np.int8),
                "widow": (np.full(n, -1, dtype=np.int8) if res.widow is None else res.widow.astype(np.int8)),
                "made": res.made, "thrown_in": res.bidder < 0}
        for s in range(table.players):
            side, hand = int(table.side_of_seat[s]), res.hands[:, s]
            pips = np.stack([((tiles.HIGH[hand] == v) | (tiles.LOW[hand] == v)).sum(axis=1) for v in range(7)], axis=1)
            rows[f"seat{s}_doubles"] = tiles.IS_DOUBLE[hand].sum(axis=1).astype(np.int8)
            rows[f"seat{s}_longest_suit"] = pips.max(axis=1).astype(np.int8)
            rows[f"seat{s}_call"] = np.where(res.call_seats == s, res.calls, -1).max(axis=1).astype(np.int8)
            rows[f"seat{s}_side"] = np.full(n, side, dtype=np.int8)
            rows[f"seat{s}_tricks"] = res.tricks_seat[:, s].astype(np.int8)
            rows[f"seat{s}_score"] = res.score[:, side].astype(np.int16)
        return rows


HOOKS = MoonHooks()


# --------------------------------------------------------------------------------------------
# the hand analyzer: `moonshot hand moon --hand ...`
# --------------------------------------------------------------------------------------------

def _bid_levels(table) -> list[int]:
    return list(range(table.rules.min_bid, 8)) + [MOON_BID]


OPEN_DEALS = {3: 500, 4: 150}      # deals per chunk and trump solved with every hand open (double dummy)


def _open_cards_ceiling(table, h7: np.ndarray, trump: np.ndarray, levels, t: int, tally: Tally) -> None:
    """P(make) with every hand open (double dummy): the exact solver's tricks under best play by all,
    on the first deals of the chunk (the same hands, widow exchanged, as the simulated play)."""
    from moonshot.simulator.moon.solver import solve_deals
    k = min(len(h7), OPEN_DEALS[table.players])
    solved = solve_deals(h7[:k], trump[:k], table.rules, 0).astype(np.int16)
    side = table.side_of_seat[0]
    tricks = np.zeros((k, table.n_sides), dtype=np.int16)
    tricks[:, side] = solved
    tricks[:, (side + 1) % table.n_sides] = 7 - solved           # who else took them does not change `made`
    for b in levels:
        _, made = engine.score(table, np.zeros(k, dtype=np.int64), np.full(k, b), tricks)
        tally.add("open_cards", {"trump": np.full(k, t), "bid": np.full(k, b)}, {"p_make_open": made})


def _hand_chunk(setup: Setup, hand: tuple[int, ...], order: int, trumps: tuple[int, ...], seed: int,
                index: int, size: int, progress=None) -> Tally:
    """One chunk of the hand analyzer; `progress(done, of)` (runner.run_chunks) hears each trump
    played, of len(trumps) + 1 steps (the last: passing and the others' bids). It changes no number."""
    table, seats = setup.table, setup.seats
    P = table.players
    first_bidder = (-order) % P            # our seat is 0; `order` players speak before us
    tally = Tally()
    deal_rng = np.random.default_rng(stream_seed(seed, index, 0))
    hands, widow = engine.deal_with_hand(deal_rng, size, table, 0, list(hand))
    levels = np.array(_bid_levels(table))
    rows: dict[str, list] = {"trump": [], "bid": [], "p_make": [], "score": [], "tricks": []}
    ours = table.side_of_seat[0]
    bidder = np.zeros(size, dtype=np.int64)
    for t in trumps:
        # Only the bidder's trump and discard are fixed; play is the seats' own (one call per step).
        lineup = [FixedTrump(seats.strategies[0], t)] + list(seats.strategies[1:])
        play_rng = np.random.default_rng(stream_seed(seed, index, 1))
        bid = np.full(size, table.rules.min_bid)
        h7, _, trump = engine.widow_and_trump(table, hands, widow, bidder, bid, lineup, play_rng)
        tricks = engine.play_tricks(table, h7, bidder, bid, trump, seats.strategies, play_rng).tricks
        _open_cards_ceiling(table, h7, trump, levels, t, tally)
        for b in levels:
            points, made = engine.score(table, bidder, np.full(size, b), tricks)
            for key, column in (("trump", np.full(size, t)), ("bid", np.full(size, b)), ("p_make", made),
                                ("score", points[:, ours]), ("tricks", tricks[:, ours])):
                rows[key].append(column)
        if progress is not None:
            progress(len(rows["trump"]) // len(levels), len(trumps) + 1)
    cat = {k: np.concatenate(v) for k, v in rows.items()}
    tally.add("table", {"trump": cat["trump"], "bid": cat["bid"]},
              {k: cat[k] for k in ("p_make", "score", "tricks")})
    # Passing instead, on the same deals: the others bid and play as their strategies do.
    play_rng = np.random.default_rng(stream_seed(seed, index, 1))
    lineup = [Passer(seats.strategies[0])] + list(seats.strategies[1:])
    passed = engine.play(table, size, lineup, None, play_rng, first_bidder=np.full(size, first_bidder),
                          hands=hands, widow=widow)
    tally.add("pass", one_row(size), {"score": passed.score[:, ours], "p_thrown_in": passed.bidder < 0})
    # The others' wishes with this deal: would a player before us bid at least b, or one after us more?
    from moonshot.simulator.moon.views import BidView
    wants = []
    rng = np.random.default_rng(stream_seed(seed, index, 2))
    legal = np.ones((size, len(BID_VALUES)), dtype=bool)
    for k in range(1, P):
        seat = k
        view = BidView(P, table.rules, 0, np.full(size, seat), hands[:, seat], np.full((size, P), -1),
                       np.zeros(size, dtype=np.int16), legal, np.zeros((size, table.n_sides)),
                       np.full(size, table.side_of_seat[seat]), legal_bits=bid_bits(legal))
        wants.append(np.asarray(seats.strategies[seat].bid(view, rng)))
    position = {seat: (seat - first_bidder) % P for seat in range(P)}
    for b in levels:
        over = np.zeros(size, dtype=bool)
        for k, want in zip(range(1, P), wants):
            if table.side_of_seat[k] == table.side_of_seat[0]:
                continue                       # a partner does not take the contract from us
            over |= (want >= b) if position[k] < position[0] else (want > b)
        tally.add("outbid", {"bid": np.full(size, b)}, {"p_outbid": over})
    return tally


def bid_bits(legal: np.ndarray) -> np.ndarray:
    """(n,) uint8 BidView.legal_bits of a (n,7) legal mask over BID_VALUES (bit i = column i): a
    view built outside the engine carries the bit masks the engine's views do, which strategies read."""
    return (legal.astype(np.uint8) << np.arange(legal.shape[1], dtype=np.uint8)).sum(axis=1, dtype=np.uint8)


def analyze_hand(setup: Setup, hand_text: str, seat_order: str, samples: int, seed: int, jobs: int = 1,
                 progress: Progress = None, check_samples: int | None = None) -> Result:
    """P(make) and expected score of every (trump, bid) for one hand as the bidder, and the check of
    its advice with the search player in every seat on the first `check_samples` deals
    (analysis/moon_hand_check.py; None: HAND_CHECK's default, 0: no check)."""
    from moonshot.analysis.hand_check import check_deals, seated
    from moonshot.analysis.moon_hand_check import check_advice
    setup.validate()
    table = setup.table
    hand = tuple(tiles.parse_hand(hand_text, setup.players, table.rules))
    if seat_order not in SEAT_ORDERS:
        raise BadInput(f"unknown --seat-order {short(seat_order)}; accepted: {', '.join(SEAT_ORDERS)}")
    deals = check_deals(check_samples, samples, HAND_CHECK, setup.players)
    order = {"first": 0, "middle": 1, "last": setup.players - 1}[seat_order]
    trumps = tuple(int(t) for t in np.flatnonzero(table.allowed_trumps))
    # Small chunks: a 100,000-deal question splits evenly over the workers.
    chunk = min(HAND_CHUNK, setup.chunk())
    t = run(_hand_chunk, (setup, hand, order, trumps), samples, seed, jobs, progress, chunk=chunk)
    grid = estimate(t.get("table"), ["trump", "bid"], ["p_make", "score"])
    ceiling = estimate(t.get("open_cards"), ["trump", "bid"], ["p_make_open"])
    grid = pd.concat([grid, ceiling], ignore_index=True).sort_values(["trump", "bid"], kind="stable",
                                                                       ignore_index=True)
    grid["trump"] = [tiles.trump_words(int(x)) for x in grid["trump"]]
    outbid = estimate(t.get("outbid"), ["bid"], ["p_outbid"])
    scores = grid[grid.metric == "score"]
    best = scores.loc[scores["estimate"].idxmax()]
    passing = estimate(t.get("pass"), [], ["score", "p_thrown_in"])
    pass_score = passing[passing.metric == "score"].iloc[0]
    bid_it = best["estimate"] > pass_score["estimate"]
    res = Result(f"Moon: hand {' '.join(tiles.tile_name(x) for x in hand)}",
                 setup.meta(hand=[tiles.tile_name(x) for x in hand], seat_order=seat_order, samples_per_trump=samples,
                            seed=seed))
    res.tables["trump_by_bid"] = grid
    res.tables["best_bid"] = pd.DataFrame([{
        "choice": "bid" if bid_it else "pass", "trump": best["trump"], "bid": int(best["bid"]),
        "expected_score": best["estimate"], "ci_low": best["ci_low"], "ci_high": best["ci_high"], "n": int(best["n"]),
        "p_make": float(grid[(grid.metric == "p_make") & (grid.trump == best["trump"]) &
                             (grid.bid == best["bid"])]["estimate"].iloc[0]),
        "pass_score": pass_score["estimate"], "pass_ci_low": pass_score["ci_low"],
        "pass_ci_high": pass_score["ci_high"]}])
    res.tables["pass"] = passing
    res.tables["outbid"] = outbid
    choice = res.tables["best_bid"].iloc[0]
    ahead = standing(scores).leader is not None
    p_make = value(pick(grid, metric="p_make", trump=best["trump"], bid=best["bid"]))
    players = seated(setup.seats.specs, table.side_of_seat, "defenders")
    res.findings.append(f"{players[0].upper()}{players[1:]}, the highest expected score is to "
                        f"{tiles.contract_words(int(choice['bid']), tiles.parse_trump(choice['trump']))}: "
                        f"{say(best, signed=True)} with P(make) {p_make}"
                        + ("" if ahead else f" (it cannot be told from every other bid and trump at {samples:,} deals "
                                            f"per trump: their intervals overlap)")
                        + f"; passing scores {say(pass_score, signed=True)}, so {'bid' if bid_it else 'pass'} "
                        + "against these players"
                        + ("." if _apart(best, pass_score) else " (a choice the intervals do not settle)."))
    res.notes += [
        f"The hand is the bidder's (seat 0, speaking {seat_order}); the other tiles are dealt at random, "
        f"{samples:,} deals per trump, the same deals for every trump and bid.",
        ("The bidder picks up the widow and discards with its strategy's rule, knowing the trump it will "
         "name. " if table.has_widow else "") +
        "Play follows the seats' strategies; the bidder tries to win as many tricks as it can, so the "
        "trick count and P(make) of every bid level come from the same plays.",
        "outbid: how often another player would take the contract from this hand at that bid: a player "
        "speaking before it bids at least that much, or one after it bids more (their strategy's bid).",
        f"p_make_open: P(make) with every hand open (double dummy: the exact solver's tricks when every seat "
        f"sees every hand and plays its best), on the first {OPEN_DEALS[table.players]} deals of each chunk per "
        "trump (its n says how many). It is not a bound on p_make, what these strategies get: with open "
        "hands the defence is perfect too.",
        "pass: the same deals with this hand passing (forced to bid only when the rules force it): its side's "
        "expected points as a defender, 0 on a thrown-in hand. best_bid's choice is the best bid when its "
        "expected score beats passing, else pass.",
    ]
    if deals:
        check_advice(res, setup, hand, order, scores, {tiles.trump_words(x): x for x in trumps}, bool(bid_it), samples,
                     deals, seed, jobs, progress, chunk, Passer)
    return res


# --------------------------------------------------------------------------------------------
# bid-success, widow value, seat advantage
# --------------------------------------------------------------------------------------------

def _bid_success_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    table, seats = setup.table, setup.seats
    deal_rng, play_rng = chunk_rngs(seed, index)
    res = engine.play(table, size, seats.strategies, deal_rng, play_rng)
    p = np.flatnonzero(res.bidder >= 0)
    tally = Tally()
    if not len(p):
        return tally
    bidder, trump, bid = res.bidder[p], res.trump[p], res.bid[p]
    dealt = res.hands[p, bidder]                                    # the 7 tiles it bid on
    side = table.side_of_seat[bidder]
    score = res.score[p, side]
    tally.add("by_class", {"bid": bid, **hand_class(dealt, trump)}, {"p_make": res.made[p], "score": score})
    tally.add("by_bid", {"bid": bid}, {"p_make": res.made[p], "score": score})
    # Calibration: each bidder's own predicted P(make) against what happened.
    for spec in sorted(set(seats.specs)):
        strat = seats.strategies[seats.specs.index(spec)]
        if not hasattr(strat, "predict_make"):
            continue
        mine = np.isin(bidder, [s for s, x in enumerate(seats.specs) if x == spec])
        if not mine.any():
            continue
        pred = strat.predict_make(dealt[mine], trump[mine], bid[mine], table.players, table.rules)
        decile = np.minimum((pred * 10).astype(int), 9)
        code = seats.specs.index(spec)
        tally.add("calibration", {"strategy": np.full(mine.sum(), code), "decile": decile},
                  {"predicted": Share(pred), "p_make": res.made[p][mine]})
    return tally


def _chosen_and_forced_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    """bid-success's chunk: the contracts the players chose, then every bid forced on the same deals."""
    forced = forced_chunk(setup, _bid_levels(setup.table), seed, index, size)
    return _bid_success_chunk(setup, seed, index, size).merge(forced)


def bid_success(setup: Setup, hands: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    """P(make) and points when the player chose to bid k (by_bid, by_class, calibration) and if the
    hand bids k, every bid forced on the same deals (if_bid, if_bid_by_class: analysis.moon_forced)."""
    setup.validate()
    t = run(_chosen_and_forced_chunk, (setup,), hands, seed, jobs, progress)
    res = Result("Moon: bid success by hand class", setup.meta(hands=hands, seed=seed))
    if "by_bid" not in t.tables:
        raise BadInput("no hand was bid in this run; accepted: more --hands or a bolder --strategy")
    res.tables["by_bid"] = estimate(t.get("by_bid"), ["bid"], ["p_make", "score"])
    by_class = estimate(t.get("by_class"), ["bid", "trump_kind", "trump_tiles", "doubles", "trump_double"],
                        ["p_make", "score"])
    res.tables["by_class"] = by_class.assign(trump_kind=[TRUMP_KINDS[int(k)] for k in by_class["trump_kind"]])
    if "calibration" in t.tables:
        cal = estimate(t.get("calibration"), ["strategy", "decile"], ["predicted", "p_make"])
        cal["strategy"] = [setup.seats.specs[int(i)] for i in cal["strategy"]]
        res.tables["calibration"] = cal
    by_bid = res.tables["by_bid"]
    res.findings.append(f"{CHOSEN[0].upper()}{CHOSEN[1:]}: bids make " + "; ".join(
        f"{int(r['bid'])} in {say(r)}" for _, r in by_bid[by_bid["metric"] == "p_make"].iterrows()) + ".")
    res.notes += ["Hand class of the bidder's dealt hand (before the widow): tiles of the trump it named "
                  "(its double included), doubles held, and whether it held the trump double.",
                  "calibration: the bidding strategy's own predicted P(make) (binned by decile) against the "
                  "realised rate."]
    add_forced(t, res, setup)
    res.findings = all_for_players(res.findings, players_said(setup))
    return res


# --------------------------------------------------------------------------------------------
# strong play: bid success with the search player in every seat beside the default lineup
# --------------------------------------------------------------------------------------------

STRONG = "pimc"          # the search player (strategies/moon_search.py) at its default 32 worlds per decision
SEARCH_CHUNK = 250       # hands per chunk: few, as pimc is slow, so --jobs share a strong-play run


def bid_tables(setup: Setup, hands: int, chunk: int = SEARCH_CHUNK):
    """P(make) and the bidder side's points of setup's lineup by bid (and over every bid: "all") and
    by trump tiles held (number-suit contracts, every bid), from bid-success's chunks in pieces of
    `chunk` hands (the same seed and chunks give every lineup the same deals): its run, and the
    reading of its tally (analysis.strong_play.Measure)."""
    return [Call(_bid_success_chunk, (setup,), hands, chunk)], lambda tallies: _bid_tables(tallies[0])


def _bid_tables(t: Tally) -> dict[str, pd.DataFrame]:
    bids = t.get("by_bid").astype({"bid": str})
    bids = pd.concat([bids, bids.drop(columns="bid").sum().to_frame().T.assign(bid="all")], ignore_index=True)
    cls = t.get("by_class")
    tiles = cls[cls["trump_kind"] == 0].groupby("trump_tiles", as_index=False)[["n", "p_make", "score",
                                                                                 "score__sq"]].sum()
    return {"by_bid": estimate(bids, ["bid"], ["p_make", "score"]),
            "by_trump_tiles": estimate(tiles, ["trump_tiles"], ["p_make", "score"])}


def strong_play(setup: Setup, hands: int, seed: int, jobs: int = 1, strong: str = STRONG) -> Result:
    """Bid success with `strong` in every seat beside setup's lineup on the same deals: tables by_bid
    and by_trump_tiles, each lineup's rows and their difference (analysis.strong_play.versus)."""
    base = setup.seats.specs[0]
    res = lineups(setup, strong, lambda s: bid_tables(s, hands),
                  {"by_bid": ["bid"], "by_trump_tiles": ["trump_tiles"]}, "Moon: strong play",
                  setup.meta(hands=hands, seed=seed), seed, jobs)
    res.findings += _strong_findings(res.tables["by_bid"], strong, base, hands, players_said(setup))
    res.notes += [
        f"Every seat plays {strong} (it deals the hidden tiles {setup.strategy(strong).worlds} ways consistent "
        "with what its seat has seen and solves each exactly, at every bid, discard, trump and play), and then every "
        f"seat plays {base}, on the same {hands:,} deals with the same first bidder; n counts contracts (a hand "
        "everybody passed is not in it). Each lineup bids on the hands it chooses, so a row holds "
        "different contracts under each; a difference row treats the two as independent samples (Newcombe's "
        "interval from the two Wilson intervals for P(make), the half-widths in quadrature for points) and its n is "
        f"the smaller of the two; a row gets one only when both lineups have at least {MIN_N} contracts in it.",
        "points: the bidder side's points on the contract. by trump tiles: number-suit contracts of every bid "
        "level, by the tiles of that trump in the bidder's dealt hand.",
        f"The report plays these {hands:,} hands in chunks of {SEARCH_CHUNK} so the jobs share them; "
        f"`moonshot analyze moon bid-success --strategy {strong}` runs it at any size, on a cluster with --scheduler."]
    return res


def _strong_findings(by_bid: pd.DataFrame, strong: str, base: str, hands: int, base_said: str) -> list[str]:
    """Every contract under each lineup with the change, and the bid level whose P(make) changed
    most beyond its interval (if any); `base_said` is the setup's lineup in words."""
    at = lambda m, s, bid="all": pick(by_bid, metric=m, strategy=s, bid=bid)  # noqa: E731
    n = lambda s: f"{int(at('p_make', s)['n']):,}"  # noqa: E731
    d = f"{strong} - {base}"
    out = [f"Contracts make {say(at('p_make', strong))} of the time (n = {n(strong)}) with {strong} in every seat "
           f"and {say(at('p_make', base))} (n = {n(base)}) with {base_said} on the same {hands:,} deals"
           f"{change(at('p_make', d))}; the bidder's side scores {say(at('score', strong), signed=True)} "
           f"and {say(at('score', base), signed=True)} points per contract{change(at('score', d))}."]
    diffs = by_bid[(by_bid["metric"] == "p_make") & (by_bid["strategy"] == d) & (by_bid["bid"] != "all")]
    if len(diffs):
        out.append(f"By bid level, {strong} in every seat minus {base_said}: "
                   + effects(diffs, lambda r: f"bid {r['bid']}", "bid level", "P(make)"))
    return out

class Passer:
    """Wraps a strategy: always passes in the auction (takes its lowest bid only when forced)."""

    def __init__(self, base):
        self.base, self.spec = base, getattr(base, "spec", "?") + "+pass"

    def bid(self, view, rng):
        lowest = view.legal.argmax(axis=1)          # column 0 is pass; a forced bidder's first legal bid
        return np.asarray(BID_VALUES)[lowest]

    def discard(self, view, rng):
        return self.base.discard(view, rng)

    def trump(self, view, rng):
        return self.base.trump(view, rng)

    def play(self, view, rng):
        return self.base.play(view, rng)


class KeepDealt:
    """Wraps a strategy: the bidder never uses the widow (it discards the widow tile itself)."""

    def __init__(self, base):
        self.base, self.spec = base, getattr(base, "spec", "?") + "+no-widow"

    def bid(self, view, rng):
        return self.base.bid(view, rng)

    def discard(self, view, rng):
        return np.full(len(view), view.hand.shape[1] - 1)

    def trump(self, view, rng):
        return self.base.trump(view, rng)

    def play(self, view, rng):
        return self.base.play(view, rng)


def _widow_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    table, seats = setup.table, setup.seats
    deal_seed, play_seed = chunk_seeds(seed, index)
    outs = []
    for lineup in (list(seats.strategies), [KeepDealt(s) for s in seats.strategies]):
        deal_rng = np.random.default_rng(deal_seed)
        outs.append(engine.play(table, size, lineup, deal_rng, np.random.default_rng(play_seed)))
    with_w, without = outs
    p = np.flatnonzero((with_w.bidder >= 0) & (with_w.bidder == without.bidder))
    tally = Tally()
    side = table.side_of_seat[with_w.bidder[p]]
    for key, sel in (("bid", with_w.bid[p]), ("all", np.zeros(len(p), dtype=np.int64))):
        tally.add(f"by_{key}", {key: sel},
                  {"with_p_make": with_w.made[p], "without_p_make": without.made[p],
                   "d_make": difference(with_w.made[p], without.made[p]),
                   "d_score": (with_w.score[p, side] - without.score[p, side]).astype(float)})
    return tally


def _apart(a, b) -> bool:
    """Whether two estimates' 95% intervals do not overlap."""
    return a["ci_low"] > b["ci_high"] or b["ci_low"] > a["ci_high"]


def widow_value(setup: Setup, hands: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    setup.validate()
    if not setup.table.has_widow:
        raise BadInput("widow-value needs the 3-player game with a widow; accepted: --players 3 "
                       "without moon.widow=none / moon.tile_set=no_blanks21")
    t = run(_widow_chunk, (setup,), hands, seed, jobs, progress)
    res = Result("Moon: what the widow is worth", setup.meta(hands=hands, seed=seed))
    metrics = ["with_p_make", "without_p_make", "d_make", "d_score"]
    res.tables["overall"] = estimate(t.get("by_all"), [], metrics)
    res.tables["by_bid"] = estimate(t.get("by_bid"), ["bid"], metrics)
    res.findings.append(f"Taking the widow changes the bidder's P(make) by {say(res.row('overall', 'd_make'))} "
                        f"and its points by {say(res.row('overall', 'd_score'), signed=True)} per contract (players: "
                        f"{players_said(setup)}).")
    res.notes.append("The same deals and auctions played twice: the bidder picks up the widow and discards as "
                     "usual, or keeps its dealt seven (discarding the widow tile). d_* = with minus without.")
    return res


def _seat_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    table, seats = setup.table, setup.seats
    deal_rng, play_rng = chunk_rngs(seed, index)
    res = engine.play(table, size, seats.strategies, deal_rng, play_rng)
    P = table.players
    seat = np.tile(np.arange(P), size)
    hand = np.repeat(np.arange(size), P)
    position = (seat - res.first_bidder[hand]) % P
    side = table.side_of_seat[seat]
    is_bidder = res.bidder[hand] == seat
    tally = Tally()
    tally.add("positions", {"position": position},
              {"p_bidder": is_bidder, "score": res.score[hand, side].astype(float),
               "p_made_as_bidder": is_bidder & (res.made[hand] == 1)})
    return tally


def seat_advantage(setup: Setup, hands: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    setup.validate()
    t = run(_seat_chunk, (setup,), hands, seed, jobs, progress)
    res = Result("Moon: bidding first, middle or last", setup.meta(hands=hands, seed=seed))
    table = estimate(t.get("positions"), ["position"], ["p_bidder", "p_made_as_bidder", "score"])
    names = {0: "first", 1: "middle" if setup.players == 3 else "second", 2: "last" if setup.players == 3 else "third",
             3: "last"}
    table["position"] = [names[int(p)] for p in table["position"]]
    res.tables["positions"] = table
    pos = res.tables["positions"]
    pts = pos[pos["metric"] == "score"]
    res.findings.append("Points per hand by position: " + "; ".join(f"{r['position']} {say(r, signed=True)}"
                                                                     for _, r in pts.iterrows()) + ". "
                        + stands_out(pts, lambda r: f"bidding {r['position']}", "position", "scores the most",
                                     "points per hand"))
    res.findings = all_for_players(res.findings, players_said(setup))
    res.notes.append("Per seat and hand, by where the seat speaks in the auction: how often it wins the contract, "
                     "how often it wins and makes it, and its side's points that hand.")
    return res


GAME_ODDS_PAIRS = (("expert", "threshold"), ("threshold", "random"), ("greedy", "random"), ("threshold", "greedy"))


def game_odds(setup: Setup, games: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    """P(winning the game to 21) for the built-in strategy match-ups, same deals, seats rotated."""
    tables = []
    tallies = run_many([match_call(setup, a, b, None, games) for a, b in GAME_ODDS_PAIRS], seed, jobs, progress)
    for (a, b), t in zip(GAME_ODDS_PAIRS, tallies):
        m = match_result(setup, a, b, None, games, seed, t)
        tables.append(m.tables["match"].assign(a=a, b=b))
    res = Result("Moon: who wins the game to 21", {**setup.meta(seed=seed), "games_per_match": games})
    res.tables["matchups"] = pd.concat(tables, ignore_index=True)[["a", "b", "metric", "estimate", "n",
                                                                  "ci_low", "ci_high", "kind"]]
    for a, b in GAME_ODDS_PAIRS:
        ups = res.tables["matchups"]
        pick = {r["metric"]: r for _, r in ups[(ups["a"] == a) & (ups["b"] == b)].iterrows()}
        res.findings.append(f"{a} against {b} ({a} in each side's seats in turn, {b} in the others): "
                            f"{say(pick['d_win'])} of P(winning the game). " + unfinished_words(
            pick["d_win"], pick["d_unfinished"], setup.table.n_sides,
            {f"with {a}": pick["p_unfinished_a"], f"with {b} everywhere": pick["p_unfinished_b"]}))
    res.notes += m.notes
    return res


ANALYSES = {
    "bid-success": Analysis(bid_success, "hands", 20_000, "P(make) and score by bid and hand class when the "
                            "player chose the bid and if the hand bids k (every bid forced), with the bidders' "
                            "calibration"),
    "widow-value": Analysis(widow_value, "hands", 20_000, "the same deals with and without the widow"),
    "seat-advantage": Analysis(seat_advantage, "hands", 20_000, "speaking first, middle or last in the auction"),
    "game-odds": Analysis(game_odds, "games", 20_000, "P(win the game to 21) for the built-in match-ups"),
}
