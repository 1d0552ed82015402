"""Words a player reads instead of metric names: the column header of every metric and key, and a
glossary line saying what it means. Used by the text output, the reports and `--help`.

Paired and compared metrics are named from a base name: ``a_`` / ``b_`` (strategy A / B),
``d_`` (the paired difference), ``base_`` / ``variant_`` (rules what-if), ``with_`` / ``without_``.
"""
from __future__ import annotations

import os
import re

import pandas as pd

COMMON = {
    "p_win": ("P(win game)", "probability that the side wins the whole game"),
    "win": ("P(win game)", "probability that the side wins the whole game"),
    "p_unfinished": ("P(unfinished)", "games still open at the engine's cap on hands (no winner: lost by all)"),
    "p_unfinished_a": ("P(unfinished), A", "games A's lineups left unfinished at the cap on hands"),
    "p_unfinished_b": ("P(unfinished), B", "games B's lineup left unfinished at the cap on hands"),
    "rounds": ("rounds per game", "rounds dealt until the game was won"),
    "hands": ("hands per game", "hands dealt until the game was won"),
    "side": ("side", "a player, or a partnership"), "seat": ("seat", "0..n-1 clockwise"),
    "players": ("players", "table size"), "table": ("table", "players, and partnerships if any"),
    "position": ("position", "order in the deal or auction: 0 goes first"),
    "n": ("n", "sample size behind the estimate"),
    "a": ("A", "the pair's first strategy"), "b": ("B", "the pair's second strategy"),
    "ci_low": ("95% low", "the low end of the 95% interval of the estimate before it"),
    "ci_high": ("95% high", "the high end of the 95% interval of the estimate before it"),
    "expected_score": ("expected points", "the mean points the hand's side scores with that choice"),
    "partners": ("partnerships", "whether the players play in partnerships"),
    "share": ("share", "share of the hands (or games) in that row"),
    "rule": ("rule", "a rules change (flag=value) or a named rule set, played against the defaults"),
    "rank": ("rank", "order by effect_size, largest first; rules whose effect-size intervals cannot order them "
             "share a rank"),
    "effect_size": ("effect size", "the rule's largest measurable change, in standard deviations of that measure"),
    "ignored_by": ("ignored by", "the players at the table that do not adapt their choices to this rule (their "
                   "declared rule reads): its effect on players who play on as under the defaults"),
    "first_edge": ("first player's edge", "P(win) of the player who plays (bids) first in the first hand, minus "
                   "the average over positions"),
    "spread": ("P(win) spread", "highest minus lowest P(win) over positions round the table"),
    "weakest": ("weakest seat's P(win)", "the lowest P(win) of any seat, the seat taken as found under each rule set "
                "(a handicapped seat stays in its seat, so this sees what the spread over positions averages away)"),
    "skill": ("skill", "one strong player among the game's baseline players (its simplest non-random heuristic): its "
              "P(win) minus a baseline side's"),
    "random_edge": ("edge over random play", "one strong player among random ones: its P(win) minus a random side's "
                    "(not skill: a rule can move it by changing how random play fares)"),
    "flag": ("flag", "a rules flag (RULES.md §4)"),
    "reason": ("reason", "why the rule was left out or never changed a game"),
    "strategy": ("strategy", "the strategy the row is about (in a strong-play table: the one in every seat; a row "
                 "'X - Y' is X's estimate minus Y's, with its 95% interval)"),
}

# `moonshot review` (analysis/review.py): a decision's options against the best one found on the same worlds
REVIEW = {
    "value_low": ("value 95% low", "the low end of the 95% interval of the option's mean value over the worlds"),
    "value_high": ("value 95% high", "the high end of the 95% interval of the option's mean value over the worlds"),
    "diff": ("change from best", "the option's mean value less the best option's, on the same worlds, in the mover's "
             "favour in every game: negative is worse (in penalty points, more points are worse)"),
    "diff_low": ("change 95% low", "the low end of the paired 95% interval of the change from the best option"),
    "diff_high": ("change 95% high", "the high end of the paired 95% interval of the change from the best option"),
    "open_value": ("open-hands value", "the option's value with every hand known (the exact solver): what a "
                   "seat could not know at the table, shown apart"),
    "chosen": ("chosen", "the option the seat took"),
    "loss": ("loss", "what taking the option cost against the best option, in the valuation the verdict used; in "
             "the luck table, the sum of the seat's losses in the hand's unit (its skill: what its choices cost)"),
    "loss_low": ("loss 95% low", "the low end of the loss's paired 95% interval"),
    "loss_high": ("loss 95% high", "the high end of the loss's paired 95% interval"),
    "verdict": ("verdict", "forced (one legal option), best, then by size: blunder, mistake or inaccuracy where the "
                "loss's 95% interval clears that size (each game's sizes and why are in the review's notes), fine "
                "where the whole interval is under the inaccuracy size, else cannot be told"),
    "where": ("where", "the decision as a player names it (bid, trump, trick 3 2nd to play, turn 12 ...)"),
    "decision": ("decision", "the kind of decision: bid, discard, trump, play, drawn card ..."),
    "best": ("best", "the option best on all the worlds (in a decision's table: whether this option is it)"),
    "p_win_low": ("P(win) 95% low", "the low end of the 95% interval of the option's P(win) over the worlds"),
    "p_win_high": ("P(win) 95% high", "the high end of the 95% interval of the option's P(win) over the worlds"),
    "valued_by": ("valued by", "P(win) for hands of whole games (the chance to win the game after this hand), "
                  "else the game's unit for the hand"),
    "taken_by": ("yardsticks' choice", "the built-in strategies that would take this option from the same view"),
    "total_loss": ("total loss", "the sum of the decisions' losses, with its 95% interval (decisions are "
                   "valued on independent worlds, so their variances add)"),
    "blunders": ("blunders", "decisions whose loss interval clears the unit's blunder size"),
    "mistakes": ("mistakes", "decisions whose loss interval clears the mistake size but not the blunder size"),
    "inaccuracies": ("inaccuracies", "decisions whose loss interval clears the inaccuracy size but not the mistake "
                     "size"),
    "error_rate": ("error rate", "the mean loss a decision with a choice (the total loss over their number), with "
                   "its 95% interval: GNU Backgammon's error rate"),
    "forced": ("forced", "decisions with one legal option"),
    # luck and skill (analysis/luck.py): GNU Backgammon's split, made to add up exactly
    "result": ("result", "the seat's result in the hand in the unit its options are valued in (Moon: its side's "
               "points less the other side's, three players the mean of the two defenders'; Shoot the Moon: its "
               "side's chips gained less the other sides' mean gain; Hit the Deck: its penalty points less the others' "
               "mean); a game's or the file's row sums its hands"),
    "expected": ("expected", "the seat's mean result before the deal at its place at the table (from the dealer or "
                 "the first bidder), under the hand's rules and table, with the game's default players in every "
                 "seat: 20,000 simulated hands, with a 95% interval"),
    "luck": ("luck", "every change of the seat's value it did not choose: the deal (its value at its first decision "
             "less the expected), then from each choice's value to its next decision's (the others' moves, draws, "
             "the widow, forced moves, Hit the Deck's slap races: reactions, not decisions), then to the result; a "
             "decision's value is the chosen option's mean plus its loss, what best play from there is worth. "
             "Positive helped the seat (in penalty points: points kept off it). So result = expected + luck - loss "
             "exactly (in penalty points: expected - luck + loss)"),
    "adjusted": ("luck-adjusted", "the result with the luck taken out: the expected result with what the seat's "
                 "choices cost taken off it (in penalty points: added to it), GNU Backgammon's luck-adjusted result, "
                 "with its 95% interval"),
    "expected_low": ("expected 95% low", "the low end of the expected result's 95% interval"),
    "expected_high": ("expected 95% high", "the high end of the expected result's 95% interval"),
    "luck_low": ("luck 95% low", "the low end of the luck's 95% interval (the expected's and the losses' variances "
                 "added; for one step, the two values it joins)"),
    "luck_high": ("luck 95% high", "the high end of the luck's 95% interval"),
    "adjusted_low": ("luck-adjusted 95% low", "the low end of the luck-adjusted result's 95% interval"),
    "adjusted_high": ("luck-adjusted 95% high", "the high end of the luck-adjusted result's 95% interval"),
}
COMMON.update(REVIEW)

PREFIXES = (("a_", "A: {}", "for strategy A: {}"), ("b_", "B: {}", "for strategy B in the same seats: {}"),
            ("d_", "change: {}", "paired difference (A-B, variant-base or with-without) of: {}"),
            ("base_", "base: {}", "under the default rules: {}"),
            ("variant_", "variant: {}", "under the variant rules: {}"),
            ("with_", "with: {}", "with it: {}"), ("without_", "without: {}", "without it: {}"),
            ("pass_", "if passing: {}", "when the hand passes instead: {}"))


def game_words(game: str | None) -> dict:
    """The game's own words (its hooks' `words`, declared in its analysis module)."""
    from moonshot.simulator.games import GAMES
    return GAMES[game].hooks.words if game in GAMES else {}


def _entry(game: str | None, name: str):
    return game_words(game).get(name) or COMMON.get(name)


def _lookup(game: str | None, name: str):
    """(label, meaning) of a metric or key, prefixes composed; None when unknown."""
    hit = _entry(game, name)
    if hit:
        return hit
    for prefix, label, meaning in PREFIXES:
        if name.startswith(prefix):
            base = name[len(prefix):]
            inner = _entry(game, base) or _entry(game, "p_" + base)
            if inner:
                return label.format(inner[0]), meaning.format(inner[1])
    return None


def label(game: str | None, name: str) -> str:
    hit = _lookup(game, name)
    return hit[0] if hit else name


NAME = re.compile(r"(?<![\w.=-])`?([a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:\*|[a-z0-9]+))`?(?![\w.=(-])")


def in_words(game: str | None, text: str, tables: dict[str, str] | None = None) -> str:
    """`text` with every metric name a player never sees (d_chips, p_make_open, a_*) replaced by the
    column header the tables show ('change: chips +/-', 'A: …'), and every table name in `tables`
    (name -> caption) by the table's caption. Words without an underscore, and flags such as
    stm.target_chips=9, are left alone."""
    def word(match: re.Match) -> str:
        name = match.group(1)
        if tables and name in tables:
            return f"the table '{tables[name]}'"
        if name.endswith("_*"):
            stem = name[:-1]
            for prefix, header, _ in PREFIXES:
                if prefix == stem:
                    return f"'{header.format('…')}'"
            names = [label(game, n) for n in {**COMMON, **game_words(game)} if n.startswith(stem)]
            common = os.path.commonprefix(names) if names else ""
            return f"'{common}…'" if common.strip() else match.group(0)
        hit = _lookup(game, name)
        return f"'{hit[0]}'" if hit else match.group(0)
    return NAME.sub(word, text)


def glossary_lines(game: str | None, tables: dict[str, pd.DataFrame]) -> list[str]:
    """'header: meaning' for every metric and key column shown in `tables`."""
    names: dict[str, None] = {}
    for df in tables.values():
        for col in df.columns:
            if col not in ("metric", "estimate", "n", "ci_low", "ci_high", "kind", "count"):
                names[col] = None
        if "metric" in df.columns:
            names.update(dict.fromkeys(df["metric"]))
    lines = []
    for name in names:
        hit = _lookup(game, str(name))
        if hit:
            lines.append(f"{hit[0]}: {in_words(game, hit[1])}")
    return list(dict.fromkeys(lines))


def strategy_lines(game: str | None, specs, meta: dict | None = None) -> list[str]:
    """What produced the numbers: each strategy in play with its rule of thumb. A table played by
    other players says so (a hand result's check, `meta`'s check_strategy: its own line)."""
    if not game or not specs:
        return []
    from moonshot.strategies.base import registered, rule_of_thumb
    if isinstance(specs, dict):                    # a match: {"A": spec, "B": spec}
        named = [(f"{k}={v}", v) for k, v in specs.items()]
    else:
        named = []
        for spec in dict.fromkeys(specs):
            seats = [str(i) for i, s in enumerate(specs) if s == spec]
            named.append((f"seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}: {spec}", spec))
    known = registered(game)
    out = ["strategies (every number is under these players unless its table or finding names others):"]
    for title, spec in named:
        cls = known.get(spec.split(":")[0])
        out.append(f"  {title}" + (f" - {rule_of_thumb(cls)}" if cls else " - your own strategy"))
    check = (meta or {}).get("check_strategy")
    if check:
        out.append(f"  table check: its strategy column names each row's players ({check}: {check} in every seat, "
                   f"on the first {int((meta or {}).get('check_samples', 0)):,} deals)")
    return out
