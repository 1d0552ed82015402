"""Rules lab: which house rules matter, and how. Every rules flag of a game (or named sets of
changes) is played on the same deals and games as the defaults, one change at a time, and the
paired differences are ranked: game length, fairness (the first player's edge, the spread of P(win)
over positions, and the weakest seat's P(win)), the game's headline rates, and skill: how much more
often the game's strong cheap player wins than its baseline, the simplest non-random heuristic, at
the same table. The edge over `random` is a second, named measure and never called skill: a rule
can change how badly random play does (it takes a voluntary draw as one more uniform option)
without changing what skill is worth, and the findings say when that is all a rule does.

Seats that differ in reaction profile keep it in the skill games: the strong player takes each
seat of the most common profile in turn and is compared with baseline players in like seats, while
a handicapped seat keeps its profile and the table's player (rules_lab_words.skill_seats).

Built on the what-if machinery (analysis.common): every arm replays the chunk's seeds
(chunk_seeds), so a rule change's numbers are `whatif`'s with the same flag, seed and chunk size.
The defaults are played once per chunk and paired with every change. `until` (--until WIDTH) plays
the games in rounds (analysis.until) until every P(win) effect the findings quote is that narrow.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np
import pandas as pd

from moonshot.analysis import variance
from moonshot.analysis.common import (Call, Progress, Setup, game_values, one_row, outcomes_differ, paired, run_many,
                                      variant_rules, workers)
from moonshot.analysis.result import Result
from moonshot.analysis.rules_lab_words import (RANDOM, findings as _findings, flags_of as _flags, ignored_by,
                                               lab_players, notes as _notes, seat_findings, silent_reason,
                                               skill_only, skill_seats)
from moonshot.analysis.rules_lab_stats import (effect_sizes, moments_of as _moments, shared_ranks, spread as _spread,
                                               weakest as _weakest)
from moonshot.analysis.stats import estimate, wilson
from moonshot.analysis.words import for_players, widened
from moonshot.simulator.errors import BadInput
from moonshot.simulator.runner import DEFAULT_SEED, Change, Tally, chunk_seeds, generators

GAMES_CHUNK = 500          # games per chunk: a few thousand games spread over every job, and batches stay big
HANDS_CHUNK = 5_000        # enough for the engines (Hit the Deck plays 500 games at 4.5 ms each, 250 at 7.7)
DEFAULTS = "defaults"
GAME_MEASURES = ("first_edge", "spread", "weakest", "skill", "random_edge", "p_unfinished")   # after the length
FROM_MOMENTS = ("spread", "weakest")       # measures of the arms' P(win) by position or seat, from their co-moments
UNTIL = ("d_first_edge", "d_spread", "d_weakest", "d_skill", "d_random_edge", "d_unfinished")   # --until's effects


@dataclass(frozen=True)
class Arm:
    """One rule set played against the defaults: its name and its changes (flag=value)."""
    label: str
    args: tuple[str, ...]


# --------------------------------------------------------------------------------------------
# what is compared
# --------------------------------------------------------------------------------------------

def sweep_arms(setup: Setup) -> tuple[list[Arm], pd.DataFrame]:
    """One arm per alternative value of every flag that applies at this table; the flags and values
    left out, each with the reason (a table the flag does not apply to, a single accepted value, a
    value the table refuses)."""
    entry = setup.entry
    only_at = getattr(entry.module("rules"), "ONLY_AT", {})
    arms, skipped = [], []
    for flag in entry.flags:
        where = only_at.get(flag.name)
        if where is not None and not where[1](setup.players, setup.partners):
            skipped.append((flag.name, "-", f"applies to {where[0]} only, not at {setup.label}"))
            continue
        values = flag.alternatives()
        if not values:
            skipped.append((flag.name, "-", f"no other value to try (accepted: {flag.accepted})"))
        for text in values:
            change = f"{flag.name}={text}"
            try:
                variant_rules(setup, [change])
            except BadInput as exc:
                skipped.append((flag.name, text, str(exc)))
                continue
            arms.append(Arm(change, (change,)))
    return arms, pd.DataFrame(skipped, columns=["flag", "value", "reason"])


def parse_sets(setup: Setup, specs: list[str]) -> list[Arm]:
    """Named rule sets from `--set NAME=flag=value,flag=value`; a value may hold commas
    (htd.colours=R,G,B,Y): a piece without '=' belongs to the change before it."""
    arms = []
    for spec in specs:
        name, sep, body = spec.partition("=")
        name = name.strip()
        if not sep or not name or "." in name or not body.strip():
            raise BadInput(f"--set {spec!r} is not NAME=flag=value[,flag=value...]; accepted e.g. "
                           f"family={setup.entry.flags[0].name}={setup.entry.flags[0].alternatives()[:1] or ['...']}"
                           .replace("['", "").replace("']", ""))
        if name == DEFAULTS or name in [a.label for a in arms]:
            raise BadInput(f"--set name {name!r} is used twice or is reserved; accepted: distinct names other than "
                           f"{DEFAULTS!r}")
        changes: list[str] = []
        for piece in body.split(","):
            if "=" in piece or not changes:
                changes.append(piece.strip())
            else:
                changes[-1] += "," + piece.strip()
        variant_rules(setup, changes)
        arms.append(Arm(name, tuple(changes)))
    return arms


def comparisons(n_arms: int, sets: bool) -> tuple[tuple[int, int], ...]:
    """(variant, base) arm indexes, 0 being the defaults: every arm against the defaults, and
    named sets also against each other."""
    pairs = [(a, 0) for a in range(1, n_arms + 1)]
    if sets:
        pairs += [(b, a) for a, b in combinations(range(1, n_arms + 1), 2)]
    return tuple(pairs)


# --------------------------------------------------------------------------------------------
# chunks: every arm on the chunk's seeds
# --------------------------------------------------------------------------------------------

def _arms(setup: Setup, arms: tuple[tuple[str, ...], ...]) -> list[Setup]:
    return [setup] + [replace(setup, rule_args=setup.rule_args + args) for args in arms]


def _played(setup: Setup, arms: tuple[tuple[str, ...], ...],
            pairs: tuple[tuple[int, int], ...]) -> list[tuple[int, Setup]]:
    """The arms (index, Setup) that `pairs` compare: a chunk may take a group of the comparisons
    (_groups); every arm replays the chunk's seeds, so an arm's games are the same in any group."""
    every = _arms(setup, arms)
    return [(a, every[a]) for a in sorted({a for pair in pairs for a in pair})]


def _groups(pairs: tuple[tuple[int, int], ...], chunks: int, jobs: int) -> list[tuple[tuple[int, int], ...]]:
    """`pairs` split so that `chunks` chunks of each group give every worker two tasks or more (a
    report's lab is one chunk of games and one of hands): each group replays its base arms, which
    costs a little more in all and changes no number (the same arms on the same seeds)."""
    n = max(1, min(len(pairs), -(-2 * workers(jobs) // max(1, chunks))))
    return [pairs[k::n] for k in range(n)]


def _edge(arm: Setup, strong: str, weak: str, seeds, size: int) -> tuple[np.ndarray, list, np.ndarray | None]:
    """One `strong` player among `weak` ones: per game its P(win) minus the average of the weak
    players' sides in like seats, and what to compare for 'never fired' in these games. Seats alike:
    strong at seat 0 (its position is random, as the first player is). Seats whose reaction profiles
    differ: strong in each seat of skill_seats in turn, weak in the others of them, every other seat
    keeping the table's player (and its profile), the edges averaged over the turns; and the strong
    seat's deal luck over each game (analysis.variance, mean 0; None for a game without a luck model),
    averaged the same way."""
    hooks, table = arm.hooks, arm.table
    P = table.players
    level = skill_seats(arm)
    turns = level if len(level) < P else level[:1]
    edges, trace, lucks = [], [], []
    keep = variance.model(arm) is not None
    for s in turns:
        lineup = [arm.strategy(strong) if i == s else arm.strategy(weak) if i in level else arm.seats.strategies[i]
                  for i in range(P)]
        g = hooks.play_games(arm, lineup, generators(seeds), size, keep_hands=keep)   # same numbers
        luck = variance.seat_luck(arm, g, size) if keep else None
        lucks.append(None if luck is None else luck[:, s])
        wins = hooks.wins(arm, g)
        own = int(table.side_of_seat[s])
        others = sorted({int(table.side_of_seat[o]) for o in level} - {own})
        edges.append(wins[:, own] - wins[:, others].mean(axis=1))
        trace += [wins, *hooks.game_length(g).values()]
    return np.mean(edges, axis=0), trace, (None if any(x is None for x in lucks) else np.mean(lucks, axis=0))


def _game_measures(arm: Setup, strong: str, weak: str, seeds, size: int) -> tuple[dict, np.ndarray, np.ndarray, list,
                                                                                  list, dict]:
    """One arm's games: (per-game measures, P(win) by position (n, players), P(win) by seat, what to
    compare for 'never fired' under the table's strategies, and in the skill games). Position 0
    plays first in the game's first hand; skill is `strong`'s edge at a table of `weak` (the
    baseline) players, random_edge its edge at a table of random ones (the same games when `weak`
    is random); and the strong seat's deal luck in the skill and random-edge games (empty without
    a luck model: analysis.variance)."""
    hooks, P = arm.hooks, arm.table.players
    g = hooks.play_games(arm, arm.seats.strategies, generators(seeds), size)
    values = game_values(arm, g)
    seat_at = (hooks.first_player(arm, g)[:, None] + np.arange(P)) % P
    by_position = np.take_along_axis(values["p_win"], seat_at.astype(np.intp), axis=1)
    skill, trace, luck = _edge(arm, strong, weak, seeds, size)
    if weak.strip() == RANDOM:
        random_edge, random_luck = skill, luck
    else:
        random_edge, more, random_luck = _edge(arm, strong, RANDOM, seeds, size)
        trace = trace + more
    length = hooks.game_length_names[0]
    measures = {length: values[length][:, 0], "first_edge": Change(by_position[:, 0] - by_position.mean(axis=1)),
                "skill": Change(skill), "random_edge": Change(random_edge),
                "p_unfinished": values["p_unfinished"][:, 0]}
    lucks = {} if luck is None or random_luck is None else {"skill": luck, "random_edge": random_luck}
    return measures, by_position, values["p_win"], [values["p_win"], values[length]], trace, lucks


def _lab_games_chunk(setup: Setup, arms: tuple[tuple[str, ...], ...], pairs: tuple[tuple[int, int], ...],
                     strong: str, weak: str, seed: int, index: int, size: int) -> Tally:
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    played = {a: _game_measures(arm, strong, weak, seeds, size) for a, arm in _played(setup, arms, pairs)}
    tally = Tally()
    for v, b in pairs:
        (mv, pv, sv, tv, kv, lv), (mb, pb, sb, tb, kb, lb) = played[v], played[b]
        tally.add(f"games_{v}_{b}", one_row(size), paired(mb, mv))
        tally.add(f"differs_{v}_{b}", one_row(size), {"differs": outcomes_differ([tb, tv]),
                                                      "skill_differs": outcomes_differ([kb, kv])})
        # wins by position and by seat, variant then base: their co-moments
        tally.add(f"moments_{v}_{b}", one_row(size), _moments(np.concatenate([pv, pb], axis=1)))
        tally.add(f"seats_{v}_{b}", one_row(size), _moments(np.concatenate([sv, sb], axis=1)))
        for m in lv if lb else ():     # the change and both arms' luck, per fold (analysis.variance)
            d = mv[m].values - mb[m].values
            tally.add(f"cv_{m}_{v}_{b}", variance.folds(size), variance.sums(d, np.stack([lv[m], lb[m]], axis=1)))
    return tally


def _lab_hands_chunk(setup: Setup, arms: tuple[tuple[str, ...], ...], pairs: tuple[tuple[int, int], ...],
                     seed: int, index: int, size: int) -> Tally:
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    played = {a: arm.hooks.headline(arm, arm.hooks.play(arm, arm.seats.strategies, generators(seeds), size))
              for a, arm in _played(setup, arms, pairs)}
    tally = Tally()
    for v, b in pairs:
        tally.add(f"hands_{v}_{b}", one_row(size), paired(played[b], played[v]))
        trace = [[getattr(x, "values", x) for x in played[i].values()] for i in (b, v)]
        tally.add(f"hdiffers_{v}_{b}", one_row(size), {"differs": outcomes_differ(trace)})
    return tally


# --------------------------------------------------------------------------------------------
# estimates
# --------------------------------------------------------------------------------------------

def _estimates(setup: Setup, t_games: Tally, t_hands: Tally, labels: list) -> tuple[pd.DataFrame, dict, dict,
                                                                                    pd.DataFrame]:
    """Long table (rule, metric, estimate, n, ci_low, ci_high, kind) of every comparison, 95%
    intervals uncorrected; per comparison whether any game or hand under the table's strategies
    differed ('fired'), and whether any skill game did; and each seat's P(win) under the defaults
    (`seats`, Wilson intervals)."""
    hooks = setup.hooks
    length = hooks.game_length_names[0]
    game_names = [length, *GAME_MEASURES]
    frames, fired, skill_fired, seats = [], {}, {}, None
    for key, label in labels:
        v, b = key
        g = estimate(t_games.get(f"games_{v}_{b}"), [], [m for name in game_names if name not in FROM_MOMENTS
                                                         for m in _paired_names(name)])
        spread = pd.DataFrame(_spread(t_games.get(f"moments_{v}_{b}"), setup.players))
        weakest, base = _weakest(t_games.get(f"seats_{v}_{b}"), setup.players)
        h = estimate(t_hands.get(f"hands_{v}_{b}"), [], [m for name in hooks.headline_names
                                                         for m in _paired_names(name)])
        frames.append(pd.concat([g, spread, pd.DataFrame(weakest), h], ignore_index=True).assign(rule=label))
        differs = t_games.get(f"differs_{v}_{b}")
        fired[label] = (differs["differs"].sum() + t_hands.get(f"hdiffers_{v}_{b}")["differs"].sum()) > 0
        skill_fired[label] = differs["skill_differs"].sum() > 0
        if b == 0 and seats is None:
            n = int(t_games.get(f"seats_{v}_{b}")["n"].iloc[0])
            p, low, high = wilson(base * n, np.full(len(base), n))
            seats = pd.DataFrame({"seat": np.arange(len(base)), "metric": "p_win", "estimate": p, "n": n,
                                  "ci_low": low, "ci_high": high, "kind": "proportion"})
    table = pd.concat(frames, ignore_index=True)
    return table[["rule", *[c for c in table.columns if c != "rule"]]], fired, skill_fired, seats

def _narrower(t_games: Tally, labels: list) -> pd.DataFrame | None:
    """Per comparison, the skill and random-edge changes adjusted by the deal-luck control variate
    (analysis.variance) beside the plain ones (uncorrected 95% intervals both); None without a model."""
    rows = []
    for (v, b), label in labels:
        for m in ("skill", "random_edge"):
            if f"cv_{m}_{v}_{b}" not in t_games.tables:
                continue
            a = variance.adjusted(t_games.get(f"cv_{m}_{v}_{b}"))
            if a["n"] != int(t_games.get(f"games_{v}_{b}")["n"].sum()):
                return None     # a run store's chunks from before the covariate: not every game has it
            rows.append({"rule": label, **variance.row(a, f"d_{m}")})
    return pd.DataFrame(rows) if rows else None


def _levels(table: pd.DataFrame, against_defaults: list[str]) -> pd.DataFrame:
    """Each arm's own values (plain 95% intervals): the defaults once, then every rule change."""
    rows = table[table["rule"].isin(against_defaults)]
    base = rows[rows["metric"].str.startswith("base_") & (rows["rule"] == against_defaults[0])]
    variant = rows[rows["metric"].str.startswith("variant_")]
    return pd.concat([base.assign(rule=DEFAULTS, metric=base["metric"].str.removeprefix("base_")),
                      variant.assign(metric=variant["metric"].str.removeprefix("variant_"))], ignore_index=True)


def _paired_names(name: str) -> list[str]:
    return [f"base_{name}", f"variant_{name}", f"d_{name.removeprefix('p_')}"]


def measures(setup: Setup) -> list[str]:
    """The paired-change metrics of the ranked table, in order: game length, fairness, skill,
    unfinished games, then the game's headline rates."""
    hooks = setup.hooks
    return [f"d_{n.removeprefix('p_')}" for n in (hooks.game_length_names[0], *GAME_MEASURES, *hooks.headline_names)]


# --------------------------------------------------------------------------------------------
# the lab
# --------------------------------------------------------------------------------------------

def plan(setup: Setup, sets: list[str] | None = None) -> tuple[list[Arm], pd.DataFrame, tuple[tuple[int, int], ...]]:
    """The arms (named sets, or every flag's alternatives), the skipped flags, the comparisons."""
    setup.validate()
    skill_seats(setup)            # refused when no two seats share a reaction profile
    if not setup.hooks.headline_names:
        from moonshot.simulator.games import GAMES
        able = [name for name, g in GAMES.items() if g.hooks.headline_names]
        raise BadInput(f"{setup.entry.name} gives the rules lab no headline rates (its hooks' headline_names); "
                       f"accepted: {', '.join(able)}")
    if sets:
        arms, skipped = parse_sets(setup, sets), pd.DataFrame(columns=["flag", "value", "reason"])
    else:
        arms, skipped = sweep_arms(setup)
    if not arms:
        raise BadInput(f"no rules flag of {setup.entry.name} can be changed at {setup.label}; accepted: another "
                       "table (-p, --partners) or --set")
    return arms, skipped, comparisons(len(arms), bool(sets))


def trial_seconds(setup: Setup, games: int, hands: int, strong: str | None = None, weak: str | None = None,
                  sets: list[str] | None = None, jobs: int = 1, seed: int = 0) -> float:
    """Seconds the whole lab should take on `jobs` workers, timed from one chunk of games and one
    of hands of the defaults' arm played here (a batch's cost per game depends on its size, so a
    smaller trial would mislead); a sweep plays that for every arm and chunk."""
    import time
    strong, weak = players(setup, strong, weak)
    arms, _, _ = plan(setup, sets)
    seeds = chunk_seeds(seed, 0, setup.entry.streams)
    g, h = min(games, GAMES_CHUNK), min(hands, HANDS_CHUNK)
    _game_measures(setup, strong, weak, seeds, 2)           # warm-up: tables, strategies, compiled kernels
    start = time.perf_counter()
    _game_measures(setup, strong, weak, seeds, g)
    mid = time.perf_counter()
    setup.hooks.play(setup, setup.seats.strategies, generators(seeds), h)
    end = time.perf_counter()
    per_arm = (mid - start) * -(-games // g) + (end - mid) * -(-hands // h)
    return per_arm * (len(arms) + 1) / max(1, min(workers(jobs), -(-games // g)))


def players(setup: Setup, strong: str | None, weak: str | None) -> tuple[str, str]:
    """The skill measure's two players: `strong` (the game's default strategy unless given) and
    `weak`, the baseline (the game's simplest non-random heuristic, hooks.lab_baseline, unless
    given); refused when they are the same."""
    strong = strong or setup.entry.default_strategy
    weak = weak or setup.hooks.lab_baseline
    setup.strategy(strong), setup.strategy(weak)
    if strong.strip() == weak.strip():
        raise BadInput(f"--strong and --weak are both {strong!r}: the edge of a player over itself is 0; accepted: "
                       f"two different strategies of {setup.entry.name}")
    return strong, weak



def rules_lab(setup: Setup, games: int | None = None, hands: int | None = None, seed: int = DEFAULT_SEED, jobs: int = 1,
              strong: str | None = None, weak: str | None = None, sets: list[str] | None = None,
              progress: Progress = None, until=None) -> Result:
    """Every rule change (or named set) against the defaults on the same games and deals: the
    ranked table of paired changes, the changes that never fired, the flags left out. `until` (an
    analysis.until.Until): play the games in rounds until every P(win) effect the findings quote
    (UNTIL: fairness, skill, the edge over random play, unfinished games; corrected as they are
    corrected) is that narrow, `games` being the budget (analysis.until.BUDGET by default); the
    hands are played once, `hands` of them."""
    from moonshot.analysis.until import BUDGET, run_until
    hooks = setup.hooks
    games = games or (hooks.lab_size[0] if until is None else BUDGET["games"])
    hands = hands or hooks.lab_size[1]
    strong, weak = players(setup, strong, weak)
    arms, skipped, pairs = plan(setup, sets)
    args = tuple(a.args for a in arms)
    # Games and hands, each comparison group's chunks, all in one stream over the workers
    g_calls = [Call(_lab_games_chunk, (setup, args, g, strong, weak), games, GAMES_CHUNK)
               for g in _groups(pairs, -(-games // GAMES_CHUNK), jobs)]
    h_calls = [Call(_lab_hands_chunk, (setup, args, h), hands, HANDS_CHUNK)
               for h in _groups(pairs, -(-hands // HANDS_CHUNK), jobs)]
    lab = _Lab(setup, arms, skipped, pairs, strong, weak, bool(sets), seed)
    if until is None:
        tallies = run_many(g_calls + h_calls, seed, jobs, progress)
        return lab.result(_merged(tallies[:len(g_calls)]), _merged(tallies[len(g_calls):]), games, hands)[0]
    t_hands = _merged(run_many(h_calls, seed, jobs, progress))
    quoted = {}

    def result_of(t_games: Tally, n: int) -> Result:
        res, quoted["rows"] = lab.result(t_games, t_hands, n, hands)
        return res
    res = run_until(g_calls, seed, jobs, progress, until, result_of, lambda res: quoted["rows"], "games",
                    corrected=True, run_many=run_many)
    res.meta["until_effects"] = [m.removeprefix("d_") for m in UNTIL]
    res.notes.append("--until narrows every change in " + ", ".join(m.removeprefix("d_") for m in UNTIL) + " (and a "
                     "never-fired rule's changes in the skill games) as the findings quote them, Bonferroni-corrected; "
                     f"the game's length and the headline rates of single hands are not narrowed: the {hands:,} hands "
                     "are played once, before the rounds of games.")
    return res


def _merged(tallies: list[Tally]) -> Tally:
    out = Tally()
    for t in tallies:
        out.merge(t)
    return out


@dataclass
class _Lab:
    """What a lab compares, and its Result from the games' and hands' tallies."""
    setup: Setup
    arms: list[Arm]
    skipped: pd.DataFrame
    pairs: tuple[tuple[int, int], ...]
    strong: str
    weak: str
    sets: bool
    seed: int

    def result(self, t_games: Tally, t_hands: Tally, games: int, hands: int) -> tuple[Result, pd.DataFrame]:
        """The lab's Result of `games` games and `hands` hands per rule change, and the rows --until
        narrows: the UNTIL effects as the findings quote them (the ranked table's, and a never-fired
        rule's skill-game effects)."""
        setup, arms, strong, weak = self.setup, self.arms, self.strong, self.weak
        names = ([DEFAULTS] + [a.label for a in arms])
        labels = [((v, b), names[v] if b == 0 else f"{names[v]} vs {names[b]}") for v, b in self.pairs]
        table, fired, skill_fired, seats = _estimates(setup, t_games, t_hands, labels)
        levels = _levels(table, [label for (v, b), label in labels if b == 0])
        weakest = int(seats["estimate"].idxmin())
        res = Result(f"{setup.entry.title}: rules lab", {**setup.meta(seed=self.seed), "games": games, "hands": hands,
                                                         "strong": strong, "weak": weak, "corrected_for": None,
                                                         "skill_seats": list(skill_seats(setup)),
                                                         "weakest_seat": weakest,
                                                         **({"sets": {a.label: list(a.args) for a in arms}}
                                                            if self.sets else {})})
        live = [label for _, label in labels if fired[label]]
        silent = [label for _, label in labels if not fired[label]]
        k = max(len(live), 1)
        res.meta["corrected_for"] = k
        shown = measures(setup)
        ranked = table[table["rule"].isin(live) & table["metric"].isin(shown)]
        ranked = ranked.assign(_m=ranked["metric"].map(shown.index)).sort_values(["_m"], kind="stable")
        ranked = ranked.drop(columns="_m")
        sizes = effect_sizes(table[table["rule"].isin(live)], shown, k)
        rank = shared_ranks(sizes) if live else pd.Series(dtype=int)
        order = sorted(live, key=lambda r: (rank[r], -sizes["estimate"][r]))
        ignored = {r: ", ".join(ignored_by(setup, setup.seats.specs, _flags(arms, r))) for r in live}
        if order:
            ranked = widened(ranked, k).assign(rank=lambda d: d["rule"].map(rank),
                                               ignored_by=lambda d: d["rule"].map(ignored))
            effect = sizes.loc[order].rename_axis("rule").reset_index().assign(
                rank=[rank[r] for r in order], ignored_by=[ignored[r] for r in order], metric="effect_size",
                n=ranked.groupby("rule")["n"].max()[order].values, kind="mean")
            both = pd.concat([effect, ranked], ignore_index=True)
            both = both.assign(_o=both["rule"].map(order.index)).sort_values("_o", kind="stable")
            res.tables["ranked"] = both[["rank", "rule", "ignored_by", "metric", "estimate", "n", "ci_low", "ci_high",
                                         "kind"]].reset_index(drop=True)
        reasons = [silent_reason(setup, r, arms, games, hands) + skill_only(table, r, skill_fired[r], strong, weak, k)
                   for r in silent]
        if silent:
            res.tables["never_fired"] = pd.DataFrame({"rule": silent, "reason": reasons})
        if len(self.skipped):
            res.tables["skipped"] = self.skipped
        res.tables["levels"] = levels
        res.tables["seats"] = seats
        narrower = _narrower(t_games, labels)
        if narrower is not None:
            res.tables["narrower"] = narrower
            res.notes.append(variance.LAB_NOTE)
        _findings(res, table[table["rule"].isin(live)], order, shown, k, setup, ignored, (strong, weak),
                  {r: _flags(arms, r) for r in live})
        res.findings[:0] = seat_findings(setup, seats, table[table["rule"].isin(live)], k, games, weakest)
        if silent:
            res.findings.append(for_players(f"Never fired, so not ranked ({len(silent)}; the reasons are in the "
                                            "never-fired table): " + ", ".join(f"`{r}`" for r in silent) + ".",
                                            lab_players(setup, (strong, weak))))
        res.notes += _notes(setup, k, strong, weak, games, hands, self.sets)
        edges = table[table["rule"].isin([r for r in silent if skill_fired[r]])
                      & table["metric"].isin(["d_skill", "d_random_edge"])]
        narrowed = pd.concat([res.tables["ranked"][res.tables["ranked"]["metric"].isin(UNTIL)] if order else None,
                              widened(edges, k)], ignore_index=True)
        return res, narrowed
