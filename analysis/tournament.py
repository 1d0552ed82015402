"""A round robin of strategies with Bradley-Terry ratings, for any game in the registry.

Every pair of strategies plays a paired match in games mode (analysis.common.match: the same
deals for both, A taking each side's seats in turn with B in all the others, so seats are
controlled for). What a pair gives is a_win, how often A's side wins the game against a field
of B's sides. The ratings are Bradley-Terry (Luce) log-strengths theta: a side of strength
exp(theta_A) among S - 1 sides of strength exp(theta_B) wins with probability
exp(theta_A) / (exp(theta_A) + (S - 1) exp(theta_B)); with two sides this is the usual
head-to-head model. They are fitted by Newton's method (summing to zero), each pair weighted
by its effective number of games: the binomial sample size with the variance the match
measured (its 95% interval), so the paired, seat-rotated design counts for what it is worth.
Intervals come from the Fisher information (95%, +-1.96 SE). Ratings are on the Elo scale (400
/ ln 10 per unit of log-strength: between two sides, +100 means winning about 64% of games).
Half a win and half a loss are added to every pair so that a clean sweep has a finite rating.
Unfinished games (the engine's cap on hands) count as not won, as in the match; the pairs table
and a finding say how often that happened. Entrants whose match had the same outcome on every
deal (two names for one player) are rated once, under both names ("threshold = defend").
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from moonshot.analysis.common import Progress, Setup, match_call, match_result, run_many
from moonshot.analysis.result import Result
from moonshot.analysis.words import for_players, listed, say, stands_out
from moonshot.analysis.stats import Z
from moonshot.simulator.errors import BadInput

ELO = 400 / np.log(10)
PRIOR = 0.5          # a win and a loss of this weight added to every pair


def bradley_terry(wins: np.ndarray, games: np.ndarray, sides: int = 2,
                  prior: float = PRIOR) -> tuple[np.ndarray, np.ndarray]:
    """Log-strengths theta (K,) summing to zero and their covariance (K, K).

    wins[i, j] of games[i, j] (fractional counts) won by i's side against a field of sides - 1
    sides of j; P(i wins) = 1 / (1 + (sides - 1) exp(theta_j - theta_i)). Pairs may be observed
    one way round, the other, or both."""
    wins = np.asarray(wins, dtype=float)
    games = np.asarray(games, dtype=float)
    K = len(wins)
    met = games > 0
    w = wins + prior * met
    n = games + 2 * prior * met
    offset = np.log(sides - 1)

    def fit(theta):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None] + offset))     # P(i wins against j's field)
        info = n * p * (1 - p)
        info = info + info.T                   # each observation bears on theta_i - theta_j
        lap = np.diag(info.sum(axis=1)) - info
        return p, lap

    theta = np.zeros(K)
    for _ in range(200):
        p, lap = fit(theta)
        r = w - n * p
        grad = r.sum(axis=1) - r.sum(axis=0)
        step = np.linalg.solve(lap + np.ones((K, K)) / K, grad)
        theta += step
        theta -= theta.mean()
        if np.abs(step).max() < 1e-12:
            break
    _, lap = fit(theta)
    return theta, np.linalg.pinv(lap)


def _effective_games(p: float, lo: float, hi: float, games: int) -> float:
    """The number of independent games with the variance the match measured for a_win
    (its interval is mean +- 1.96 SE), between 1 and 10 x the games played."""
    var = ((hi - lo) / (2 * Z)) ** 2
    if not var > 0 or p <= 0 or p >= 1:          # no spread measured (or one game: no interval)
        return float(games)
    return float(min(max(p * (1 - p) / var, 1.0), 10 * games))


PAIR_METRICS = ("a_win", "b_win", "d_win", "p_unfinished_a", "p_unfinished_b", "d_unfinished")


def one_player_groups(k: int, same: list[tuple[int, int]]) -> list[list[int]]:
    """Entrants 0..k-1 grouped by identical play (the pairs in `same`, transitively), in entrant order."""
    group = list(range(k))
    for i, j in same:
        low, high = sorted((group[i], group[j]))
        group = [low if g == high else g for g in group]
    return [[e for e in range(k) if group[e] == g] for g in sorted(set(group))]


def _ratings(rated: list[int], names: list[str], a_win: dict, games: int, sides: int) -> pd.DataFrame:
    """Bradley-Terry ratings of the `rated` entrants (increasing indices of a_win's pairs (i, j) ->
    (estimate, ci_low, ci_high)), shown under `names`, best first."""
    K = len(rated)
    wins, n_eff = np.zeros((K, K)), np.zeros((K, K))
    for x, y in combinations(range(K), 2):
        p, lo, hi = a_win[rated[x], rated[y]]
        n_eff[x, y] = _effective_games(p, lo, hi, games)
        wins[x, y] = n_eff[x, y] * p
    theta, cov = bradley_terry(wins, n_eff, sides) if K > 1 else (np.zeros(K), np.full((K, K), np.nan))
    se = np.sqrt(np.maximum(np.diag(cov), 0))
    ratings = pd.DataFrame({"strategy": names, "metric": "rating", "estimate": ELO * theta,
                            "n": [games * (K - 1)] * K, "ci_low": ELO * (theta - Z * se),
                            "ci_high": ELO * (theta + Z * se), "kind": "mean"})
    return ratings.sort_values("estimate", ascending=False, kind="stable").reset_index(drop=True)


def _unfinished_finding(pairs: pd.DataFrame) -> str:
    """How often games hit the cap on game length: in A's lineups (what the ratings rest on) and
    with B in every seat."""
    def worst(metric: str, who) -> str:
        rows = pairs[pairs["metric"] == metric]
        if (rows["estimate"] == 0).all():
            return "none"
        top = rows.loc[rows["estimate"].idxmax()]
        return f"up to {say(top)} ({who(top)})"
    in_a = worst("p_unfinished_a", lambda r: f"{r['a']} against {r['b']}")
    in_b = worst("p_unfinished_b", lambda r: r["b"])
    if in_a == in_b == "none":
        return "No game was left unfinished at the cap on game length in any pair."
    return (f"Games left unfinished at the cap on game length count as lost by every side: in the lineups the "
            f"ratings rest on (A's), {in_a}; with B in every seat, {in_b}.")


def tournament(setup: Setup, specs, games: int, seed: int, jobs: int = 1, progress: Progress = None) -> Result:
    """Every pair of `specs` in a paired games-mode match on `setup`'s table; Bradley-Terry ratings
    with 95% intervals (table `ratings`) and each pair's result (table `pairs`)."""
    specs = [s.strip() for s in specs]
    if len(specs) < 2:
        raise BadInput(f"a tournament needs at least two strategies, got {len(specs)}; accepted: two or more "
                       f"--strategy values")
    if len(set(specs)) != len(specs):
        dup = next(s for s in specs if specs.count(s) > 1)
        raise BadInput(f"strategy {dup!r} is named twice; accepted: different strategies")
    if games is None or games < 1:
        raise BadInput(f"games {games!r}; accepted: a whole number of games >= 1")
    setup.validate()
    for spec in specs:
        setup.strategy(spec)                       # BadInput for an unknown strategy or parameter
    K = len(specs)
    S = setup.table.n_sides
    rows, a_win, same = [], {}, []
    pairs = list(combinations(range(K), 2))
    # Every pair's chunks in one stream over the workers (a pair alone may be a single chunk of a search player)
    calls = [match_call(setup, specs[i], specs[j], None, games) for i, j in pairs]
    tallies = run_many(calls, seed, jobs, progress)
    results = [((i, j), match_result(setup, specs[i], specs[j], None, games, seed, t))
               for (i, j), t in zip(pairs, tallies)]
    for (i, j), res in results:
        table = res.tables["match"].set_index("metric")
        for metric in PAIR_METRICS:
            r = table.loc[metric]
            rows.append({"a": specs[i], "b": specs[j], "metric": metric, "estimate": r["estimate"],
                         "n": int(r["n"]), "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                         "kind": r["kind"] if "kind" in r else "mean"})
        a_win[i, j] = tuple(float(table.loc["a_win", c]) for c in ("estimate", "ci_low", "ci_high"))
        if res.meta["deals_with_different_outcomes"] == 0:
            same.append((i, j))
    groups = one_player_groups(K, same)
    rated = [g[0] for g in groups]                 # each group's first entrant stands for it
    names = [" = ".join(specs[k] for k in g) for g in groups]
    ratings = _ratings(rated, names, a_win, games, S)
    meta = setup.meta(seed=seed)
    meta.pop("strategies", None)              # the table's default seats play no part here
    res = Result(f"{setup.entry.title}: tournament of {K} strategies",
                 {**meta, "entrants": specs, "games_per_pair": games})
    res.tables["ratings"] = ratings
    res.tables["pairs"] = pd.DataFrame(rows)
    for g in groups:
        if len(g) > 1:
            res.findings.append(f"{' and '.join(specs[k] for k in g)} played identically on every deal of their "
                                f"match (the same outcomes in all {games:,} games): one player, rated once as "
                                f"'{' = '.join(specs[k] for k in g)}'.")
    entrants = f"each pair of {listed(specs)}"          # the players the ratings and games are of
    if len(ratings) < 2:
        res.findings.append(for_players("Every entrant played identically: there is nothing to rate.", entrants))
    else:
        res.findings.append(for_players(stands_out(ratings, lambda r: r["strategy"], "strategy",
                                                   f"rates highest ({games} games per pair, Elo scale)", "rating"),
                                        entrants))
    res.findings.append(for_players(_unfinished_finding(res.tables["pairs"]), entrants))
    res.notes.append("Each pair is a paired match in games mode: A in each side's seats in turn with B in the "
                     "others, and B in every seat on the same deals (a_win, b_win, d_win as in `compare`). "
                     "Ratings: Bradley-Terry strengths fitted to the a_win of every pair (a side wins against S-1 "
                     "others in proportion to its strength), Elo scale, summing to zero; a rating's 95% interval "
                     "says how far the games played let it move (each pair counted by how many independent games "
                     "its own interval is worth).")
    return res

