"""Words a player reads instead of metric names: the column header of every metric and key, and a
glossary line saying what it means. Used by the text output, the reports and `--help`.

Paired and compared metrics are named from a base name: ``a_`` / ``b_`` (strategy A / B),
``d_`` (the paired difference), ``base_`` / ``variant_`` (rules what-if), ``with_`` / ``without_``.
"""
from __future__ import annotations

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
    "share": ("share", "share of the hands (or games) in that row"),
    "strategy": ("strategy", "the strategy the row is about (in a strong-play table: the one in every seat; a row "
                 "'X - Y' is X's estimate minus Y's, with its 95% interval)"),
}

GAMES = {
    "shoot-the-moon": {
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
        "big_before": ("Big Moons before", "Big Moons held before one more was swapped in"),
        "ours": ("our chips", "chips of seat 0's side at the start"),
        "theirs": ("their chips", "chips of every other side at the start"),
        "d_win_one_more_chip": ("P(win) gain of +1 chip", "how much one more chip raises P(win the game)"),
    },
    "moon": {
        "score": ("points", "points the side scored in the hand"),
        "tricks": ("tricks", "tricks the side took in the hand"),
        "p_bidder": ("P(takes bid)", "the side won the auction"),
        "p_thrown_in": ("P(thrown in)", "everybody passed and the hand was redealt"),
        "p_make": ("P(make)", "the contract was made (at least the bid in tricks)"),
        "p_make_open": ("P(make), open hands", "P(make) when every seat sees every hand and plays its best "
                        "(double dummy, the exact solver)"),
        "make": ("P(make)", "the contract was made"),
        "bidder_score": ("bidder points", "points the bidder's side scored"),
        "bidder_tricks": ("bidder tricks", "tricks the bidder's side took"),
        "predicted": ("predicted P(make)", "the bidding strategy's own forecast"),
        "p_made_as_bidder": ("P(bid and made)", "the seat won the auction and made its bid"),
        "p_outbid": ("P(outbid)", "another player would take the contract at that bid"),
        "bid": ("bid", "the contract: 4..7 tricks, or 21 (all seven, for 21 points)"),
        "trump": ("trump", "0-6, doubles or notrump"),
        "trump_tiles": ("trump tiles", "tiles of the named trump in the dealt hand, its double included"),
        "trump_kind": ("trump kind", "a number suit (0-6), doubles, or notrump (follow me)"),
        "doubles": ("doubles", "doubles in the dealt hand"),
        "trump_double": ("trump double", "the dealt hand holds the double of trump"),
    },
    "hit-the-deck": {
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
    },
}

PREFIXES = (("a_", "A: {}", "for strategy A: {}"), ("b_", "B: {}", "for strategy B in the same seats: {}"),
            ("d_", "change: {}", "paired difference (A-B, variant-base or with-without) of: {}"),
            ("base_", "base: {}", "under the default rules: {}"), ("variant_", "variant: {}", "under the variant rules: {}"),
            ("with_", "with: {}", "with it: {}"), ("without_", "without: {}", "without it: {}"))


def _entry(game: str | None, name: str):
    own = GAMES.get(game or "", {})
    return own.get(name) or COMMON.get(name)


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
            lines.append(f"{hit[0]}: {hit[1]}")
    return list(dict.fromkeys(lines))


def strategy_lines(game: str | None, specs) -> list[str]:
    """What produced the numbers: each strategy in play with its rule of thumb."""
    if not game or not specs:
        return []
    from moonshot.strategies.base import registered, rule_of_thumb
    if isinstance(specs, dict):                    # a match: {"A": spec, "B": spec}
        named = [(f"{k}={v}", v) for k, v in specs.items()]
    else:
        named = [(f"seats {', '.join(str(i) for i, s in enumerate(specs) if s == spec)}: {spec}", spec)
                 for spec in dict.fromkeys(specs)]
    known = registered(game)
    out = ["strategies (every number is under these players):"]
    for title, spec in named:
        cls = known.get(spec.split(":")[0])
        out.append(f"  {title}" + (f" - {rule_of_thumb(cls)}" if cls else " - your own strategy"))
    return out
