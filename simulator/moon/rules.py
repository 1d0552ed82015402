"""Moon rules flags (RULES.md §4, `moon.*`) as a frozen dataclass, and the player-count checks.

Most flags are independent of the table size, but the tile set is not: by DEFAULT Moon uses the
22-tile set (blanks removed, 0-0 kept) with three players and the full 28-tile set with four
(MOON-1.2, MOON-1.3). The `tile_set` field therefore defaults to ``"default"``, meaning "by player
count"; :func:`tile_set_for` resolves it and rejects combinations that cannot be dealt.
"""
from __future__ import annotations

from dataclasses import dataclass

from moonshot.simulator.errors import BadInput
from moonshot.simulator.flags import Flag, apply_rule_args, choice, integer, one_of, rules_dict, switch

PLAYER_COUNTS = (3, 4)

# The tile sets of MOON-1.2, MOON-1.3 and A-MOON-2 (the ids are in simulator.moon.tiles).
TILE_SET_NAMES = ("keep00_22", "no_blanks21", "full28")
TILE_SETS_BY_PLAYERS = {3: ("keep00_22", "no_blanks21"), 4: ("full28",)}

FLAGS: tuple[Flag, ...] = (
    Flag("moon.tile_set", "default",
         "default (keep00_22 with 3 players, full28 with 4), keep00_22, no_blanks21 (3 players), "
         "full28 (4 players)", "A-MOON-2",
         "tile set: 22 tiles keeping 0-0 plus a widow (3p), 21 tiles without any blank and no widow (3p), "
         "or the full double-six set (4p)",
         choice("default", *TILE_SET_NAMES), sweep=("no_blanks21", "full28"),
         value_words=(("default", "the table's usual set: 22 tiles at 3 players, all 28 at 4"),
                      ("keep00_22", "22 tiles: blanks removed but 0-0 kept, a widow (3 players)"),
                      ("no_blanks21", "21 tiles: every blank removed, no widow (3 players)"),
                      ("full28", "all 28 tiles of the double-six set (4 players)"))),
    one_of("moon.bid_success", ("at_least", "strictly_greater"), "A-MOON-1",
           "a bid of b is made with at least b tricks, or only with more than b",
           words=("made with at least the bid's tricks", "made only with strictly more tricks than the bid")),
    one_of("moon.moon_bid_scoring", ("points", "instant_win", "instant_win_or_loss"), "A-MOON-3",
           "a 21 bid scores +21/-21, or a made 21 wins the game at once (and with instant_win_or_loss "
         "a failed 21 loses it)",
           words=("a 21 bid scores +21 made, -21 set", "a made 21 wins the game at once",
                  "a made 21 wins the game at once, a set 21 loses it"), whole_games=True),
    switch("moon.moon_bid_requires_prior_7", False, "A-MOON-9",
           "21 may only be bid after someone has bid 7",
           words=("21 only after a bid of 7", "21 may be bid at any turn")),
    Flag("moon.min_bid", 4, "3, 4, 5", "A-MOON-14", "lowest bid allowed", integer(3, 5),
         value_words=(("3", "bids start at 3 tricks"), ("4", "bids start at 4 tricks"),
                      ("5", "bids start at 5 tricks"))),
    one_of("moon.all_pass", ("redeal", "force_last_min", "force_dealer"), "A-MOON-8",
           "when everyone passes: throw the hand in; the last player to speak must bid exactly the minimum; "
         "or the dealer (the last player to speak) must bid, any bid",
           words=("all pass: the hand is thrown in and dealt again", "all pass: the last to speak must bid the minimum",
                  "all pass: the dealer must bid (any bid)")),
    one_of("moon.auction", ("single_round", "open_until_passes"), "A-MOON-16",
           "one call per player, or keep asking players who have not passed until all but the high bidder pass",
           words=("one call each, once round the table", "calls go round until all but the high bidder pass")),
    one_of("moon.widow_timing", ("widow_then_trump", "trump_first"), "A-MOON-6",
           "3p bidder takes the widow and discards before naming trump, or names trump first",
           words=("the bidder takes the widow and discards, then names trump",
                  "the bidder names trump, then takes the widow and discards")),
    one_of("moon.widow", ("exchange_any", "none"), "A-MOON-17",
           "3p bidder takes the widow and discards any tile, or there is no widow (the 21-tile set)",
           words=("the bidder adds the widow and discards any one tile", "no widow (the 21-tile set)")),
    switch("moon.allow_doubles_trump", True, "MOON-2.1",
           "3 players: doubles may be named as trump",
           words=("doubles may be trump (3 players)", "doubles may not be trump (3 players)")),
    switch("moon.allow_doubles_trump_4p", False, "A-MOON-12",
           "4 players: doubles may be named as trump",
           words=("doubles may be trump (4 players)", "doubles may not be trump (4 players)")),
    one_of("moon.notrump_doubles", ("high", "own_suit", "low"), "A-MOON-5",
           "no-trump (follow me): each double tops its number suit, the doubles form their own suit, "
         "or each double ranks lowest in its number suit",
           words=("no-trump: each double is the highest of its suit", "no-trump: the doubles are a suit of their own",
                  "no-trump: each double is the lowest of its suit")),
    one_of("moon.lead_suit_rule", ("higher_end", "leader_calls_end"), "A-MOON-11",
           "a led non-double non-trump tile's suit is its higher end, or the end the leader names",
           words=("a led tile's suit is its higher end", "the leader names which end of the led tile is the suit")),
    switch("moon.first_lead_trump", False, "A-MOON-10",
           "the bidder's first lead must be a trump when they hold one",
           words=("the bidder must lead a trump first if holding one", "the first lead may be any tile")),
    one_of("moon.scoring", ("points21", "marks7"), "A-MOON-15",
           "points to 21, or marks to 7 (made bid: bidder 1 mark; set: each opponent 1 mark)",
           words=("points, game to 21", "marks, game to 7: a made bid 1 mark, a set 1 mark to each opponent")),
    one_of("moon.end_tie", ("continue_until_unique_leader", "bidder_goes_out"), "A-MOON-7",
           "a tie for the lead at or over the target: play on, or the bidder (if tied for the lead) wins",
           words=("a tie at the top: play on until one leads alone", "a tie at the top: the bidder, if tied, wins"),
           whole_games=True),
    one_of("moon.bidder_score_4p", ("tricks_won", "bid"), "A-MOON-13",
           "4 players: a made bid scores the tricks the team won, or the bid",
           words=("a made bid scores the tricks the team won (4 players)", "a made bid scores the bid (4 players)")),
    switch("moon.set_twice_loses_4p", False, "A-MOON-18",
           "4 players: a team set on two played hands in succession loses the game (unverified rule)",
           words=("a team set twice running loses the game (4 players)", "being set twice running is no special loss"),
           whole_games=True),
)


@dataclass(frozen=True)
class Rules:
    tile_set: str = "default"            # "default" = by player count, see tile_set_for
    bid_success: str = "at_least"
    moon_bid_scoring: str = "points"
    moon_bid_requires_prior_7: bool = False
    min_bid: int = 4
    all_pass: str = "redeal"
    auction: str = "single_round"
    widow_timing: str = "widow_then_trump"
    widow: str = "exchange_any"
    allow_doubles_trump: bool = True
    allow_doubles_trump_4p: bool = False
    notrump_doubles: str = "high"
    lead_suit_rule: str = "higher_end"
    first_lead_trump: bool = False
    scoring: str = "points21"
    end_tie: str = "continue_until_unique_leader"
    bidder_score_4p: str = "tricks_won"
    set_twice_loses_4p: bool = False

    def as_dict(self, players: int | None = None) -> dict:
        """Every flag keyed by its full RULES.md name; with ``players``, tile_set is resolved."""
        d = rules_dict(self, FLAGS)
        if players is not None:
            d["moon.tile_set"] = tile_set_for(self, players)
        return d


def check_players(players: int) -> None:
    if players not in PLAYER_COUNTS:
        raise BadInput(f"--players {players} is not possible for Moon; accepted: 3 or 4")


def tile_set_for(rules: Rules, players: int) -> str:
    """The tile set in use (MOON-1.2, MOON-1.3, A-MOON-2, A-MOON-17); BadInput for impossible combinations.

    ``default`` means keep00_22 with 3 players (or no_blanks21 when moon.widow=none, the 21-tile
    no-widow game of A-MOON-17) and full28 with 4 players.
    """
    check_players(players)
    name = rules.tile_set
    if name == "default":
        if players == 4:
            return "full28"
        return "no_blanks21" if rules.widow == "none" else "keep00_22"
    accepted = TILE_SETS_BY_PLAYERS[players]
    if name not in accepted:
        raise BadInput(f"moon.tile_set={name} cannot be used with {players} players; "
                       f"accepted with {players} players: default, {', '.join(accepted)}")
    if players == 3 and name == "keep00_22" and rules.widow == "none":
        raise BadInput("moon.tile_set=keep00_22 needs the widow, but moon.widow=none; accepted with "
                       "moon.widow=none: moon.tile_set=default or no_blanks21 (21 tiles, no widow)")
    return name


def validate(rules: Rules, players: int) -> Rules:
    """Check that ``rules`` can be played by ``players``; return them unchanged."""
    tile_set_for(rules, players)
    return rules


def parse_rules(args: list[str] | tuple[str, ...] = (), players: int | None = None) -> Rules:
    """Rules from ``"k=v"`` strings (``moon.`` prefix optional); with ``players``, also validated."""
    rules = apply_rule_args(Rules(), FLAGS, args)
    if players is not None:
        validate(rules, players)
    return rules

# Flags that only mean something at some tables (a what-if with them elsewhere would change nothing).
ONLY_AT = {
    "moon.widow_timing": ("3 players (the widow)", lambda players, partners: players == 3),
    "moon.widow": ("3 players", lambda players, partners: players == 3),
    "moon.allow_doubles_trump": ("3 players (moon.allow_doubles_trump_4p at 4)",
                                 lambda players, partners: players == 3),
    "moon.allow_doubles_trump_4p": ("4 players", lambda players, partners: players == 4),
    "moon.bidder_score_4p": ("4 players", lambda players, partners: players == 4),
    "moon.set_twice_loses_4p": ("4 players", lambda players, partners: players == 4),
}
