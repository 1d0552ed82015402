"""Hit the Deck analyses: headline simulation, what each card is worth in the opening hand (and
under the rollout search player: strong play), what quick (or forgetful) hands at the slap are
worth, seat advantage and the opening-hand analyzer.
Every number carries its n and 95% interval; comparisons play the same deals, play and chance
streams on every arm.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from moonshot.analysis.common import (Analysis, Call, Hooks, Progress, Setup, lineup_of, one_row, players_said, run,
                                      run_many, unfinished_said)
from moonshot.analysis.result import Result
from moonshot.analysis.strong_play import MIN_N, lineups
from moonshot.analysis.words import all_for_players, effects, first_up, say, stands_out
from moonshot.analysis.stats import estimate
from moonshot.simulator.errors import BadInput, short
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.hit_the_deck import engine
from moonshot.simulator.hit_the_deck.profiles import reaction_in_force, seat_profiles
from moonshot.simulator.hit_the_deck.rules import Rules, parse_rules
from moonshot.simulator.runner import Tally, chunk_rngs, chunk_seeds, difference, generators, stream_seed

GAME = "hit-the-deck"
CAUSES = ("slap", "forgot", "false_slap")          # penalty cards by cause, as in Result.penalty
ALL_TABLES = tuple((p, False) for p in range(2, 7))
HAND_METRICS = ["p_out", "penalty", *(f"cards_{c}" for c in CAUSES)]


def seat_metrics(res) -> dict[str, np.ndarray]:
    """(n, P) per seat: went out first, penalty points this hand, penalty cards by cause."""
    P = res.score.shape[1]
    out = {"p_out": res.went_out[:, None] == np.arange(P), "penalty": res.score.astype(np.int64)}
    for c, cause in enumerate(CAUSES):
        out[f"cards_{cause}"] = res.penalty[:, :, c].astype(np.int64)
    return out


class HtdHooks(Hooks):
    words = {            # how the glossary and table headers name this game's metrics and keys
        "p_out": ("P(out first)", "the seat went out first (played its last card)"),
        "out": ("P(out first)", "the seat went out first"),
        "penalty": ("penalty points", "points scored in the hand: cards left (numbers face value, others 10)"),
        "cards_slap": ("cards: slap lost", "penalty cards drawn for losing the slap race"),
        "cards_forgot": ("cards: forgot", "penalty cards drawn for forgetting to shout"),
        "cards_false_slap": ("cards: false slap", "penalty cards drawn for slapping the wrong card"),
        "turns": ("turns", "turns in the hand (HTD-6.5)"),
        "p_blocked": ("P(blocked)", "hands that ended with nobody out (HTD-6.4/6.5)"),
        "p_max_turns": ("P(turn cap)", "hands ended by htd.max_turns"),
        "p_shared": ("P(shared win)", "games ending in a tie for the lowest total"),
        "p_p_out": ("P(out first)", "the seat went out first"),
        "win_vs_off": ("P(win) vs perfect reflexes", "change in P(win) against an `off` profile"),
        "profile": ("profile", "reaction profile: off (perfect), adult, distracted, child"),
        "card": ("card", "the kind of card swapped into the opening hand"),
    }
    hands_word = "hands"
    game_unit = "P(winning the game; a shared win counts)"
    side_outcome_names = ("penalty", "out")
    side_outcome_unit = "penalty points per hand and P(going out first)"
    lower_is_better = ("penalty",)
    metric_words = {"penalty": "penalty points per hand", "out": "P(going out first)", "win": "P(winning the game)"}
    seat_outcome_names = ("penalty", "p_out", "turns")
    headline_names = ("penalty", "p_blocked", *(f"cards_{c}" for c in CAUSES), "turns")
    lab_size = (1_000, 10_000)
    lab_baseline = "dump"
    all_tables = ALL_TABLES

    def make_table(self, players, partners, rule_args, profiles) -> engine.Table:
        if partners:
            raise BadInput("hit-the-deck has no partnerships; accepted: --players 2..6 without --partners")
        rules = parse_rules(rule_args, players)
        rules = replace(rules, reaction=reaction_in_force(rules.reaction, profiles))    # what records name
        return engine.Table(players, rules, seat_profiles(list(profiles), players, default=rules.reaction))

    default_profile = Rules.reaction      # htd.reaction's default, not a second copy of it

    def table_meta(self, setup: Setup) -> dict:
        # each seat's full spec (child:mu=900), so a custom parameter is in the header and the JSON
        return {"players": setup.players, "profiles": [p.spec() for p in setup.table.profiles]}

    def play(self, setup, strategies, rngs, size, record=False):
        return engine.play(setup.table, size, strategies, *rngs, record=record)

    def wins(self, setup, g) -> np.ndarray:
        return g.winners

    def unfinished(self, g) -> np.ndarray:
        return ~g.winners.any(axis=1)

    def game_extras(self, g) -> dict[str, np.ndarray]:
        return {"p_shared": g.winners.sum(axis=1) > 1}

    game_extra_names = ("p_shared",)

    def tally_hands(self, setup, res, tally: Tally) -> None:
        tally.add_columns("seats", "seat", seat_metrics(res))
        size = len(res.went_out)
        tally.add("hand", one_row(size), {"turns": res.turns.astype(np.int64), "p_blocked": res.went_out < 0,
                                          "p_max_turns": res.hit_max_turns})
        tally.add("length", {"turns": np.minimum(res.turns, 400) // 10 * 10}, {})

    def hand_tables(self, setup, t: Tally, res: Result) -> None:
        res.tables["seats"] = estimate(t.get("seats"), ["seat"], HAND_METRICS)
        res.tables["hand"] = estimate(t.get("hand"), [], ["turns", "p_blocked", "p_max_turns"])
        dist = t.get("length")[["turns", "n"]]
        res.tables["hand_length_distribution"] = dist.assign(share=dist["n"] / dist["n"].sum())
        seats = res.tables["seats"]
        out = seats[seats["metric"] == "p_out"]
        res.findings.append(stands_out(out, lambda r: f"seat {int(r['seat'])}", "seat", "goes out first most often",
                                       "P(out first)"))
        res.findings.append(f"A hand lasts {say(res.row('hand', 'turns'))} turns and seat 0 draws "
                            f"{say(res.row('seats', 'cards_slap', seat=0))} penalty cards from lost slap races.")
        res.notes += [
            "Per seat (the dealer is drawn at random for each hand): p_out = went out first; penalty = "
            "points scored this hand (0 for the seat that went out); cards_* = penalty cards drawn by cause "
            "(slap race lost, forgotten shout, false slap).",
            "turns: turns in the hand (HTD-6.5); p_blocked: hands ended by HTD-6.4/6.5 with nobody out; "
            "hand_length_distribution bins turns by 10 (400 = 400 or more).",
        ]

    def game_tables(self, setup, t: Tally, res: Result) -> None:
        res.notes.append("p_win counts a shared win (a tie for the lowest total, A-HTD-8) as a win for each tied "
                         "seat; p_shared is how often the game ended in one.")

    def side_outcomes(self, setup, res) -> dict[str, np.ndarray]:
        m = seat_metrics(res)
        return {"penalty": m["penalty"], "out": m["p_out"]}

    def first_player(self, setup, g) -> np.ndarray:
        return (g.first_hand.dealer + 1) % setup.players            # the dealer's left plays first

    def headline(self, setup, res) -> dict[str, np.ndarray]:
        """Per hand, averaged over the seats: penalty points and penalty cards by cause; whether the
        hand was blocked, and its turns."""
        m = seat_metrics(res)
        return {"penalty": m["penalty"].mean(axis=1), "p_blocked": res.went_out < 0,
                **{f"cards_{c}": m[f"cards_{c}"].mean(axis=1) for c in CAUSES}, "turns": res.turns.astype(np.int64)}

    def seat_outcomes(self, setup, res) -> dict[str, np.ndarray]:
        m = seat_metrics(res)
        P = res.score.shape[1]
        return {"penalty": m["penalty"], "p_out": m["p_out"], "turns": np.repeat(res.turns[:, None], P, axis=1)}

    def hand_rows(self, setup, res) -> dict[str, np.ndarray]:
        """One row per hand (--save-hands): dealer, who went out (-1 blocked), turns; per seat its
        opening hand by class and points held, its penalty points, penalty cards by cause and its
        slap-race counts."""
        rows = {"dealer": res.dealer.astype(np.int8), "went_out": res.went_out.astype(np.int8),
                "turns": res.turns.astype(np.int16), "blocked": res.blocked, "hit_max_turns": res.hit_max_turns}
        classes = (("numbers", cards.NUMBER), ("cuts", cards.CUT), ("flips", cards.FLIP), ("htd_n", cards.HTD_N),
                   ("htd_c", cards.HTD_C), ("htd_h", cards.HTD_H))
        for s in range(res.score.shape[1]):
            hand = res.hands[:, s]
            rows |= {f"seat{s}_{name}": (cards.CLASS[hand] == k).sum(axis=1).astype(np.int8) for name, k in classes}
            rows[f"seat{s}_points_held"] = cards.PENALTY[hand].sum(axis=1, dtype=np.int16)
            rows[f"seat{s}_penalty"] = res.score[:, s].astype(np.int16)
            rows |= {f"seat{s}_cards_{cause}": res.penalty[:, s, c].astype(np.int16) for c, cause in enumerate(CAUSES)}
            for name in ("shouts", "slaps_lost", "forgot", "false_slaps"):
                rows[f"seat{s}_{name}"] = getattr(res, name)[:, s].astype(np.int16)
        return rows


HOOKS = HtdHooks()


# --------------------------------------------------------------------------------------------
# card-value: one more card of a kind in the opening hand, same deals
# --------------------------------------------------------------------------------------------

_COLOURS, _VALUES = range(cards.N_COLOURS), range(1, cards.N_VALUES + 1)
CARD_KINDS = {f"number {v}": [cards.number_card(c, v) for c in _COLOURS] for v in _VALUES}
CARD_KINDS.update({"Cut": [cards.cut(c) for c in _COLOURS], "Flip": [cards.flip(c) for c in _COLOURS],
                   "HTD-N": [cards.htd_n(v) for v in _VALUES], "HTD-C": [cards.htd_c(c) for c in _COLOURS],
                   "HTD-H": [cards.HH]})


def swap_in(hands: np.ndarray, draw: np.ndarray, seat: int, kinds: list[int], rng: np.random.Generator):
    """Give `seat` one more card of `kinds` in place of one of its number cards (chosen at random).

    The card comes from a random position holding such a card among the draw pile and the other
    hands; the number card goes where it was. Returns (hands, draw, eligible): a row is eligible
    when the seat holds a number card and such a card exists outside its hand."""
    n, P, K = hands.shape
    mine = hands[:, seat]
    u = np.where(cards.CLASS[mine] == cards.NUMBER, rng.random(mine.shape), -1.0)
    slot = u.argmax(axis=1)
    other_seats = [s for s in range(P) if s != seat]
    pool = np.concatenate([hands[:, other_seats].reshape(n, -1), draw], axis=1)
    v = np.where(np.isin(pool, kinds), rng.random(pool.shape), -1.0)
    pos = v.argmax(axis=1)
    eligible = (u.max(axis=1) >= 0) & (v.max(axis=1) >= 0)
    rows = np.flatnonzero(eligible)
    new_card = pool[rows, pos[rows]].copy()
    pool[rows, pos[rows]] = mine[rows, slot[rows]]
    swapped = hands.copy()
    swapped[:, other_seats] = pool[:, :(P - 1) * K].reshape(n, P - 1, K)
    swapped[rows, seat, slot[rows]] = new_card
    return swapped, pool[:, (P - 1) * K:], eligible


def _card_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    table, strategies = setup.table, setup.seats.strategies
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    deal_rng = np.random.default_rng(seeds[0])
    hands, draw = engine.deal(deal_rng, size, table)
    dealer = deal_rng.integers(0, table.players, size).astype(np.int8)
    swap_rng = np.random.default_rng(stream_seed(seed, index, setup.entry.streams))   # the stream after the engine's

    def outcome(h, d, arm: int):
        _, play_rng, chance_rng = generators(seeds)
        with lineup_of(arm, 1 + len(CARD_KINDS)):         # the games of arm k count as that share of the chunk
            g = engine.play_games(table, size, strategies, np.random.default_rng(seeds[0]), play_rng, chance_rng,
                                  first_hands=h, first_draw=d, dealer0=dealer)
        m = seat_metrics(g.first_hand)
        return {"p_out": m["p_out"][:, 0], "penalty": m["penalty"][:, 0], "win": g.winners[:, 0],
                "unfinished": ~g.winners.any(axis=1)}

    base = outcome(hands, draw, 0)
    unfinished = base["unfinished"].copy()             # in any arm: as dealt or with any card swapped in
    tally = Tally()
    for arm, (label, kinds) in enumerate(CARD_KINDS.items(), 1):
        h2, d2, ok = swap_in(hands, draw, 0, kinds, swap_rng)
        treat = outcome(h2, d2, arm)
        unfinished |= treat["unfinished"]
        e = np.flatnonzero(ok)
        tally.add("paired", {"card": np.full(len(e), list(CARD_KINDS).index(label))},
                  {f"d_{k}": difference(treat[k][e], base[k][e]) for k in base})
    tally.add("unfinished", one_row(size), {"p_unfinished": unfinished})
    return tally


def card_value(setups: list[Setup], games: int, seed: int, jobs: int = 1, progress: Progress = None,
               chunk: int | None = None) -> Result:
    """For each card kind, the paired value of one more in seat 0's opening hand, by table size
    (every table's chunks in one stream over the workers; `chunk` games each, Setup.chunk's by default)."""
    for s in setups:
        s.validate()
    calls = [Call(_card_chunk, (s,), games, chunk) for s in setups]
    return _card_values(setups, games, seed, run_many(calls, seed, jobs, progress))


def _card_values(setups: list[Setup], games: int, seed: int, tallies: list[Tally]) -> Result:
    """card_value's Result from each setup's tally."""
    parts, unfinished = [], []
    for s, t in zip(setups, tallies):
        unfinished.append(estimate(t.get("unfinished"), [], ["p_unfinished"]))
        p = estimate(t.get("paired"), ["card"], ["d_p_out", "d_penalty", "d_win", "d_unfinished"])
        p["card"] = [list(CARD_KINDS)[int(i)] for i in p["card"]]
        parts.append(p.assign(players=s.players))
    meta = setups[0].meta(games_per_table=games, seed=seed)
    if len(setups) > 1:                  # several tables ran: say which, not the first one's size
        meta = {k: v for k, v in meta.items() if k not in ("players", "profiles")}
    res = Result("Hit the Deck: what a card is worth in the opening hand",
                 {**meta, "tables": [s.label for s in setups]})
    table = pd.concat(parts, ignore_index=True)
    res.tables["card_value"] = table[["players", *[c for c in table.columns if c != "players"]]]
    at = table[table["players"] == (4 if 4 in table["players"].values else table["players"].iloc[0])]
    players = int(at["players"].iloc[0])
    for name, words in (("d_p_out", "P(going out first that hand)"), ("d_win", "P(winning the game)")):
        res.findings.append(f"One more card in the opening hand at {players} players, {words}: "
                            + effects(at[at["metric"] == name], lambda r: r["card"], "card", words))
    res.findings.append(unfinished_said(pd.concat(unfinished, ignore_index=True), games * len(setups)))
    res.findings = all_for_players(res.findings, " / ".join(dict.fromkeys(players_said(s) for s in setups)))
    res.notes.append("Each game is played twice from the same deal, play and chance streams: as dealt, and with "
                     "one card of the kind swapped into seat 0's opening hand for a random number card of it "
                     "(taken from the draw pile or another hand). d_p_out: change in P(seat 0 goes out first in "
                     "that hand); d_penalty: change in its penalty points that hand; d_win: change in P(it wins "
                     "the game, a shared win counts).")
    return res


# --------------------------------------------------------------------------------------------
# strong play: card values with the search player in every seat beside the default lineup
# --------------------------------------------------------------------------------------------

STRONG = "rollout"          # the search player (strategies/htd_search.py) at its default worlds per option
# paired games per chunk (11 games each a lineup, with slow rollout), so --jobs share them
SEARCH_CHUNK = 2


def strong_play(setup: Setup, games: int, seed: int, jobs: int = 1, strong: str = STRONG) -> Result:
    """What one more card of each kind is worth with `strong` in every seat beside setup's lineup, on
    the same deals and swaps (card_value at this table): table card_value, each lineup's rows and
    their difference (analysis.strong_play.versus)."""
    base = setup.seats.specs[0]
    def measure(s: Setup):
        return ([Call(_card_chunk, (s,), games, SEARCH_CHUNK)],
                lambda tallies: _card_values([s], games, seed, tallies).tables)
    res = lineups(setup, strong, measure, {"card_value": ["card"]}, "Hit the Deck: strong play",
                  setup.meta(games=games, seed=seed), seed, jobs)
    res.findings += _strong_findings(res.tables["card_value"], strong, base, players_said(setup))
    player = setup.strategy(strong)
    res.notes += [
        f"Whole games at {setup.label}, every seat playing {strong} (at each choice it deals what it cannot see "
        f"{getattr(player, 'worlds', 'many')} ways that fit its view, plays every option out to the end of the "
        f"hand with {getattr(player, 'policy_name', 'its policy')} in every seat and keeps the policy's own choice "
        "unless another beats it clearly on the same worlds), then every seat playing "
        f"{base}: the same {games:,} deals, the same card swapped in. A difference row treats the two lineups' runs "
        "as independent samples (the half-widths in quadrature); a card gets one only when both have at least "
        f"{MIN_N} games in it.",
        f"`moonshot analyze hit-the-deck card-value --strategy {strong}` runs it at any size, on a cluster with "
        "--scheduler."]
    return res


def _strong_findings(table: pd.DataFrame, strong: str, base: str, base_said: str) -> list[str]:
    """How the card values moved from `base` (in words: `base_said`) to `strong` in every seat (the
    difference rows)."""
    diff = table[table["strategy"] == f"{strong} - {base}"]
    out = []
    for name, what in (("d_penalty", "the value of a card in penalty points that hand"),
                       ("d_win", "the value of a card in P(winning the game)")):
        rows = diff[diff["metric"] == name]
        if len(rows):
            out.append(f"{strong} in every seat instead of {base_said}: "
                       + effects(rows, lambda r: r["card"], "card", what))
    if not out:
        out.append(f"Too few games for a difference between {strong} in every seat and {base_said} (at least "
                   f"{MIN_N} per card); the table shows both lineups.")
    return out

# --------------------------------------------------------------------------------------------
# reaction-value: one seat's reflexes changed, same deals
# --------------------------------------------------------------------------------------------

REACTION_PROFILES = ("off", "adult", "distracted", "child")


def _reaction_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    tally = Tally()
    base_win = None
    for code, name in enumerate(REACTION_PROFILES):
        arm = replace(setup, profile_specs=tuple(setup.profile_specs) + (f"0={name}",))
        g = engine.play_games(arm.table, size, arm.seats.strategies, *generators(seeds))
        m = seat_metrics(g.first_hand)
        win = g.winners[:, 0]
        base_win = win if base_win is None else base_win
        tally.add("profiles", {"profile": np.full(size, code)},
                  {**{f"cards_{c}": m[f"cards_{c}"][:, 0] for c in CAUSES}, "penalty": m["penalty"][:, 0],
                   "p_win": win, "p_unfinished": ~g.winners.any(axis=1), "d_win_vs_off": difference(win, base_win)})
    return tally


def reaction_value(setup: Setup, games: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    """Seat 0 with each reaction profile (the others as set up), same deals: penalties and wins."""
    return reaction_values([setup], games, seed, jobs, progress)[0]


def reaction_values(setups: list[Setup], games: int, seed: int, jobs: int = 1,
                    progress: Progress = None) -> list[Result]:
    """reaction_value at each of `setups`, their chunks in one stream over the workers."""
    for s in setups:
        s.validate()
    tallies = run_many([Call(_reaction_chunk, (s,), games) for s in setups], seed, jobs, progress)
    return [_reaction_result(s, games, seed, t) for s, t in zip(setups, tallies)]


def _reaction_result(setup: Setup, games: int, seed: int, t: Tally) -> Result:
    table = estimate(t.get("profiles"), ["profile"], [*(f"cards_{c}" for c in CAUSES), "penalty", "p_win",
                                                        "p_unfinished", "d_win_vs_off"])
    table["profile"] = [REACTION_PROFILES[int(i)] for i in table["profile"]]
    res = Result("Hit the Deck: what quick hands are worth", setup.meta(games=games, seed=seed))
    res.tables["reaction_value"] = table
    d = table[table["metric"] == "d_win_vs_off"].set_index("profile")
    res.findings.append(f"Against perfect reflexes, an adult seat's P(win) changes by {say(d.loc['adult'])} "
                        f"and a child's by {say(d.loc['child'])}.")
    res.findings.append(unfinished_said(table[table["metric"] == "p_unfinished"], games))
    res.findings = all_for_players(res.findings, players_said(setup))
    res.notes.append("Seat 0's reaction profile is set to each of off (perfect reflexes), adult, distracted and "
                     "child, the other seats as set up, on the same deals, play and chance streams. cards_*: "
                     "penalty cards seat 0 drew in the first hand by cause; penalty: its points that hand; p_win: "
                     "P(it wins the game); d_win_vs_off: the paired change in P(win) against perfect reflexes.")
    return res


# --------------------------------------------------------------------------------------------
# seat-advantage and the opening-hand analyzer
# --------------------------------------------------------------------------------------------

def _seat_chunk(setup: Setup, seed: int, index: int, size: int) -> Tally:
    table = setup.table
    g = engine.play_games(table, size, setup.seats.strategies, *chunk_rngs(seed, index, setup.entry.streams))
    P = table.players
    m = seat_metrics(g.first_hand)
    seat = np.arange(P)
    position = (seat[None, :] - g.first_hand.dealer[:, None] - 1) % P     # 0 = plays first
    tally = Tally()
    tally.add("positions", {"position": position.ravel()},
              {"p_out": m["p_out"].ravel(), "penalty": m["penalty"].ravel(), "p_win": g.winners.ravel(),
               "p_unfinished": np.repeat(~g.winners.any(axis=1), P)})
    return tally


def seat_advantage(setup: Setup, games: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    setup.validate()
    t = run(_seat_chunk, (setup,), games, seed, jobs, progress)
    res = Result("Hit the Deck: does it pay to play first?", setup.meta(games=games, seed=seed))
    res.tables["positions"] = estimate(t.get("positions"), ["position"], ["p_out", "penalty", "p_win", "p_unfinished"])
    p = res.tables["positions"]
    position = lambda r: f"position {int(r['position'])}"         # noqa: E731
    # each measure once, with the intervals its verdict is made on (the table has the plain ones)
    res.findings.append(stands_out(p[p["metric"] == "p_win"], position, "position", "wins most often", "P(win)"))
    res.findings.append(stands_out(p[p["metric"] == "p_out"], position, "position",
                                   "goes out first most often in the first hand", "P(out first) in the first hand"))
    res.findings.append(unfinished_said(p[p["metric"] == "p_unfinished"], games))
    res.findings = all_for_players(res.findings, players_said(setup))
    res.notes.append(f"position 0 plays first (the dealer's left), position {setup.players - 1} is the first "
                     "hand's dealer. p_out and penalty: the first hand; p_win: the whole game (the deal then "
                     "passes as htd.dealer_rotation says).")
    return res


SEAT_ORDERS = ("first", "second", "third", "fourth", "fifth", "last")


def deal_with_hand(rng: np.random.Generator, n: int, table: engine.Table, hand: list[int]):
    """n deals in which seat 0 holds `hand`: the rest of the deck shuffled to the others and the pile."""
    P = table.players
    left = table.deck_counts.astype(np.int64) - np.bincount(hand, minlength=cards.N_KINDS)
    rest = np.repeat(np.arange(cards.N_KINDS, dtype=np.int8), left)
    decks = rng.permuted(np.broadcast_to(rest, (n, len(rest))), axis=1)
    K = cards.HAND_SIZE
    hands = np.empty((n, P, K), dtype=np.int8)
    hands[:, 0] = hand
    hands[:, 1:] = decks[:, :K * (P - 1)].reshape(n, P - 1, K)
    return hands, np.ascontiguousarray(decks[:, K * (P - 1):])


def _hand_chunk(setup: Setup, hand: tuple[int, ...], position: int, seed: int, index: int, size: int,
                progress=None) -> Tally:
    """One chunk of the hand analyzer; `progress(done, of)` (runner.run_chunks) hears the hands
    finished after each pass of the engine, of `size`. It changes no number."""
    table = setup.table
    deal_rng, play_rng, chance_rng = chunk_rngs(seed, index, setup.entry.streams)
    hands, draw = deal_with_hand(deal_rng, size, table, list(hand))
    dealer = np.full(size, (-1 - position) % table.players, dtype=np.int8)
    res = engine.play(table, size, setup.seats.strategies, None, play_rng, chance_rng, dealer=dealer, hands=hands,
                 draw_pile=draw, _hook=None if progress is None else _hands_finished(size, progress))
    m = seat_metrics(res)
    tally = Tally()
    tally.add("hand", one_row(size), {k: v[:, 0] for k, v in m.items()})
    tally.add("penalty_dist", {"penalty": np.minimum(m["penalty"][:, 0], 100) // 5 * 5}, {})
    return tally


def _hands_finished(size: int, progress):
    """The engine's end-of-pass hook that tells progress(done, size) the hands finished so far
    (finished hands are DONE, or already retired from the live arrays)."""
    from moonshot.simulator.hit_the_deck.engine.state import DONE

    def hook(st) -> None:
        progress(size - int(np.count_nonzero(st.phase != DONE)), size)
    return hook


def analyze_hand(setup: Setup, hand_text: str, seat_order: str, samples: int, seed: int, jobs: int = 1,
                 progress: Progress = None) -> Result:
    """P(go out first) and the penalty distribution of one opening hand."""
    from moonshot.analysis.hand_check import seated
    setup.validate()
    hand = tuple(cards.parse_hand(hand_text, setup.table.rules, size=cards.HAND_SIZE))
    orders = SEAT_ORDERS[:setup.players - 1] + ("last",)
    if seat_order not in orders:
        raise BadInput(f"unknown --seat-order {short(seat_order)} at {setup.players} players; accepted: "
                       f"{', '.join(orders)} (first plays first, last deals)")
    position = orders.index(seat_order)
    t = run(_hand_chunk, (setup, hand, position), samples, seed, jobs, progress, chunk=16_384)
    res = Result(f"Hit the Deck: hand {' '.join(cards.name(k) for k in hand)}",
                 setup.meta(hand=[cards.name(k) for k in hand], seat_order=seat_order, samples=samples, seed=seed))
    res.tables["hand"] = estimate(t.get("hand"), [], HAND_METRICS)
    dist = t.get("penalty_dist")[["penalty", "n"]]
    res.tables["penalty_distribution"] = dist.assign(share=dist["n"] / dist["n"].sum())
    players = seated(setup.seats.specs, setup.table.side_of_seat)
    res.findings.append(f"{first_up(players)}, this hand goes out first {say(res.row('hand', 'p_out'))} of the time "
                        f"and scores {say(res.row('hand', 'penalty'))} penalty points on average.")
    res.notes.append(f"Seat 0 holds the hand and plays {seat_order} (position {position} after the dealer); the "
                     f"other cards are dealt at random, {samples:,} deals. p_out: it goes out first; penalty: "
                     "its points that hand; penalty_distribution bins points by 5 (100 = 100 or more).")
    return res


ANALYSES = {       # default sizes: a few minutes each on one core (card-value plays 11 arms at 5 tables)
    "card-value": Analysis(card_value, "games", 300, "the paired value of one more card of each kind in the "
                           "opening hand, by table size; every table unless --players", every_table=True),
    "reaction-value": Analysis(reaction_value, "games", 4_000, "one seat's reflexes (off, adult, distracted, "
                               "child) against the others': penalty cards by cause and games won"),
    "seat-advantage": Analysis(seat_advantage, "games", 20_000, "going out first and winning by position"),
}
