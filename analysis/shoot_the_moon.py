"""Shoot the Moon analyses: headline simulation, Big Moon value (and under the rollout search
player: strong play), hand odds, chip value, strategy matches and rules what-ifs. Every number
carries its n and 95% interval.

Each analysis runs chunk tasks (top-level functions, so joblib can ship them to workers) through
simulator.runner and turns the merged tallies into a Result. Comparisons play the same deals on
both sides: the deal generator of a chunk is re-seeded identically for every arm.
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from moonshot.analysis.common import (Analysis, Call, Hooks, Progress, Setup, one_row, players_said, run, run_many,
                                      unfinished_said)
from moonshot.analysis.result import Result, pick
from moonshot.analysis.shoot_the_moon_hand_check import SPEC as HAND_CHECK
from moonshot.analysis.strong_play import MIN_N, lineups
from moonshot.analysis.words import all_for_players, change, say, shift, spans
from moonshot.analysis.stats import Z, estimate, wilson
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.runner import CHUNK, Share, Tally, chunk_rngs, chunk_seeds, difference, stream_seed
from moonshot.simulator.shoot_the_moon import cards
from moonshot.simulator.shoot_the_moon.engine import Table, deal, play, play_games
from moonshot.simulator.shoot_the_moon.rules import parse_rules

GAME = "shoot-the-moon"
ALL_TABLES = ((2, False), (3, False), (4, False), (4, True), (5, False), (6, False), (6, True))
ROUND_METRICS = ["chips", "p_odd", "p_shoot", "tricks", "moon_chips"]


def round_metrics(res, cols: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Per side (or the chosen side per row when `cols` is given) outcome of a round."""
    chips = (res.chips_after - res.chips_before).astype(np.int64)
    tricks = res.tricks.astype(np.int64)
    moon = res.moon_chips.astype(np.int64)
    if cols is not None:
        rows = np.arange(len(cols))
        chips, tricks, moon = chips[rows, cols], tricks[rows, cols], moon[rows, cols]
    return {"chips": chips, "p_odd": np.isin(tricks, (1, 3)), "p_shoot": tricks == 5,
            "tricks": tricks, "moon_chips": moon}


def _deal(table: Table, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n deals and a random dealer for each, drawn as engine.play draws them (STM-3.2)."""
    return deal(rng, n, table.hands_dealt), rng.integers(0, table.players, n).astype(np.int8)


class StmHooks(Hooks):
    words = {            # how the glossary and table headers name this game's metrics and keys
        "chips": ("chips +/-", "chips won or lost by the side in the round"),
        "p_odd": ("P(odd)", "the side took 1 or 3 tricks (an odd count earns chips, STM-7)"),
        "odd": ("P(odd)", "the side took 1 or 3 tricks"),
        "p_shoot": ("P(shoot)", "the side took all 5 tricks: shot the moon"),
        "shoot": ("P(shoot)", "the side took all 5 tricks"),
        "tricks": ("tricks", "tricks taken by the side in the round"),
        "moon_chips": ("Moon chips", "net chips from Big (+1) and Little (-1) Moons in the side's tricks"),
        "p_annulled": ("P(annulled)", "rounds annulled by a detected revoke"),
        "p_supply_short": ("P(40 chips run out)", "games in which a real 40-chip supply would have run out"),
        "big": ("Big Moons held", "Big Moons in the opening hand"),
        "little": ("Little Moons held", "Little Moons in the opening hand"),
        "red_cards": ("red cards", "red numbered cards in seat 0's opening hand"),
        "highest_red": ("highest red", "the number of seat 0's highest red card (0: none)"),
        "moon_cards": ("Moon cards", "Big and Little Moons in seat 0's opening hand"),
        "longest_suit": ("longest suit", "cards in seat 0's longest suit"),
        "big_before": ("Big Moons before", "Big Moons held before one more was swapped in"),
        "ours": ("our chips", "chips of seat 0's side at the start"),
        "theirs": ("their chips", "chips of every other side at the start"),
        "d_win_one_more_chip": ("P(win) gain of +1 chip", "how much one more chip raises P(win the game)"),
    }
    hands_word = "rounds"
    game_length_names = ("rounds",)
    game_extra_names = ("p_supply_short",)
    side_outcome_names = ("chips", "odd")
    side_outcome_unit = "chips per round and P(odd)"
    metric_words = {"chips": "chips per round", "odd": "P(odd tricks)", "win": "P(winning the game)"}
    seat_outcome_names = ("chips", "p_odd", "p_shoot", "moon_chips")
    headline_names = ("p_odd", "p_shoot", "chips")
    lab_size = (10_000, 100_000)
    lab_baseline = "greedy"
    all_tables = ALL_TABLES

    def start_score(self, setup) -> int:
        return setup.table.rules.starting_chips

    def hand_score(self, setup, res) -> np.ndarray:
        return res.chips_after.astype(np.int64) - res.chips_before

    def make_table(self, players, partners, rule_args, profiles) -> Table:
        cards.validate_table(players, partners)
        return Table(players, partners, parse_rules(rule_args))

    def table_meta(self, setup: Setup) -> dict:
        return {"players": setup.players, "partners": setup.partners}

    def game_length(self, g) -> dict[str, np.ndarray]:
        return {"rounds": g.rounds}

    def game_extras(self, g) -> dict[str, np.ndarray]:
        return {"p_supply_short": g.supply_short}

    def tally_hands(self, setup, res, tally: Tally) -> None:
        S = setup.table.n_sides
        m = round_metrics(res)
        tally.add_columns("sides", "side", m)
        counts = np.stack([np.bincount(m["tricks"][:, s], minlength=cards.TRICKS + 1) for s in range(S)])
        tally.add_counts("tricks_dist", {"side": np.repeat(np.arange(S), cards.TRICKS + 1),
                                         "tricks": np.tile(np.arange(cards.TRICKS + 1), S)}, counts.ravel())
        tally.add("annulled", one_row(len(res.annulled)), {"p_annulled": res.annulled})

    def hand_tables(self, setup, t: Tally, res: Result) -> None:
        res.tables["sides"] = estimate(t.get("sides"), ["side"], ROUND_METRICS)
        dist = t.get("tricks_dist")[["side", "tricks", "n"]]
        totals = dist.groupby("side")["n"].transform("sum")
        p, lo, hi = wilson(dist["n"], totals)
        res.tables["tricks_distribution"] = dist.assign(n=totals, count=dist["n"], metric="share", estimate=p,
                                                        ci_low=lo, ci_high=hi, kind="proportion")
        annulled = t.get("annulled")
        if annulled["p_annulled"].sum() > 0:
            res.tables["annulled"] = estimate(annulled, [], ["p_annulled"])
        side0 = lambda m: res.row("sides", m, side=0)   # noqa: E731
        res.findings.append(f"At {setup.label} a side takes an odd number of tricks in {say(side0('p_odd'))} of "
                            f"rounds and shoots the moon in {say(side0('p_shoot'))}; it wins "
                            f"{say(side0('chips'), signed=True)} chips per round.")
        res.notes.append("chips: net chip change of the side in one round, from the starting chips "
                         f"({setup.table.rules.starting_chips} per side); p_odd: 1 or 3 tricks; p_shoot: all 5.")

    def tally_games(self, setup, g, tally: Tally) -> None:
        tally.add("length_dist", {"rounds": g.rounds}, {})

    def game_tables(self, setup, t: Tally, res: Result) -> None:
        dist = t.get("length_dist")[["rounds", "n"]]
        res.tables["game_length_distribution"] = dist.assign(share=dist["n"] / dist["n"].sum())
        res.notes.append("p_supply_short: share of games in which the 40 physical chips would have run out "
                         "(A-STM-5); the simulation treats chips as unlimited unless stm.chip_supply=finite40.")

    def side_outcomes(self, setup, res) -> dict[str, np.ndarray]:
        return {"chips": res.chips_after - res.chips_before, "odd": np.isin(res.tricks, (1, 3))}

    def first_player(self, setup, g) -> np.ndarray:
        return (g.first_round.dealer + 1) % setup.players           # the dealer's left leads (STM-4.1)

    def headline(self, setup, res) -> dict[str, np.ndarray]:
        """Per round, over the sides: the share taking an odd count, whether one shot the moon,
        the chips a side gains on average."""
        return {"p_odd": Share(np.isin(res.tricks, (1, 3)).mean(axis=1)), "p_shoot": (res.tricks == 5).any(axis=1),
                "chips": (res.chips_after - res.chips_before).mean(axis=1)}

    def seat_outcomes(self, setup, res) -> dict[str, np.ndarray]:
        table = setup.table
        cols = np.tile(table.side_of_seat[:table.players], (len(res.tricks), 1))
        rows = np.arange(len(res.tricks))[:, None]
        tricks = res.tricks[rows, cols]
        return {"chips": (res.chips_after - res.chips_before)[rows, cols], "p_odd": np.isin(tricks, (1, 3)),
                "p_shoot": tricks == 5, "moon_chips": res.moon_chips[rows, cols]}

    def hand_rows(self, setup, res) -> dict[str, np.ndarray]:
        """One row per round (--save-hands): the dealer and, per seat, its hand's features as dealt,
        the tricks it took and its side's chips and Moon chips that round."""
        table = setup.table
        chips = res.chips_after - res.chips_before
        rows = {"dealer": res.dealer.astype(np.int8), "annulled": res.annulled}
        for s in range(table.players):
            side, hand = int(table.side_of_seat[s]), res.hands[:, s]
            rows |= {f"seat{s}_{k}": v.astype(np.int8) for k, v in hand_features(hand).items()}
            rows[f"seat{s}_big_moons"] = np.isin(hand, cards.BIG_MOONS).sum(axis=1).astype(np.int8)
            rows[f"seat{s}_side"] = np.full(len(hand), side, dtype=np.int8)
            rows[f"seat{s}_tricks"] = res.tricks_seat[:, s].astype(np.int8)
            rows[f"seat{s}_side_tricks"] = res.tricks[:, side].astype(np.int8)
            rows[f"seat{s}_chips"] = chips[:, side].astype(np.int16)
            rows[f"seat{s}_moon_chips"] = res.moon_chips[:, side].astype(np.int16)
        return rows


HOOKS = StmHooks()


# --------------------------------------------------------------------------------------------
# big-moon-value
# --------------------------------------------------------------------------------------------

def add_big_moon(hands: np.ndarray, seat: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Swap a Big Moon into `seat`'s hand for one of its non-Moon cards, chosen at random.

    The Big Moon comes from the undealt cards when it is there; otherwise it is swapped with the
    hand that holds it. Returns (new hands, eligible) where eligible = seat held fewer than 2.
    """
    n, H, K = hands.shape
    mine = hands[:, seat]
    held = np.isin(mine, cards.BIG_MOONS)
    eligible = held.sum(axis=1) < 2
    bm = np.where((mine == cards.BIG_MOONS[0]).any(axis=1), cards.BIG_MOONS[1], cards.BIG_MOONS[0]).astype(np.int8)
    plain = ~cards.IS_MOON[mine]
    u = np.where(plain, rng.random(mine.shape), -1.0)
    slot = u.argmax(axis=1)
    rows = np.arange(n)
    out_card = mine[rows, slot]
    new = hands.copy()
    where = hands.reshape(n, H * K) == bm[:, None]
    found = where.any(axis=1)
    pos = where.argmax(axis=1)
    swap = np.flatnonzero(eligible & found)
    new.reshape(n, H * K)[swap, pos[swap]] = out_card[swap]
    take = np.flatnonzero(eligible)
    new[take, seat, slot[take]] = bm[take]
    return new, eligible


def _big_moon_chunk(setup: Setup, seat: int, seed: int, index: int, size: int) -> Tally:
    table, seats = setup.table, setup.seats
    side = int(table.side_of_seat[seat])
    deal_seed, play_seed = chunk_seeds(seed, index)
    deal_rng = np.random.default_rng(deal_seed)
    hands, dealer = _deal(table, deal_rng, size)
    swapped, eligible = add_big_moon(hands, seat, deal_rng)
    later_deals = stream_seed(seed, index, 2)
    arms = []
    for first in (hands, swapped):   # same deal streams and play streams in both arms
        g = play_games(table, size, seats.strategies, np.random.default_rng(later_deals),
                       np.random.default_rng(play_seed), first_hands=first, dealer0=dealer.copy())
        arms.append(g)
    base, treat = arms
    cols = np.full(size, side)
    mb = round_metrics(base.first_round, cols)
    mt = round_metrics(treat.first_round, cols)
    win_b, win_t = base.winner == side, treat.winner == side
    unf_b, unf_t = base.winner < 0, treat.winner < 0
    mine = hands[:, seat]
    tally = Tally()
    tally.add("by_holding", {"big": np.isin(mine, cards.BIG_MOONS).sum(axis=1),
                             "little": np.isin(mine, cards.LITTLE_MOONS).sum(axis=1)},
              {"chips": mb["chips"], "p_odd": mb["p_odd"], "p_shoot": mb["p_shoot"], "p_win": win_b,
               "p_unfinished": unf_b})
    e = np.flatnonzero(eligible)
    big_before = np.isin(mine[e], cards.BIG_MOONS).sum(axis=1)
    tally.add("paired", {"big_before": big_before},
              {"d_chips": (mt["chips"] - mb["chips"])[e],
               "d_odd": difference(mt["p_odd"][e], mb["p_odd"][e]),
               "d_shoot": difference(mt["p_shoot"][e], mb["p_shoot"][e]),
               "d_win": difference(win_t[e], win_b[e]),
               "d_unfinished": difference(unf_t[e], unf_b[e])})
    return tally


def big_moon_value(setups: list[Setup], deals: int, seed: int, jobs: int = 1, progress: Progress = None,
                   seat: int = 0) -> Result:
    """What a Big Moon is worth, by holding and as a paired swap, for each table in `setups`."""
    for s in setups:
        s.validate()
        if not 0 <= seat < s.players:
            raise BadInput(f"--seat {seat} does not exist at a {s.players}-player table; accepted: 0..{s.players - 1}")
    holding, paired = [], []
    tallies = run_many([Call(_big_moon_chunk, (s, seat), deals) for s in setups], seed, jobs, progress)
    for s, t in zip(setups, tallies):
        h = estimate(t.get("by_holding"), ["big", "little"], ["chips", "p_odd", "p_shoot", "p_win", "p_unfinished"])
        holding.append(h.assign(table=s.label, players=s.players, partners=s.partners))
        p = _by_big_before(t, ["d_chips", "d_odd", "d_shoot", "d_win", "d_unfinished"])
        paired.append(p.assign(table=s.label, players=s.players, partners=s.partners))
    first = setups[0]
    meta = first.meta(deals_per_table=deals, seed=seed, seat=seat)
    if len(setups) > 1:                  # several tables ran: say which, not the first one's size
        meta = {k: v for k, v in meta.items() if k not in ("players", "partners")}
    res = Result("Shoot the Moon: what a Big Moon is worth", {**meta, "tables": [s.label for s in setups]})
    res.tables["by_holding"] = _front(pd.concat(holding, ignore_index=True), ["table", "players", "partners"])
    res.tables["paired_value"] = _front(pd.concat(paired, ignore_index=True), ["table", "players", "partners"])
    tables = res.tables["paired_value"]["table"].unique()
    for table in tables:
        row = lambda m: res.row("paired_value", m, table=table, big_before="any")   # noqa: E731
        res.findings.append(f"At {table} a Big Moon swapped into the hand changes "
                            f"{shift(row('d_chips'), 'the chips of that round', len(tables), 'chips')} and "
                            f"{shift(row('d_win'), 'P(winning the game)', len(tables))}.")
    held = res.tables["by_holding"]
    res.findings.append(unfinished_said(held[held["metric"] == "p_unfinished"], deals * len(setups)))
    res.findings = all_for_players(res.findings, " / ".join(dict.fromkeys(players_said(s) for s in setups)))
    res.notes += [
        f"by_holding: seat {seat}'s first-round outcome (chips, P(odd), P(shoot)) and P(its side wins the game) "
        "by the Big and Little Moons in its opening hand.",
        "paired_value: the same deals played twice, once as dealt and once with a Big Moon swapped in for a "
        "random non-Moon card of the hand (taken from the undealt cards when it is there, else swapped with "
        "its holder); d_chips is the change in chips that round, d_win in the probability of winning the game. "
        "big_before = Big Moons held before the swap (hands already holding both are not swapped).",
    ]
    return res


def _front(df: pd.DataFrame, cols: list[str]) -> pd.DataFrame:
    return df[cols + [c for c in df.columns if c not in cols]]


def _by_big_before(t: Tally, metrics: list[str]) -> pd.DataFrame:
    """The paired swap's `metrics` by Big Moons held before it, and over every holding ("any")."""
    pt = t.get("paired")
    both = pt.drop(columns="big_before").sum().to_frame().T.assign(big_before="any")
    return estimate(pd.concat([pt.astype({"big_before": str}), both], ignore_index=True), ["big_before"], metrics)


# --------------------------------------------------------------------------------------------
# strong play: a Big Moon's value with the search player in every seat beside the default lineup
# --------------------------------------------------------------------------------------------

STRONG = "rollout"       # the search player (strategies/stm_search.py) at its default worlds per card
SEARCH_CHUNK = 500       # deals per chunk: few, as rollout games are slow, so --jobs share a strong-play run
PAIRED = ["d_chips", "d_win"]


def big_moon_paired(setup: Setup, deals: int, chunk: int = SEARCH_CHUNK, seat: int = 0):
    """big-moon-value's paired value of a Big Moon swapped into `seat`'s hand for setup's lineup (chips
    that round and P(win)), by Big Moons held before (and "any"), from its chunks in pieces of `chunk`
    deals (the same seed and chunks give every lineup the same deals, swaps and later deals): its
    run, and the reading of its tally as table paired_value (analysis.strong_play.Measure)."""
    return ([Call(_big_moon_chunk, (setup, seat), deals, chunk)],
            lambda tallies: {"paired_value": _by_big_before(tallies[0], PAIRED)})


def strong_play(setup: Setup, deals: int, seed: int, jobs: int = 1, strong: str = STRONG) -> Result:
    """What a Big Moon is worth with `strong` in every seat beside setup's lineup, same deals: table
    paired_value, each lineup's rows and their difference (analysis.strong_play.versus)."""
    base = setup.seats.specs[0]
    res = lineups(setup, strong, lambda s: big_moon_paired(s, deals), {"paired_value": ["big_before"]},
                  "Shoot the Moon: strong play", setup.meta(deals=deals, seed=seed), seed, jobs)
    res.findings += _strong_findings(res.tables["paired_value"], strong, base, deals, players_said(setup))
    res.notes += [
        f"Whole games at {setup.label}, every seat playing {strong} (for each legal card it deals the unseen cards "
        f"{setup.strategy(strong).worlds} ways consistent with what it has seen and plays each out to the end "
        f"of the round) and then every seat playing {base}: the same {deals:,} deals, the same Big Moon swapped in "
        "for the same card, the same later deals. Each lineup's row is a paired difference (with minus without the "
        "swap, as in the Big Moon tables above); a difference row treats the two lineups' runs as independent samples "
        "(the half-widths in quadrature), which leaves out what the shared deals have in common; its n is the "
        f"smaller of the two, and a row gets one only when both have at least {MIN_N} deals in it.",
        f"The report plays these {deals:,} deals in chunks of {SEARCH_CHUNK} so the jobs share them; `moonshot "
        f"analyze shoot-the-moon big-moon-value --strategy {strong} -p 4` runs it at any size, on a cluster with "
        "--scheduler."]
    return res


def _strong_findings(table: pd.DataFrame, strong: str, base: str, deals: int, base_said: str) -> list[str]:
    """The value of a Big Moon (any holding) under each lineup, and the change; `base_said` is the
    setup's lineup in words."""
    at = lambda m, s: pick(table, metric=m, strategy=s, big_before="any")  # noqa: E731
    d = f"{strong} - {base}"
    return ["A Big Moon swapped into the hand changes "
            f"{shift(at('d_chips', strong), 'the chips of that round', unit='chips')} "
            f"with {strong} in every seat and by {say(at('d_chips', base), signed=True)} with {base_said}, on the same "
            f"{deals:,} deals{change(at('d_chips', d))}.",
            f"It changes {shift(at('d_win', strong), 'P(winning the game)')} with {strong} in every seat and by "
            f"{say(at('d_win', base))} with {base_said}{change(at('d_win', d))}."]


# --------------------------------------------------------------------------------------------
# hand-odds
# --------------------------------------------------------------------------------------------

FEATURES = ("red_cards", "highest_red", "moon_cards", "longest_suit")


def hand_features(hand: np.ndarray) -> dict[str, np.ndarray]:
    suit = cards.SUIT[hand]
    red = suit == cards.RED
    lengths = np.stack([(suit == s).sum(axis=1) for s in range(4)], axis=1)
    return {"red_cards": red.sum(axis=1),
            "highest_red": np.where(red, cards.NUMBER[hand], 0).max(axis=1),
            "moon_cards": cards.IS_MOON[hand].sum(axis=1),
            "longest_suit": lengths.max(axis=1)}


def _odds_chunk(setup: Setup, seat: int, seed: int, index: int, size: int) -> Tally:
    table, seats = setup.table, setup.seats
    deal_rng, play_rng = chunk_rngs(seed, index)
    res = play(table, size, seats.strategies, deal_rng, play_rng)
    m = round_metrics(res, np.full(size, table.side_of_seat[seat]))
    m = {"p_odd": m["p_odd"], "p_shoot": m["p_shoot"], "chips": m["chips"]}
    tally = Tally()
    for name, value in hand_features(res.hands[:, seat]).items():
        tally.add(name, {"value": value}, m)
    return tally


def hand_odds(setup: Setup, hands: int, seed: int, jobs: int = 1, progress: Progress = None, seat: int = 0) -> Result:
    setup.validate()
    if not 0 <= seat < setup.players:
        raise BadInput(f"--seat {seat} does not exist; accepted: 0..{setup.players - 1}")
    t = run(_odds_chunk, (setup, seat), hands, seed, jobs, progress)
    res = Result("Shoot the Moon: odds by hand feature", setup.meta(hands=hands, seed=seed, seat=seat))
    for name in FEATURES:
        res.tables[name] = estimate(t.get(name), ["value"], ["p_odd", "p_shoot", "chips"]).rename(
            columns={"value": name})
    reds = res.tables["red_cards"]
    odd = reds[(reds["metric"] == "p_odd") & (reds["n"] >= 30)].sort_values("red_cards")
    if len(odd):
        res.findings.append(spans(odd, lambda r: f"{int(r['red_cards'])} red cards", "red-card count",
                                  "P(odd) by red cards held"))
    res.findings = all_for_players(res.findings, players_said(setup))
    res.notes.append(f"Seat {seat}'s hand as dealt; outcomes of its side in that round. moon_cards counts Big "
                     "and Little Moons; highest_red is 0 with no red card.")
    return res


# --------------------------------------------------------------------------------------------
# chip-value
# --------------------------------------------------------------------------------------------

def chip_states(target: int) -> list[tuple[int, int]]:
    """(our chips, every other side's chips) pairs from which the game is still on."""
    top = target + 1
    return [(a, b) for a in range(top + 1) for b in range(top + 1)
            if not ((a >= target and a > b) or (b >= target and b > a))]


def _chip_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    table, seats = setup.table, setup.seats
    states = np.array(chip_states(table.rules.target_chips))
    which = (index * CHUNK + np.arange(size)) % len(states)
    chips0 = np.repeat(states[which, 1:2], table.n_sides, axis=1)
    chips0[:, 0] = states[which, 0]
    deal_rng, play_rng = chunk_rngs(seed, index)
    g = play_games(table, size, seats.strategies, deal_rng, play_rng, chips0=chips0)
    tally = Tally()
    tally.add("states", {"ours": states[which, 0], "theirs": states[which, 1]},
              {"p_win": g.winner == 0, "p_unfinished": g.winner < 0})
    return tally


def chip_value(setup: Setup, games: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    setup.validate()
    t = run(_chip_chunk, (setup,), games, seed, jobs, progress)
    states = t.get("states")
    res = Result("Shoot the Moon: the value of a chip", setup.meta(games=games, seed=seed))
    res.tables["win_probability"] = estimate(states, ["ours", "theirs"], ["p_win", "p_unfinished"])
    # One more chip: P(win | ours+1, theirs) - P(win | ours, theirs), independent samples.
    p = (states["p_win"] / states["n"]).to_numpy()
    var = p * (1 - p) / states["n"].to_numpy()
    key = {(a, b): i for i, (a, b) in enumerate(zip(states["ours"], states["theirs"]))}
    rows = []
    for (a, b), i in key.items():
        j = key.get((a + 1, b))
        if j is not None:
            d = p[j] - p[i]
            half = Z * np.sqrt(var[i] + var[j])
            rows.append({"ours": a, "theirs": b, "metric": "d_win_one_more_chip", "estimate": d,
                         "n": int(min(states["n"][i], states["n"][j])), "ci_low": d - half, "ci_high": d + half,
                         "kind": "change"})
    res.tables["one_more_chip"] = pd.DataFrame(rows)
    start = setup.table.rules.starting_chips
    one = res.tables["one_more_chip"]
    at_start = one[(one["ours"] == start) & (one["theirs"] == start)]
    if len(at_start):
        res.findings.append(f"From the start ({start} chips each) one more chip changes "
                            f"{shift(at_start.iloc[0], 'P(win)')}.")
    wp = res.tables["win_probability"]
    res.findings.append(unfinished_said(wp[wp["metric"] == "p_unfinished"], games))
    res.findings = all_for_players(res.findings, players_said(setup))
    res.notes += ["Side 0 (seat 0's side) starts the game state with `ours` chips and every other side with "
                  "`theirs`; the first dealer is random. n games per state.",
                  "one_more_chip: the gain in P(win) from holding one chip more (difference of two "
                  "independent estimates; n is the smaller sample)."]
    return res




ANALYSES = {
    "big-moon-value": Analysis(big_moon_value, "games", 20_000, "what a Big Moon is worth, by holding and as a "
                               "paired swap; every table unless --players", every_table=True, takes_seat=True),
    "hand-odds": Analysis(hand_odds, "hands", 200_000, "P(odd), P(shoot) and chips by hand feature",
                          takes_seat=True),
    "chip-value": Analysis(chip_value, "games", 40_000, "P(win the game) from every chips state"),
}


# --------------------------------------------------------------------------------------------
# the hand analyzer: `moonshot hand shoot-the-moon --hand ...`
# --------------------------------------------------------------------------------------------

SEAT_ORDERS = ("first", "second", "third", "fourth", "fifth", "last")


def deal_with_hand(rng: np.random.Generator, n: int, table: Table, hand: list[int]) -> np.ndarray:
    """n deals in which seat 0 holds `hand`: the other 47 cards shuffled to the other hands (and
    the dummy stack with two players); the undealt cards stay out, as in a real deal."""
    rest = np.setdiff1d(np.arange(cards.DECK_SIZE, dtype=np.int8), np.array(hand, dtype=np.int8))
    decks = rng.permuted(np.broadcast_to(rest, (n, len(rest))), axis=1)
    H = table.hands_dealt
    hands = np.empty((n, H, cards.HAND_SIZE), dtype=np.int8)
    hands[:, 0] = hand
    hands[:, 1:] = decks[:, :cards.HAND_SIZE * (H - 1)].reshape(n, H - 1, cards.HAND_SIZE)
    return hands


def _hand_chunk(setup: Setup, hand: tuple[int, ...], position: int, seed: int, index: int, size: int) -> Tally:
    table = setup.table
    deal_rng, play_rng = chunk_rngs(seed, index)
    dealer = np.full(size, (-1 - position) % table.players, dtype=np.int8)
    res = play(table, size, setup.seats.strategies, None, play_rng, hands=deal_with_hand(deal_rng, size, table, hand),
               dealer=dealer)
    m = round_metrics(res, np.full(size, table.side_of_seat[0]))
    tally = Tally()
    tally.add("hand", one_row(size), {"p_odd": m["p_odd"], "p_shoot": m["p_shoot"], "chips": m["chips"],
                                      "tricks": m["tricks"]})
    tally.add("tricks_dist", {"tricks": m["tricks"]}, {})
    return tally


def analyze_hand(setup: Setup, hand_text: str, seat_order: str, samples: int, seed: int, jobs: int = 1,
                 progress: Progress = None, check_samples: int | None = None) -> Result:
    """P(odd), P(shoot) and expected chips of one five-card hand held by seat 0, and their check with
    the search player in every seat on the first `check_samples` deals
    (analysis/shoot_the_moon_hand_check.py; None: HAND_CHECK's default, 0: no check)."""
    from moonshot.analysis.hand_check import check_deals, seated
    from moonshot.analysis.shoot_the_moon_hand_check import check_value
    setup.validate()
    hand = cards.parse_cards(hand_text.split())
    if len(hand) != cards.HAND_SIZE:
        raise BadInput(f"hand {short(hand_text)} has {len(hand)} cards; accepted: exactly {cards.HAND_SIZE} cards, "
                       'e.g. "R12 R7 BM G3 P5"')
    orders = SEAT_ORDERS[:setup.players - 1] + ("last",)
    if seat_order not in orders:
        raise BadInput(f"unknown --seat-order {short(seat_order)} at {setup.players} players; accepted: "
                       f"{', '.join(orders)} (first leads, last deals)")
    position = orders.index(seat_order)
    deals = check_deals(check_samples, samples, HAND_CHECK, setup.players)
    chunk = min(16_384, setup.chunk())
    t = run(_hand_chunk, (setup, tuple(hand), position), samples, seed, jobs, progress, chunk=chunk)
    names = [cards.card_name(c) for c in hand]
    res = Result(f"Shoot the Moon: hand {' '.join(names)}",
                 setup.meta(hand=names, seat_order=seat_order, samples=samples, seed=seed))
    res.tables["hand"] = estimate(t.get("hand"), [], ["p_odd", "p_shoot", "chips", "tricks"])
    dist = t.get("tricks_dist")[["tricks", "n"]]
    res.tables["tricks_distribution"] = dist.assign(share=dist["n"] / dist["n"].sum())
    players = seated(setup.seats.specs, setup.table.side_of_seat)
    res.findings.append(f"{players[0].upper()}{players[1:]}, this hand's side takes an odd number of tricks "
                        f"{say(res.row('hand', 'p_odd'))} of the "
                        f"time, shoots the moon {say(res.row('hand', 'p_shoot'))}, and wins "
                        f"{say(res.row('hand', 'chips'), signed=True)} chips in the round.")
    res.notes.append(f"Seat 0 holds the hand and plays {seat_order} (position {position} after the dealer); the "
                     f"other cards are dealt at random, {samples:,} deals, from {setup.table.rules.starting_chips} "
                     "chips a side.")
    if deals:
        check_value(res, setup, tuple(hand), position, samples, deals, seed, jobs, progress, chunk, deal_with_hand,
                    round_metrics)
    return res
