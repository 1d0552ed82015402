"""The rules lab's words: who its measures seat (skill_seats), the players each finding holds for
(with each reaction profile's provenance), and its findings and notes. Split from
analysis/rules_lab.py, which plays and estimates; every interval quoted here is the ranked table's,
Bonferroni-corrected for the rule changes compared."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from moonshot.analysis.common import GAME_WORDS, Setup, players_said, seat_labels
from moonshot.analysis.words import (CORRECTION, clear_of_zero, effects, for_players, listed, say, shift, widen,
                                     widened)
from moonshot.simulator.errors import BadInput
from moonshot.strategies.base import adapts

RANDOM = "random"          # the edge over random play: a second, named measure beside skill
WORDS = {"first_edge": "the first player's edge", "spread": "the spread of P(win) over positions",
         "weakest": "the weakest seat's P(win)",
         "skill": "skill (the strong player's edge over the baseline)",
         "random_edge": "the strong player's edge over random play", **GAME_WORDS,
         "p_odd": "P(odd)", "p_shoot": "P(shoot the moon)", "chips": "chips per side per round",
         "p_made": "P(contract made)", "p_set": "P(contract set)", "p_thrown_in": "P(thrown in)",
         "p_bid21": "P(a 21 contract)", "penalty": "penalty points per seat per hand", "p_blocked": "P(blocked hand)",
         "cards_slap": "slap-race penalty cards", "cards_forgot": "forgot-to-shout penalty cards",
         "cards_false_slap": "false-slap penalty cards", "turns": "turns per hand"}
EDGES = {"d_skill": "skill", "d_random_edge": "the edge over random play"}


# --------------------------------------------------------------------------------------------
# who the measures seat
# --------------------------------------------------------------------------------------------

def _profiles(setup: Setup) -> list:
    return list(getattr(setup.table, "profiles", ()))


def skill_seats(setup: Setup) -> tuple[int, ...]:
    """The seats the skill games' strong and baseline players take: every seat when the seats'
    reaction profiles are alike (the strong player at seat 0, whose position is random as the first
    player is); else the seats of the most common profile (the game's default one on a tie), the
    others keeping their profile and the table's player, so a handicap stays where it was put.
    Refused when no two seats share a profile (no like seat for the baseline)."""
    specs = [p.spec() for p in _profiles(setup)]
    if len(set(specs)) <= 1:
        return tuple(range(setup.players))
    counts = Counter(specs)
    top = max(counts.values())
    tied = [s for s in dict.fromkeys(specs) if counts[s] == top]
    level = setup.hooks.default_profile if setup.hooks.default_profile in tied else tied[0]
    if top < 2:
        raise BadInput(f"--profile: the rules lab's skill measure needs two seats with one reaction profile (the "
                       f"strong player and a baseline player in like seats); seats here: {', '.join(specs)}; "
                       "accepted: profiles that leave two seats alike, or more players")
    return tuple(s for s, spec in enumerate(specs) if spec == level)


def ignored_by(setup: Setup, specs, flags: list[str]) -> list[str]:
    """The strategies among `specs` that declare the rules they adapt to (strategies/base.py) and
    adapt to none of `flags`: under a change of those flags they play as under the defaults."""
    return [spec for spec in dict.fromkeys(specs) if not any(adapts(setup.strategy(spec), f) for f in flags)]


def flags_of(arms: list, label: str) -> list[str]:
    """The rules flags a comparison changes (both sets' flags for 'a vs b')."""
    names = {a.label: a for a in arms}
    parts = label.split(" vs ") if label not in names else [label]
    return list(dict.fromkeys(arg.split("=", 1)[0].strip() for p in parts if p in names for arg in names[p].args))


# --------------------------------------------------------------------------------------------
# players and measures in words
# --------------------------------------------------------------------------------------------

def words_for(metric: str) -> str:
    """A measure as a sentence names it ('d_odd' -> 'P(odd)')."""
    name = metric.removeprefix("d_")
    return WORDS.get(name) or WORDS.get(f"p_{name}", name)


def measure_words(metric: str, strong: str, weak: str) -> str:
    """A measure as a sentence names it, with the skill measure's players."""
    if metric == "d_skill":
        return f"skill ({strong}'s edge over {weak})"
    if metric == "d_random_edge":
        return f"the strong player's edge over random play ({strong})"
    return words_for(metric)


def table_players(setup: Setup) -> str:
    """The table's players (common.players_said) and, where it names reaction profiles, where
    their numbers come from (placeholders not yet calibrated, or fitted from the person's slaps)."""
    said = players_said(setup)
    profiles = _profiles(setup)
    if "reaction profiles" not in said or not all(hasattr(p, "provenance") for p in profiles):
        return said
    origin = {p.spec(): p.provenance() for p in profiles}
    texts = list(dict.fromkeys(origin.values()))
    if len(texts) == 1:
        return f"{said} ({'each ' if len(origin) > 1 else ''}{texts[0]})"
    return f"{said} ({'; '.join(f'{spec}: {text}' for spec, text in origin.items())})"


def skill_players(setup: Setup, strong: str, among: str) -> str:
    """'one tactician among dump players', and where the seats' profiles differ, in which seats."""
    level = skill_seats(setup)
    said = f"one {strong} among {among} players"
    if len(level) == setup.players:
        return said
    kept = [s for s in range(setup.players) if s not in level]
    one = len(kept) == 1
    return (f"{said} in the seats with reaction profile {_profiles(setup)[level[0]].spec()}, in each in turn "
            f"(seat{'' if one else 's'} {listed(kept)} {'keeps its' if one else 'keep their'} player and profile)")


def lab_players(setup: Setup, lineup_pair: tuple[str, str] = ("", ""), metrics=None) -> str:
    """Who a finding's measures hold for: the table's players, but for the two edges one strong
    player among the baseline's (skill) or random players; `metrics` (None: every measure) are
    the measures the finding speaks of."""
    strong, weak = lineup_pair
    metrics = set(EDGES) | {""} if metrics is None else set(metrics)
    table = [table_players(setup)] if metrics - set(EDGES) else []
    among = {"d_skill": weak, "d_random_edge": RANDOM}
    edges = [m for m in EDGES if m in metrics] if strong else []
    if not table and len(edges) == 1:
        return skill_players(setup, strong, among[edges[0]])
    return "; ".join(table + [f"for {EDGES[m]}, {skill_players(setup, strong, among[m])}" for m in edges])


# --------------------------------------------------------------------------------------------
# findings
# --------------------------------------------------------------------------------------------

def silent_reason(setup: Setup, rule: str, arms: list, games: int, hands: int) -> str:
    """Why a comparison never fired: what its flags say they wait for, else what was played."""
    by_name = {f.name: f for f in setup.entry.flags}
    args = next((a.args for a in arms if a.label == rule), ())
    flags = [by_name.get(arg.split("=", 1)[0].strip()) for arg in args]
    if flags and all(f is not None and f.needs for f in flags):
        return "; ".join(dict.fromkeys(f.needs for f in flags))
    return (f"none of {games:,} games or {hands:,} hands came out differently: "
            f"{', '.join(dict.fromkeys(setup.seats.specs))} never reaches the situation it governs, or it never "
            "changes an outcome there")


def skill_only(table: pd.DataFrame, rule: str, fired: bool, strong: str, weak: str, k: int) -> str:
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
            f"{shift(rows.loc['d_skill'], measure_words('d_skill', strong, weak), k)}; "
            f"{shift(rows.loc['d_random_edge'], measure_words('d_random_edge', strong, weak), k)}")


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


def findings(res, table: pd.DataFrame, order: list[str], shown: list[str], k: int, setup: Setup,
             ignored: dict, lineup: tuple[str, str], flags: dict) -> None:
    """One sentence per rule with an effect clear of zero (so every such effect is named), one for the
    rules with none, then one per measure over every rule; every interval quoted is the ranked
    table's, Bonferroni-corrected for the k rule changes compared."""
    if not order:
        res.findings.append(for_players("No rule change made any game or hand come out differently from the "
                                        "defaults.", lab_players(setup)))
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
        parts = [shift(r, f"changes {measure_words(r['metric'], strong, weak)}", k, named=False)
                 for _, r in real.iterrows()]
        tail = "" if len(real) == len(rows) else "; nothing else measurable"
        skill = "d_skill" in set(real["metric"])
        words = ""
        if skill:
            words = ": the game turns more on luck" if by.loc["d_skill", "estimate"] < 0 else ": skill counts for more"
        if "d_random_edge" in set(real["metric"]) and (not skill or np.sign(by.loc["d_skill", "estimate"]) !=
                                                       np.sign(by.loc["d_random_edge", "estimate"])):
            words += (f"; skill ({strong} against {weak}) "
                      + ("moves the other way" if skill else
                         f"changes by {_quoted(by.loc['d_skill'], k)}, not told from zero")
                      + f": the rule changes how random play fares against {strong}, not how much skill counts")
        players = lab_players(setup, lineup, [*real["metric"], *(["d_skill"] if "skill (" in words else [])])
        res.findings.append(for_players(f"`{rule}` " + "; ".join(parts) + tail + note + words + ".", players) + adapt)
    if noise:
        res.findings.append(for_players(f"No measure changes beyond noise{note} under {', '.join(noise)}, though some "
                                        "games or hands came out differently.", lab_players(setup, lineup)))
    res.findings += _ignored_words(setup, ignored, order)
    length = f"d_{setup.hooks.game_length_names[0]}"
    lead = len(set(seat_labels(setup))) > 1             # seat_findings says the weakest seat's changes first
    for name in (length, "d_first_edge", "d_weakest", "d_skill", "d_random_edge"):
        rows = d[d["metric"] == name]
        if len(rows) > 1 and not (lead and name == "d_weakest"):
            res.findings.append(for_players(effects(rows, lambda r: f"`{r['rule']}`", "rule change",
                                                    measure_words(name, strong, weak), k=k),
                                            lab_players(setup, lineup, [name])))


def _quoted(row, k: int) -> str:
    """A change with its interval corrected for k, as the ranked table shows it: '+0.5 percentage points
    [-2.1, +3.0]'."""
    return say(widened(pd.DataFrame([dict(row)]), k).iloc[0], signed=True)


def seat_findings(setup: Setup, seats: pd.DataFrame, table: pd.DataFrame, k: int, games: int,
                  weakest: int) -> list[str]:
    """When the seats differ (a strategy, a reaction profile): each seat unlike the most common one
    first, with its P(win) under the defaults beside the others', then what changes the weakest
    seat's chance (the ranked table's corrected intervals); none when the seats are alike."""
    labels = seat_labels(setup)
    if len(set(labels)) == 1:
        return []
    common = max(set(labels), key=labels.count)
    wins = seats.set_index("seat")
    players = table_players(setup)
    others = ", ".join(say(wins.loc[o]) for o, x in enumerate(labels) if x == common)
    out = [for_players(f"Seat {s} ({label}) wins {say(wins.loc[s])} of the {games:,} games under the defaults; the "
                       f"other seats ({common}) {others}.", players)
           for s, label in enumerate(labels) if label != common and labels.count(common) > 1]
    rows = table[table["metric"] == "d_weakest"]
    if len(rows):
        what = f"the weakest seat's P(win) (seat {weakest} under the defaults)"
        text = (effects(rows, lambda r: f"`{r['rule']}`", "rule change", what, k=k) if len(rows) > 1 else
                f"`{rows['rule'].iloc[0]}` changes {shift(rows.iloc[0], what, k)}.")
        out.append(for_players(text, players))
    return out


def notes(setup: Setup, k: int, strong: str, weak: str, games: int, hands: int, sets: bool) -> list[str]:
    length = setup.hooks.game_length_names[0]
    level = skill_seats(setup)
    kept = [s for s in range(setup.players) if s not in level]
    seated = ("" if not kept else
              f" The seats' reaction profiles differ, so the skill games keep every seat's profile: the {strong} "
              f"player takes each seat with profile {_profiles(setup)[level[0]].spec()} in turn ({listed(level)}), "
              f"{weak} players the others of those seats, and seat{'s' if len(kept) > 1 else ''} {listed(kept)} "
              f"{'keep their' if len(kept) > 1 else 'keeps its'} profile and the table's player; skill is its P(win) "
              f"minus the average of the {weak} players' in those like seats, averaged over the turns (random_edge "
              "the same with random players).")
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
        "player round the table; delta-method interval; noise alone makes it a little positive); weakest: the "
        "lowest P(win) of any seat (the seat taken as found under each rule set, so it sees a handicapped seat "
        "that the positions' spread averages away; Wilson interval for each arm's, delta-method for the change; "
        "noise alone makes it a little low when the seats are alike), `seats` each seat's P(win) under the "
        f"defaults; skill: one {strong} player among {weak} ones (the game's simplest non-random heuristic), its "
        f"P(win) minus a {weak} side's average (a rule that narrows it makes the game more about luck); random_edge: "
        f"the same with random players instead of {weak}, the edge over random play, which a rule can move by "
        "changing how badly random play does without changing what skill is worth." + seated
        + " The headline rates come from single hands.",
        "ignored_by: the players at the table that declare the rules they adapt to and leave this one out: an "
        "effect under them is the rule's on players who play on as under the defaults, not on players who adapt.",
        "never_fired: every game and hand came out exactly as under the defaults, so the change has no measured "
        "effect here because the situation never came up, which is not the same as 'no effect'.",
    ]
