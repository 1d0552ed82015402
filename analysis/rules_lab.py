"""Rules lab: which house rules matter, and how. Every rules flag of a game (or named sets of
changes) is played on the same deals and games as the defaults, one change at a time, and the
paired differences are ranked: game length, fairness (the first player's edge and the spread of
P(win) over positions), the game's headline rates, and skill: how much more often the game's
strong cheap player wins than its baseline, the simplest non-random heuristic, at the same table.
The edge over `random` is a second, named measure and never called skill: a rule can change how
badly random play does (it takes a voluntary draw as one more uniform option) without changing
what skill is worth, and the findings say when that is all a rule does.

Built on the what-if machinery (analysis.common): every arm replays the chunk's seeds
(chunk_seeds), so a rule change's numbers are `whatif`'s with the same flag, seed and chunk size.
The defaults are played once per chunk and paired with every change.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np
import pandas as pd

from moonshot.analysis.common import (GAME_WORDS, Call, Progress, Setup, game_values, one_row, outcomes_differ,
                                      paired, run_many, variant_rules, workers)
from moonshot.analysis.result import Result
from moonshot.analysis.stats import Z, estimate
from moonshot.analysis.words import CORRECTION, clear_of_zero, effects, for_players, lineup, say, shift, widen, widened
from moonshot.simulator.errors import BadInput
from moonshot.simulator.runner import DEFAULT_SEED, Change, Tally, chunk_seeds, generators
from moonshot.strategies.base import adapts

GAMES_CHUNK = 500          # games per chunk: a few thousand games spread over every job, and batches stay big
HANDS_CHUNK = 5_000        # enough for the engines (Hit the Deck plays 500 games at 4.5 ms each, 250 at 7.7)
DEFAULTS = "defaults"
RANDOM = "random"          # the edge over random play: a second, named measure beside skill
GAME_MEASURES = ("first_edge", "spread", "skill", "random_edge", "p_unfinished")   # after the game's length measure
WORDS = {"first_edge": "the first player's edge", "spread": "the spread of P(win) over positions",
         "skill": "skill (the strong player's edge over the baseline)",
         "random_edge": "the strong player's edge over random play", **GAME_WORDS,
         "p_odd": "P(odd)", "p_shoot": "P(shoot the moon)", "chips": "chips per side per round",
         "p_made": "P(contract made)", "p_set": "P(contract set)", "p_thrown_in": "P(thrown in)",
         "p_bid21": "P(a 21 contract)", "penalty": "penalty points per seat per hand", "p_blocked": "P(blocked hand)",
         "cards_slap": "slap-race penalty cards", "cards_forgot": "forgot-to-shout penalty cards",
         "cards_false_slap": "false-slap penalty cards", "turns": "turns per hand"}


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


def _played(setup: Setup, arms: tuple[tuple[str, ...], ...], pairs: tuple[tuple[int, int], ...]) -> list[tuple[int, Setup]]:
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


def _edge(arm: Setup, strong: str, weak: str, seeds, size: int) -> tuple[np.ndarray, list]:
    """One `strong` player (seat 0; its position is random, as the first player is) at a table of
    `weak` ones: per game its P(win) minus a weak side's average, and what to compare for 'never
    fired' in these games."""
    hooks, table = arm.hooks, arm.table
    lineup = [arm.strategy(strong)] + [arm.strategy(weak)] * (table.players - 1)
    s = hooks.play_games(arm, lineup, generators(seeds), size)
    wins = hooks.wins(arm, s)
    own = int(table.side_of_seat[0])
    return wins[:, own] - np.delete(wins, own, axis=1).mean(axis=1), [wins, *hooks.game_length(s).values()]


def _game_measures(arm: Setup, strong: str, weak: str, seeds, size: int) -> tuple[dict, np.ndarray, list, list]:
    """One arm's games: (per-game measures, P(win) by position (n, players), what to compare for
    'never fired' under the table's strategies, and in the skill games). Position 0 plays first in
    the game's first hand; skill is `strong`'s edge at a table of `weak` (the baseline) players,
    random_edge its edge at a table of random ones (the same games when `weak` is random)."""
    hooks, P = arm.hooks, arm.table.players
    g = hooks.play_games(arm, arm.seats.strategies, generators(seeds), size)
    values = game_values(arm, g)
    seat_at = (hooks.first_player(arm, g)[:, None] + np.arange(P)) % P
    by_position = np.take_along_axis(values["p_win"], seat_at.astype(np.intp), axis=1)
    skill, trace = _edge(arm, strong, weak, seeds, size)
    if weak.strip() == RANDOM:
        random_edge = skill
    else:
        random_edge, more = _edge(arm, strong, RANDOM, seeds, size)
        trace = trace + more
    length = hooks.game_length_names[0]
    measures = {length: values[length][:, 0], "first_edge": Change(by_position[:, 0] - by_position.mean(axis=1)),
                "skill": Change(skill), "random_edge": Change(random_edge),
                "p_unfinished": values["p_unfinished"][:, 0]}
    return measures, by_position, [values["p_win"], values[length]], trace


def _lab_games_chunk(setup: Setup, arms: tuple[tuple[str, ...], ...], pairs: tuple[tuple[int, int], ...],
                     strong: str, weak: str, seed: int, index: int, size: int) -> Tally:
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    played = {a: _game_measures(arm, strong, weak, seeds, size) for a, arm in _played(setup, arms, pairs)}
    tally = Tally()
    for v, b in pairs:
        (mv, pv, tv, sv), (mb, pb, tb, sb) = played[v], played[b]
        tally.add(f"games_{v}_{b}", one_row(size), paired(mb, mv))
        tally.add(f"differs_{v}_{b}", one_row(size), {"differs": outcomes_differ([tb, tv]),
                                                      "skill_differs": outcomes_differ([sb, sv])})
        x = np.concatenate([pv, pb], axis=1)           # wins by position, variant then base: their co-moments
        k = x.shape[1]
        tally.add(f"moments_{v}_{b}", one_row(size), {f"m{i}_{j}": x[:, i] & x[:, j] for i in range(k)
                                                      for j in range(i, k)})
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

def _spread(moments: pd.DataFrame, P: int) -> list[dict]:
    """The spread of P(win) over positions (highest minus lowest) under base and variant, and its
    paired change, with delta-method intervals from the positions' co-moments (the highest and
    lowest positions taken as found)."""
    n = float(moments["n"].iloc[0])
    k = 2 * P
    second = np.zeros((k, k))
    for i in range(k):
        for j in range(i, k):
            second[i, j] = second[j, i] = moments[f"m{i}_{j}"].iloc[0] / n
    p = np.diag(second).copy()
    cov = (second - np.outer(p, p)) * n / max(n - 1, 1)
    rows, weights = [], {}
    for name, part in (("variant", slice(0, P)), ("base", slice(P, k))):
        c = np.zeros(k)
        block = p[part]
        c[part.start + int(np.argmax(block))] += 1
        c[part.start + int(np.argmin(block))] -= 1
        weights[name] = c
    weights["d"] = weights["variant"] - weights["base"]
    for name, c in (("base", weights["base"]), ("variant", weights["variant"]), ("d", weights["d"])):
        est = float(c @ p)
        half = Z * np.sqrt(max(float(c @ cov @ c), 0.0) / n) if n > 1 else np.nan
        metric = "d_spread" if name == "d" else f"{name}_spread"
        rows.append({"metric": metric, "estimate": est, "n": int(n), "ci_low": est - half, "ci_high": est + half,
                     "kind": "change"})
    return rows


def _estimates(setup: Setup, t_games: Tally, t_hands: Tally, labels: list[str]) -> tuple[pd.DataFrame, dict]:
    """Long table (rule, metric, estimate, n, ci_low, ci_high, kind) of every comparison, 95%
    intervals uncorrected; and per comparison whether any game or hand under the table's strategies
    differed ('fired'), and whether any skill game did."""
    hooks = setup.hooks
    length = hooks.game_length_names[0]
    game_names = [length, *GAME_MEASURES]
    frames, fired, skill_fired = [], {}, {}
    for key, label in labels:
        v, b = key
        g = estimate(t_games.get(f"games_{v}_{b}"), [], [m for name in game_names if name != "spread"
                                                         for m in _paired_names(name)])
        spread = pd.DataFrame(_spread(t_games.get(f"moments_{v}_{b}"), setup.players))
        h = estimate(t_hands.get(f"hands_{v}_{b}"), [], [m for name in hooks.headline_names
                                                         for m in _paired_names(name)])
        frames.append(pd.concat([g, spread, h], ignore_index=True).assign(rule=label))
        differs = t_games.get(f"differs_{v}_{b}")
        fired[label] = (differs["differs"].sum() + t_hands.get(f"hdiffers_{v}_{b}")["differs"].sum()) > 0
        skill_fired[label] = differs["skill_differs"].sum() > 0
    table = pd.concat(frames, ignore_index=True)
    return table[["rule", *[c for c in table.columns if c != "rule"]]], fired, skill_fired


def _levels(table: pd.DataFrame, against_defaults: list[str]) -> pd.DataFrame:
    """Each arm's own values (plain 95% intervals): the defaults once, then every rule change."""
    rows = table[table["rule"].isin(against_defaults)]
    base = rows[rows["metric"].str.startswith("base_") & (rows["rule"] == against_defaults[0])]
    variant = rows[rows["metric"].str.startswith("variant_")]
    return pd.concat([base.assign(rule=DEFAULTS, metric=base["metric"].str.removeprefix("base_")),
                      variant.assign(metric=variant["metric"].str.removeprefix("variant_"))], ignore_index=True)


def words_for(metric: str) -> str:
    """A measure as a sentence names it ('d_odd' -> 'P(odd)')."""
    name = metric.removeprefix("d_")
    return WORDS.get(name) or WORDS.get(f"p_{name}", name)


def _paired_names(name: str) -> list[str]:
    return [f"base_{name}", f"variant_{name}", f"d_{name.removeprefix('p_')}"]


def measures(setup: Setup) -> list[str]:
    """The paired-change metrics of the ranked table, in order: game length, fairness, skill,
    unfinished games, then the game's headline rates."""
    hooks = setup.hooks
    return [f"d_{n.removeprefix('p_')}" for n in (hooks.game_length_names[0], *GAME_MEASURES, *hooks.headline_names)]


def effect_sizes(table: pd.DataFrame, names: list[str], k: int) -> pd.DataFrame:
    """Per rule (estimate, ci_low, ci_high): its largest change in standard deviations of the
    measure (pooled over base and variant, a standardized effect), counting only changes whose
    interval, Bonferroni-corrected for k comparisons, excludes zero (0 where none does); and the
    interval of that largest size: from each measure's corrected interval of |change| / SD (0 at
    the low end where it spans zero), the highest low end and the highest high end, which hold the
    largest |change| whenever every measure's interval holds its own."""
    sizes = {}
    for rule, rows in table.groupby("rule", sort=False):
        best, low, high = 0.0, 0.0, 0.0
        for name in names:
            d = rows[rows["metric"] == name]
            if d.empty:
                continue
            base_name = name[2:]
            levels = rows[rows["metric"].isin([f"base_{base_name}", f"base_p_{base_name}",
                                               f"variant_{base_name}", f"variant_p_{base_name}"])]
            sd = np.sqrt(np.mean([_sd(r) ** 2 for _, r in levels.iterrows()])) if len(levels) else np.nan
            if not sd > 0:
                continue
            row = widened(d, k).iloc[0]
            lo, hi = sorted((abs(float(row["ci_low"])), abs(float(row["ci_high"]))))
            spans = row["ci_low"] <= 0 <= row["ci_high"]
            low, high = max(low, 0.0 if spans else lo / sd), max(high, hi / sd)
            if not spans:
                best = max(best, abs(float(row["estimate"])) / sd)
        sizes[rule] = (best, low, high)
    return pd.DataFrame.from_dict(sizes, orient="index", columns=["estimate", "ci_low", "ci_high"])


def shared_ranks(sizes: pd.DataFrame) -> pd.Series:
    """Ranks by the findings rule: a rule's rank is 1 + the number of rules whose effect size is
    clearly larger (their interval's low end above its high end), so rules whose intervals cannot
    order them share a rank."""
    low, high = sizes["ci_low"].to_numpy(float), sizes["ci_high"].to_numpy(float)
    return pd.Series(1 + (low[None, :] > high[:, None]).sum(axis=1), index=sizes.index)


def _sd(row) -> float:
    """The per-game (per-hand) standard deviation behind an estimate row."""
    if row["kind"] == "proportion":
        return float(np.sqrt(row["estimate"] * (1 - row["estimate"])))
    if not np.isfinite(row["ci_high"]) or row["n"] < 2:
        return 0.0
    return float((row["ci_high"] - row["ci_low"]) / 2 / Z * np.sqrt(row["n"]))


# --------------------------------------------------------------------------------------------
# the lab
# --------------------------------------------------------------------------------------------

def plan(setup: Setup, sets: list[str] | None = None) -> tuple[list[Arm], pd.DataFrame, tuple[tuple[int, int], ...]]:
    """The arms (named sets, or every flag's alternatives), the skipped flags, the comparisons."""
    setup.validate()
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


def ignored_by(setup: Setup, specs, flags: list[str]) -> list[str]:
    """The strategies among `specs` that declare the rules they adapt to (strategies/base.py) and
    adapt to none of `flags`: under a change of those flags they play as under the defaults."""
    return [spec for spec in dict.fromkeys(specs) if not any(adapts(setup.strategy(spec), f) for f in flags)]


def _flags(arms: list[Arm], label: str) -> list[str]:
    """The rules flags a comparison changes (both sets' flags for 'a vs b')."""
    names = {a.label: a for a in arms}
    parts = label.split(" vs ") if label not in names else [label]
    return list(dict.fromkeys(arg.split("=", 1)[0].strip() for p in parts if p in names for arg in names[p].args))


def rules_lab(setup: Setup, games: int | None = None, hands: int | None = None, seed: int = DEFAULT_SEED, jobs: int = 1,
              strong: str | None = None, weak: str | None = None, sets: list[str] | None = None,
              progress: Progress = None) -> Result:
    """Every rule change (or named set) against the defaults on the same games and deals: the
    ranked table of paired changes, the changes that never fired, the flags left out."""
    hooks = setup.hooks
    games, hands = games or hooks.lab_size[0], hands or hooks.lab_size[1]
    strong, weak = players(setup, strong, weak)
    arms, skipped, pairs = plan(setup, sets)
    args = tuple(a.args for a in arms)
    # Games and hands, each comparison group's chunks, all in one stream over the workers
    g_groups = _groups(pairs, -(-games // GAMES_CHUNK), jobs)
    h_groups = _groups(pairs, -(-hands // HANDS_CHUNK), jobs)
    tallies = run_many([Call(_lab_games_chunk, (setup, args, g, strong, weak), games, GAMES_CHUNK) for g in g_groups]
                       + [Call(_lab_hands_chunk, (setup, args, h), hands, HANDS_CHUNK) for h in h_groups],
                       seed, jobs, progress)
    t_games, t_hands = Tally(), Tally()
    for t in tallies[:len(g_groups)]:
        t_games.merge(t)
    for t in tallies[len(g_groups):]:
        t_hands.merge(t)
    names = ([DEFAULTS] + [a.label for a in arms])
    labels = [((v, b), names[v] if b == 0 else f"{names[v]} vs {names[b]}") for v, b in pairs]
    table, fired, skill_fired = _estimates(setup, t_games, t_hands, labels)
    levels = _levels(table, [label for (v, b), label in labels if b == 0])

    res = Result(f"{setup.entry.title}: rules lab", {**setup.meta(seed=seed), "games": games, "hands": hands,
                                                     "strong": strong, "weak": weak, "corrected_for": None,
                                                     **({"sets": {a.label: list(a.args) for a in arms}} if sets else {})})
    live = [label for _, label in labels if fired[label]]
    silent = [label for _, label in labels if not fired[label]]
    k = max(len(live), 1)
    res.meta["corrected_for"] = k
    shown = measures(setup)
    ranked = table[table["rule"].isin(live) & table["metric"].isin(shown)]
    ranked = ranked.assign(_m=ranked["metric"].map(shown.index)).sort_values(["_m"], kind="stable").drop(columns="_m")
    sizes = effect_sizes(table[table["rule"].isin(live)], shown, k)
    rank = shared_ranks(sizes) if live else pd.Series(dtype=int)
    order = sorted(live, key=lambda r: (rank[r], -sizes["estimate"][r]))
    ignored = {r: ", ".join(ignored_by(setup, setup.seats.specs, _flags(arms, r))) for r in live}
    if order:
        ranked = widened(ranked, k).assign(rank=lambda d: d["rule"].map(rank), ignored_by=lambda d: d["rule"].map(ignored))
        effect = sizes.loc[order].rename_axis("rule").reset_index().assign(
            rank=[rank[r] for r in order], ignored_by=[ignored[r] for r in order], metric="effect_size",
            n=ranked.groupby("rule")["n"].max()[order].values, kind="mean")
        both = pd.concat([effect, ranked], ignore_index=True)
        both = both.assign(_o=both["rule"].map(order.index)).sort_values("_o", kind="stable")
        res.tables["ranked"] = both[["rank", "rule", "ignored_by", "metric", "estimate", "n", "ci_low", "ci_high",
                                     "kind"]].reset_index(drop=True)
    reasons = [_silent_reason(setup, r, arms, games, hands) + _skill_only(table, r, skill_fired[r], strong, weak, k)
               for r in silent]
    if silent:
        res.tables["never_fired"] = pd.DataFrame({"rule": silent, "reason": reasons})
    if len(skipped):
        res.tables["skipped"] = skipped
    res.tables["levels"] = levels
    _findings(res, table[table["rule"].isin(live)], order, shown, k, setup, ignored, (strong, weak),
              {r: _flags(arms, r) for r in live})
    if silent:
        res.findings.append(for_players(f"Never fired, so not ranked ({len(silent)}; the reasons are in the "
                                        "never-fired table): " + ", ".join(f"`{r}`" for r in silent) + ".",
                                        _players(setup, (strong, weak))))
    res.notes += _notes(setup, k, strong, weak, games, hands, bool(sets))
    return res


def _silent_reason(setup: Setup, rule: str, arms: list[Arm], games: int, hands: int) -> str:
    """Why a comparison never fired: what its flags say they wait for, else what was played."""
    by_name = {f.name: f for f in setup.entry.flags}
    args = next((a.args for a in arms if a.label == rule), ())
    flags = [by_name.get(arg.split("=", 1)[0].strip()) for arg in args]
    if flags and all(f is not None and f.needs for f in flags):
        return "; ".join(dict.fromkeys(f.needs for f in flags))
    return (f"none of {games:,} games or {hands:,} hands came out differently: "
            f"{', '.join(dict.fromkeys(setup.seats.specs))} never reaches the situation it governs, or it never "
            "changes an outcome there")


def _skill_only(table: pd.DataFrame, rule: str, fired: bool, strong: str, weak: str, k: int) -> str:
    """For a rule that never fired under the table's strategies: whether it changed the skill
    games (where the baseline or random players reach situations the table's never do), and how."""
    if not fired:
        return ""
    rows = table[table["rule"] == rule].set_index("metric")
    edges = rows.loc[["d_skill", "d_random_edge"]]
    if ((edges["estimate"] == 0) & (edges["ci_low"] == edges["ci_high"])).all():
        return (f"; some games of {strong} against {weak} or random players came out differently, but not one "
                "changed who won")
    return (f"; it changes only the games of {strong} against {weak} or random players: "
            f"{shift(rows.loc['d_skill'], _measure_words('d_skill', strong, weak), k)}; "
            f"{shift(rows.loc['d_random_edge'], _measure_words('d_random_edge', strong, weak), k)}")


def _measure_words(metric: str, strong: str, weak: str) -> str:
    """A measure as a sentence names it, with the skill measure's players."""
    if metric == "d_skill":
        return f"skill ({strong}'s edge over {weak})"
    if metric == "d_random_edge":
        return f"the strong player's edge over random play ({strong})"
    return words_for(metric)


EDGES = {"d_skill": "skill", "d_random_edge": "the edge over random play"}


def _players(setup: Setup, lineup_pair: tuple[str, str] = ("", ""), metrics=None) -> str:
    """Who a finding's measures hold for: the table's players, but for the two edges one strong
    player among the baseline's (skill) or random players; `metrics` (None: every measure) are
    the measures the finding speaks of."""
    strong, weak = lineup_pair
    metrics = set(EDGES) | {""} if metrics is None else set(metrics)
    table = [lineup(setup.seats.specs)] if metrics - set(EDGES) else []
    among = {"d_skill": weak, "d_random_edge": RANDOM}
    edges = [m for m in EDGES if m in metrics]
    if not table and len(edges) == 1:
        return f"one {strong} among {among[edges[0]]} players"
    return "; ".join(table + [f"for {EDGES[m]}, one {strong} among {among[m]} players" for m in edges])


def _ignored_words(setup: Setup, ignored: dict, ranked: list[str]) -> list[str]:
    """One sentence per group of players that ignore some of the ranked rules (their declared rule
    reads): those rules' effects are on players who play on as under the defaults."""
    groups: dict[str, list[str]] = {}
    for rule in ranked:
        if ignored.get(rule):
            groups.setdefault(ignored[rule], []).append(f"`{rule}`")
    out = []
    for who, rules in groups.items():
        some = len(who.split(", ")) < len(set(setup.seats.specs))
        one = ", " not in who
        lead = (f"Of the players here, {who}" if some else f"{who} (every player here)" if one
                else f"These players, {who},")
        out.append(f"{lead} {'does' if one else 'do'} not adapt {'its' if one else 'their'} choices to "
                   f"{', '.join(rules)} (declared rule reads): "
                   f"{'its' if len(rules) == 1 else 'their'} changes are what the rule does to players who play on as "
                   "under the defaults, not to players who adapt to it.")
    return out


def _adapt_words(setup: Setup, flags: list[str], real: pd.DataFrame, strong: str, weak: str) -> str:
    """Where a change in skill comes partly from one of its two players ignoring the rule."""
    out = ""
    if "d_skill" in set(real["metric"]):
        deaf = ignored_by(setup, (strong, weak), flags)
        if len(deaf) == 1:
            other = weak if deaf[0] == strong else strong
            out += (f" Of the skill measure's players, {deaf[0]} does not adapt to the rule and {other} does: the "
                    f"change in skill is partly {deaf[0]} playing on as under the defaults.")
    return out


def _findings(res: Result, table: pd.DataFrame, order: list[str], shown: list[str], k: int, setup: Setup,
              ignored: dict, lineup: tuple[str, str], flags: dict) -> None:
    """One sentence per rule with an effect clear of zero (so every such effect is named), one for the
    rules with none, then one per measure over every rule; every interval quoted is the ranked
    table's, Bonferroni-corrected for the k rule changes compared."""
    if not order:
        res.findings.append(for_players("No rule change made any game or hand come out differently from the "
                                        "defaults.", _players(setup)))
        return
    strong, weak = lineup
    note = f" ({CORRECTION}-corrected for {k} rule changes)" if k > 1 else ""
    d = table[table["metric"].isin(shown)]
    noise = []
    for rule in order:                                      # largest first, each rule in one sentence
        rows = d[d["rule"] == rule]
        real = rows[clear_of_zero(rows, k)]
        by = rows.set_index("metric")
        adapt = _adapt_words(setup, flags.get(rule, []), real, strong, weak)
        if real.empty:
            noise.append(f"`{rule}`")
            continue
        parts = [shift(r, f"changes {_measure_words(r['metric'], strong, weak)}", k, named=False)
                 for _, r in real.iterrows()]
        tail = "" if len(real) == len(rows) else "; nothing else measurable"
        skill = "d_skill" in set(real["metric"])
        words = ""
        if skill:
            words = (": the game turns more on luck" if by.loc["d_skill", "estimate"] < 0 else ": skill counts for more")
        if "d_random_edge" in set(real["metric"]) and (not skill or np.sign(by.loc["d_skill", "estimate"]) !=
                                                       np.sign(by.loc["d_random_edge", "estimate"])):
            words += (f"; skill ({strong} against {weak}) "
                      + ("moves the other way" if skill else
                         f"changes by {_quoted(by.loc['d_skill'], k)}, not told from zero")
                      + f": the rule changes how random play fares against {strong}, not how much skill counts")
        players = _players(setup, lineup, [*real["metric"], *(["d_skill"] if "skill (" in words else [])])
        res.findings.append(for_players(f"`{rule}` " + "; ".join(parts) + tail + note + words + ".", players) + adapt)
    if noise:
        res.findings.append(for_players(f"No measure changes beyond noise{note} under {', '.join(noise)}, though some "
                                        "games or hands came out differently.", _players(setup, lineup)))
    res.findings += _ignored_words(setup, ignored, order)
    length = f"d_{setup.hooks.game_length_names[0]}"
    for name in (length, "d_first_edge", "d_skill", "d_random_edge"):
        rows = d[d["metric"] == name]
        if len(rows) > 1:
            res.findings.append(for_players(effects(rows, lambda r: f"`{r['rule']}`", "rule change",
                                                    _measure_words(name, strong, weak), k=k),
                                            _players(setup, lineup, [name])))


def _quoted(row, k: int) -> str:
    """A change with its interval corrected for k, as the ranked table shows it: '+0.5 percentage points [-2.1, +3.0]'."""
    return say(widened(pd.DataFrame([dict(row)]), k).iloc[0], signed=True)


def _notes(setup: Setup, k: int, strong: str, weak: str, games: int, hands: int, sets: bool) -> list[str]:
    length = setup.hooks.game_length_names[0]
    return [
        f"Every rule change is played on the same {games:,} games and {hands:,} hands as the defaults (the same "
        "deals and random streams); each number in `ranked` is the paired change, the change minus the defaults"
        + (" (a set against another set: the first minus the second)" if sets else "") + ".",
        (f"ranked: 95% intervals {CORRECTION}-corrected for {k} rule changes compared (each at the 1 - 0.05/{k} level, "
         f"{widen(k):.2f} times as wide as a plain 95% interval)" if k > 1 else
         "ranked: plain 95% intervals (one rule change compared, so nothing to correct for)")
        + "; `levels` has each arm's own values with plain 95% "
        "intervals; the findings quote the same intervals as `ranked`. Rules are ranked by effect_size: the largest "
        "change, among those whose corrected interval excludes zero, in standard deviations of that measure per game "
        "or hand (0: nothing measurable), with an interval from the measures' corrected intervals; rules whose "
        "effect-size intervals cannot order them share a rank (a rank is 1 + the rules clearly larger).",
        f"d_{length}: game length; first_edge: P(win) of the player who plays (bids) first in the game's first hand "
        "minus the average over positions; spread: highest minus lowest P(win) over positions (from the first "
        "player round the table; delta-method interval; noise alone makes it a little positive); skill: one "
        f"{strong} player among {weak} ones (the game's simplest non-random heuristic), its P(win) minus a {weak} "
        "side's average (a rule that narrows it makes the game more about luck); random_edge: the same with random "
        f"players instead of {weak}, the edge over random play, which a rule can move by changing how badly random "
        "play does without changing what skill is worth. The headline rates come from single hands.",
        "ignored_by: the players at the table that declare the rules they adapt to and leave this one out: an "
        "effect under them is the rule's on players who play on as under the defaults, not on players who adapt.",
        "never_fired: every game and hand came out exactly as under the defaults, so the change has no measured "
        "effect here because the situation never came up, which is not the same as 'no effect'.",
    ]
