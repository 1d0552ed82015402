"""Rules lab: which house rules matter, and how. Every rules flag of a game (or named sets of
changes) is played on the same deals and games as the defaults, one change at a time, and the
paired differences are ranked: game length, fairness (the first player's edge and the spread of
P(win) over positions), the game's headline rates, and skill (how much more often a strong player
wins than a weak one at the same table).

Built on the what-if machinery (analysis.common): every arm replays the chunk's seeds
(chunk_seeds), so a rule change's numbers are `whatif`'s with the same flag, seed and chunk size.
The defaults are played once per chunk and paired with every change.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np
import pandas as pd

from moonshot.analysis.common import (Progress, Setup, game_values, one_row, outcomes_differ,
                                      paired, run, variant_rules)
from moonshot.analysis.result import Result
from moonshot.analysis.stats import Z, estimate
from moonshot.analysis.words import CORRECTION, clear_of_zero, effects, shift, stands_out, widen
from moonshot.simulator.errors import BadInput
from moonshot.simulator.runner import Change, Tally, chunk_seeds, generators

GAMES_CHUNK = 500          # games per chunk: a few thousand games spread over every job, and batches stay big
HANDS_CHUNK = 5_000        # enough for the engines (Hit the Deck plays 500 games at 4.5 ms each, 250 at 7.7)
DEFAULTS = "defaults"
WEAK = "random"
GAME_MEASURES = ("first_edge", "spread", "skill", "p_unfinished")   # after the game's length measure
WORDS = {"first_edge": "the first player's edge", "spread": "the spread of P(win) over positions",
         "skill": "the strong player's edge", "p_unfinished": "P(unfinished game)",
         "p_odd": "P(odd)", "p_shoot": "P(shoot the moon)", "chips": "chips per side per round",
         "p_made": "P(contract made)", "p_set": "P(contract set)", "p_thrown_in": "P(thrown in)",
         "p_bid21": "P(a 21 contract)", "penalty": "penalty points per seat per hand", "p_blocked": "P(blocked hand)",
         "cards_slap": "slap-race penalty cards", "cards_forgot": "forgot-to-shout penalty cards",
         "cards_false_slap": "false-slap penalty cards", "turns": "turns per hand",
         "rounds": "rounds per game", "hands": "hands per game"}


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


def _game_measures(arm: Setup, strong: str, weak: str, seeds, size: int) -> tuple[dict, np.ndarray, list, list]:
    """One arm's games: (per-game measures, P(win) by position (n, players), what to compare for
    'never fired' under the table's strategies, and in the skill games). Position 0 plays first in the game's first hand; skill is one `strong` player
    (seat 0; its position is random, as the first player is) at a table of `weak` ones, its P(win)
    minus a weak side's average."""
    hooks, table = arm.hooks, arm.table
    P = table.players
    g = hooks.play_games(arm, arm.seats.strategies, generators(seeds), size)
    values = game_values(arm, g)
    seat_at = (hooks.first_player(arm, g)[:, None] + np.arange(P)) % P
    by_position = np.take_along_axis(values["p_win"], seat_at.astype(np.intp), axis=1)
    lineup = [arm.strategy(strong)] + [arm.strategy(weak)] * (P - 1)
    s = hooks.play_games(arm, lineup, generators(seeds), size)
    wins = hooks.wins(arm, s)
    own = int(table.side_of_seat[0])
    others = np.delete(wins, own, axis=1)
    length = hooks.game_length_names[0]
    measures = {length: values[length][:, 0], "first_edge": Change(by_position[:, 0] - by_position.mean(axis=1)),
                "skill": Change(wins[:, own] - others.mean(axis=1)), "p_unfinished": values["p_unfinished"][:, 0]}
    return measures, by_position, [values["p_win"], values[length]], [wins, *hooks.game_length(s).values()]


def _lab_games_chunk(setup: Setup, arms: tuple[tuple[str, ...], ...], pairs: tuple[tuple[int, int], ...],
                     strong: str, weak: str, seed: int, index: int, size: int) -> Tally:
    seeds = chunk_seeds(seed, index, setup.entry.streams)
    played = [_game_measures(arm, strong, weak, seeds, size) for arm in _arms(setup, arms)]
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
    played = []
    for arm in _arms(setup, arms):
        played.append(arm.hooks.headline(arm, arm.hooks.play(arm, arm.seats.strategies, generators(seeds), size)))
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


def effect_sizes(table: pd.DataFrame, names: list[str], k: int) -> pd.Series:
    """Per rule: its largest change in standard deviations of the measure (pooled over base and
    variant, a standardized effect), counting only changes whose interval, Bonferroni-corrected for
    k comparisons, excludes zero; 0 where none does."""
    sizes = {}
    for rule, rows in table.groupby("rule", sort=False):
        best = 0.0
        for name in names:
            d = rows[rows["metric"] == name]
            if d.empty or not clear_of_zero(d, k)[0]:
                continue
            base_name = name[2:]
            levels = rows[rows["metric"].isin([f"base_{base_name}", f"base_p_{base_name}",
                                               f"variant_{base_name}", f"variant_p_{base_name}"])]
            sd = np.sqrt(np.mean([_sd(r) ** 2 for _, r in levels.iterrows()])) if len(levels) else np.nan
            if sd > 0:
                best = max(best, abs(float(d["estimate"].iloc[0])) / sd)
        sizes[rule] = best
    return pd.Series(sizes)


def _sd(row) -> float:
    """The per-game (per-hand) standard deviation behind an estimate row."""
    if row["kind"] == "proportion":
        return float(np.sqrt(row["estimate"] * (1 - row["estimate"])))
    if not np.isfinite(row["ci_high"]) or row["n"] < 2:
        return 0.0
    return float((row["ci_high"] - row["ci_low"]) / 2 / Z * np.sqrt(row["n"]))


def corrected(rows: pd.DataFrame, k: int) -> pd.DataFrame:
    """The rows with their 95% intervals widened to Bonferroni's for k comparisons (1 - 0.05/k)."""
    f = widen(k)
    est = rows["estimate"]
    return rows.assign(ci_low=est - (est - rows["ci_low"]) * f, ci_high=est + (rows["ci_high"] - est) * f)


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


def trial_seconds(setup: Setup, games: int, hands: int, strong: str | None = None, weak: str = WEAK,
                  sets: list[str] | None = None, jobs: int = 1, seed: int = 0) -> float:
    """Seconds the whole lab should take on `jobs` workers, timed from one chunk of games and one
    of hands of the defaults' arm played here (a batch's cost per game depends on its size, so a
    smaller trial would mislead); a sweep plays that for every arm and chunk."""
    import time
    strong = strong or setup.entry.default_strategy
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
    workers = (os.cpu_count() or 1) if jobs < 0 else jobs           # -1: every core
    return per_arm * (len(arms) + 1) / max(1, min(workers, -(-games // g)))


def rules_lab(setup: Setup, games: int | None = None, hands: int | None = None, seed: int = 2026, jobs: int = 1,
              strong: str | None = None, weak: str = WEAK, sets: list[str] | None = None,
              progress: Progress = None) -> Result:
    """Every rule change (or named set) against the defaults on the same games and deals: the
    ranked table of paired changes, the changes that never fired, the flags left out."""
    hooks = setup.hooks
    games, hands = games or hooks.lab_size[0], hands or hooks.lab_size[1]
    strong = strong or setup.entry.default_strategy
    setup.strategy(strong), setup.strategy(weak)
    if strong.strip() == weak.strip():
        raise BadInput(f"--strong and --weak are both {strong!r}: the edge of a player over itself is 0; accepted: "
                       f"two different strategies of {setup.entry.name}")
    arms, skipped, pairs = plan(setup, sets)
    args = tuple(a.args for a in arms)
    t_games = run(_lab_games_chunk, (setup, args, pairs, strong, weak), games, seed, jobs, progress,
                  chunk=GAMES_CHUNK)
    t_hands = run(_lab_hands_chunk, (setup, args, pairs), hands, seed, jobs, progress, chunk=HANDS_CHUNK)
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
    order = sorted(live, key=lambda r: -sizes.get(r, 0.0))
    if order:
        ranked = corrected(ranked, k).assign(rank=lambda d: d["rule"].map({r: i + 1 for i, r in enumerate(order)}))
        ranked = ranked.sort_values(["rank"], kind="stable")
        effect = pd.DataFrame({"rank": range(1, len(order) + 1), "rule": order, "metric": "effect_size",
                               "estimate": [sizes[r] for r in order], "n": ranked.groupby("rule")["n"].max()[order].values,
                               "ci_low": np.nan, "ci_high": np.nan, "kind": "mean"})
        res.tables["ranked"] = pd.concat([effect, ranked], ignore_index=True).sort_values("rank", kind="stable")[
            ["rank", "rule", "metric", "estimate", "n", "ci_low", "ci_high", "kind"]].reset_index(drop=True)
    reasons = [_silent_reason(setup, r, arms, games, hands) + _skill_only(table, r, skill_fired[r], weak, k)
               for r in silent]
    if silent:
        res.tables["never_fired"] = pd.DataFrame({"rule": silent, "reason": reasons})
    if len(skipped):
        res.tables["skipped"] = skipped
    res.tables["levels"] = levels
    _findings(res, table[table["rule"].isin(live)], order, shown, k, setup)
    if silent:
        res.findings.append(f"Never fired, so not ranked ({len(silent)}; the reasons are in the never-fired "
                            "table): " + ", ".join(f"`{r}`" for r in silent) + ".")
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


def _skill_only(table: pd.DataFrame, rule: str, fired: bool, weak: str, k: int) -> str:
    """For a rule that never fired under the table's strategies: whether it changed the skill
    games (where `weak` players reach situations the strong ones never do), and by how much."""
    if not fired:
        return ""
    row = table[(table["rule"] == rule) & (table["metric"] == "d_skill")].iloc[0]
    return f"; it changes only games with {weak} players in them: {shift(row, WORDS['skill'], k)}"


def _findings(res: Result, table: pd.DataFrame, order: list[str], shown: list[str], k: int, setup: Setup) -> None:
    if not order:
        res.findings.append("No rule change made any game or hand come out differently from the defaults.")
        return
    d = table[table["metric"].isin(shown)]
    for rule in order[:5]:                                  # the biggest effects, each in one sentence
        rows = d[d["rule"] == rule]
        real = rows[clear_of_zero(rows, k)]
        if real.empty:
            res.findings.append(f"`{rule}` changes no measure beyond noise ({CORRECTION}-corrected for {k} rule "
                                "changes) though some games or hands came out differently.")
            continue
        parts = [shift(r, f"changes {words_for(r['metric'])}", k) for _, r in real.iterrows()]
        luck = [r for _, r in real.iterrows() if r["metric"] == "d_skill"]
        tail = "" if len(real) == len(rows) else "; nothing else measurable"
        luck_words = ""
        if luck:
            luck_words = (": the game turns more on luck" if luck[0]["estimate"] < 0
                          else ": skill counts for more")
        res.findings.append(f"`{rule}` " + "; ".join(parts) + tail + luck_words + ".")
    length = f"d_{setup.hooks.game_length_names[0]}"
    for name in (length, "d_first_edge", "d_skill"):
        rows = d[d["metric"] == name]
        if len(rows) > 1:
            res.findings.append(effects(rows, lambda r: f"`{r['rule']}`", "rule change", words_for(name)))
    skill = d[d["metric"] == "d_skill"]
    if len(skill) > 1:
        res.findings.append(stands_out(skill, lambda r: f"`{r['rule']}`", "rule change",
                                       "makes the game the most about luck (narrows the strong player's edge most)",
                                       "the strong player's edge", higher=False))


def _notes(setup: Setup, k: int, strong: str, weak: str, games: int, hands: int, sets: bool) -> list[str]:
    length = setup.hooks.game_length_names[0]
    return [
        f"Every rule change is played on the same {games:,} games and {hands:,} hands as the defaults (the same "
        "deals and random streams); each number in `ranked` is the paired change, the change minus the defaults"
        + (" (a set against another set: the first minus the second)" if sets else "") + ".",
        f"ranked: 95% intervals {CORRECTION}-corrected for {k} rule changes compared (each at the 1 - 0.05/{k} level, "
        f"{widen(k):.2f} times as wide as a plain 95% interval); `levels` has each arm's own values with plain 95% "
        "intervals. Rules are ranked by effect_size: the largest change, among those whose corrected interval "
        "excludes zero, in standard deviations of that measure per game or hand (0: nothing measurable).",
        f"d_{length}: game length; first_edge: P(win) of the player who plays (bids) first in the game's first hand "
        "minus the average over positions; spread: highest minus lowest P(win) over positions (from the first "
        "player round the table; delta-method interval; noise alone makes it a little positive); skill: one "
        f"{strong} player among {weak} ones, its P(win) minus a {weak} side's average (a rule that narrows it makes "
        "the game more about luck). The headline rates come from single hands.",
        "never_fired: every game and hand came out exactly as under the defaults, so the change has no measured "
        "effect here because the situation never came up, which is not the same as 'no effect'.",
    ]
