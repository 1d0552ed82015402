"""Hit the Deck rules flags (RULES.md §4, ``htd.*``) as a frozen dataclass.

Values that are lists in RULES.md are written as comma-separated text in flags and histories:
``htd.colours=R,G,B,Y`` and ``htd.htd_number_values=1,1,2,2,3,3,4,4,5,5``; the dataclass holds
tuples. ``htd.memory`` is kept as normalised text (``perfect``, ``window(8)``, ``p_recall(0.5)``);
:func:`memory_model` splits it. ``htd.reaction`` is the default reaction profile spec of every seat
(§C.14, see :mod:`simulator.hit_the_deck.profiles`).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from moonshot.simulator.errors import BadInput
from moonshot.simulator.hit_the_deck.cards import DECK_SIZE
from moonshot.simulator.flags import Flag, apply_rule_args, one_of, switch, whole_number

PLAYER_COUNTS = range(2, 7)


_LABEL = re.compile(r"^[A-Za-z0-9 _-]{1,20}$")     # shown on pages and in replays: no markup characters


def _labels(text: str) -> tuple[str, ...]:
    labels = tuple(x.strip() for x in text.strip().strip("[]").split(","))
    if len(labels) != 4 or not all(_LABEL.match(x) for x in labels) or len(set(labels)) != 4:
        raise ValueError
    return labels


def _number_values(text: str) -> tuple[int, ...]:
    values = tuple(sorted(int(x) for x in text.strip().strip("[]{}").split(",")))
    if len(values) != 10 or not all(1 <= v <= 5 for v in values):
        raise ValueError
    return values


def _number(lo: float, hi: float | None = None):
    def parse(text: str):
        value = float(text)
        if math.isnan(value) or value < lo or (hi is not None and value > hi) or math.isinf(value):
            raise ValueError
        return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value
    return parse


_MEMORY = re.compile(r"^(perfect|window\((\d+)\)|p_recall\(([0-9.eE+-]+)\))$")


def memory_model(text: str) -> tuple[str, float | None]:
    """``("perfect", None)``, ``("window", K)`` or ``("p_recall", P)`` (§C.10.2)."""
    m = _MEMORY.match(text.replace(" ", ""))
    if not m:
        raise ValueError
    if m.group(2) is not None:
        if int(m.group(2)) > DECK_SIZE:        # a window longer than the deck remembers no more than the deck
            raise ValueError
        return "window", int(m.group(2))
    if m.group(3) is not None:
        p = float(m.group(3))
        if not 0 <= p <= 1:
            raise ValueError
        return "p_recall", p
    return "perfect", None


def _memory(text: str) -> str:
    kind, param = memory_model(text)
    return kind if param is None else f"{kind}({param})"


def _profile_spec(text: str) -> str:
    from moonshot.simulator.hit_the_deck.profiles import parse_profile
    try:
        return parse_profile(text).spec()
    except BadInput:
        raise ValueError from None


_NUMBER_VALUES = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)

FLAGS: tuple[Flag, ...] = (
    Flag("htd.colours", ("R", "G", "B", "Y"), "four distinct labels (letters, digits, space, - or _; up to 20 each), "
         "e.g. R,G,B,Y or Red,Green,Blue,Yellow",
         "M4", "display names of the four colours (notation letters stay R, G, B, Y: P8)", _labels,
         sweep=("Red,Green,Blue,Yellow",), needs="display names only (P8): no rule reads them"),
    Flag("htd.htd_number_values", _NUMBER_VALUES, "ten values 1..5, e.g. 1,1,2,2,3,3,4,4,5,5", "M2",
         "the numbers shown by the ten HTD-N cards", _number_values,
         sweep=("1,1,1,1,1,2,2,2,2,2", "4,4,4,4,4,5,5,5,5,5")),
    one_of("htd.htd_colour_values", ("one_per_colour",), "M3",
           "the colours of the four HTD-C cards",
           words=("one HTD-C card of each colour",)),
    one_of("htd.start_card", ("as_if_dealer_played", "first_player_plays_normally"), "A-HTD-1",
           "the opening card acts as if the dealer played it, or has no effect (P2)",
           words=("the opening card acts as if the dealer played it", "the opening card has no effect")),
    switch("htd.word_matches_word", False, "A-HTD-5",
           "a Cut goes on any Cut and a Flip on any Flip whatever the colours (P1)",
           words=("a Cut goes on any Cut, a Flip on any Flip", "word cards match by colour only")),
    switch("htd.voluntary_draw", False, "A-HTD-4",
           "a player with a legal play may draw instead",
           words=("you may draw even with a legal play", "you draw only with no legal play")),
    one_of("htd.drawn_card_play", ("mandatory_if_legal", "optional"), "A-HTD-4",
           "a legal drawn card must be played, or may be kept",
           words=("a playable drawn card must be played", "a playable drawn card may be kept")),
    one_of("htd.cut_depth", ("normal_half", "uniform", "exact_half"), "A-HTD-6",
           "cards lifted by a Cut: round(Normal(n/2, n/8)) clamped, uniform, or n // 2",
           words=("a Cut lifts about half the pile", "a Cut lifts any number of cards, all equally likely",
                  "a Cut lifts exactly half the pile")),
    one_of("htd.cut_exposed", ("bottom_of_lifted", "top_of_remainder"), "A-HTD-6",
           "the exposed card is the bottom of the lifted packet, or the card below it",
           words=("the bottom card of the lifted packet is exposed", "the card under the lifted packet is exposed")),
    one_of("htd.bury_position", ("uniform_below_top", "exact_middle"), "A-HTD-9",
           "a buried card goes to a uniform position below the top, or to max(1, n // 2)",
           words=("a buried card goes anywhere below the top", "a buried card goes to the middle")),
    one_of("htd.exposed_hand_card", ("shouter_then_plays", "shouter_turn_consumed"), "A-HTD-2",
           "after an exposed HTD-H's slap its shouter plays, or the shouter's turn is used up",
           words=("after the slap the shouter plays a card", "after the slap the shouter's turn is over")),
    one_of("htd.final_card_effects", ("hand_ends_immediately", "resolve_then_score"), "A-HTD-3",
           "a final HTD-H ends the hand at once, or its slap is resolved and scored (P4)",
           words=("going out on an HTD-H ends the hand at once, no slap",
                  "going out on an HTD-H: the others still slap, the loser's draw counts")),
    # At most ten times the default: a game is already dozens of hands, and a longer one only runs
    # into the engine's cap on a game's hands (engine/games.py max_hands).
    whole_number("htd.target_score", 100, 1, 1000, "HTD-8.1",
                 "the game ends when a cumulative score reaches this", sweep=("50", "200"), whole_games=True),
    one_of("htd.winner_tie", ("shared", "play_another_hand"), "A-HTD-8",
           "a tie for the lowest final score is a shared win, or another hand is played",
           words=("a tie for the lowest score shares the win", "a tie for the lowest score plays another hand"),
           whole_games=True),
    one_of("htd.blocked_hand", ("score_all",), "HTD-6.4",
           "a blocked hand ends with every seat scoring its hand",
           words=("a blocked hand: every seat scores the cards it holds",)),
    # At most 10,000: fifty times a normal hand (well under 200 turns, HTD-6.5). A hand still going
    # then is a loop, and every turn more holds up the whole batch (with a billion, a 200-deal
    # run showed no progress for a long while).
    whole_number("htd.max_turns", 2000, 100, 10_000, "HTD-6.5",
                 "a hand reaching this many turns ends as a blocked hand", sweep=("100",)),
    one_of("htd.dealer_rotation", ("left", "fixed", "went_out_player_deals"), "M7",
           "who deals the next hand",
           words=("the deal passes to the left", "the same player always deals", "whoever went out deals next"),
           whole_games=True),
    Flag("htd.memory", "perfect", f"perfect, window(K) with 0 <= K <= {DECK_SIZE}, p_recall(P) with 0 <= P <= 1",
         "C.10.2", "what a seat remembers of the discards that became the draw pile", _memory,
         sweep=("window(8)", "p_recall(0.5)")),
    Flag("htd.p_notice", 1.0, "a probability 0..1", "A-HTD-7",
         "chance that a forgotten shout is noticed (and punished)", _number(0, 1), sweep=("0.5",)),
    # At most 10 s: slaps land a few hundred ms apart (a lapse ~1 s), so a window that long already ties
    # nearly every slap; a larger number means nothing more at a table.
    Flag("htd.judge_window", 30, "a number 0..10000 (ms)", "C.14 P5",
         "hands landing within this of the last count as tied for last", _number(0, 10_000), sweep=("0", "100")),
    Flag("htd.announce_factor", 0.25, "a number 0..1", "C.14 P5",
         "factor on q_htd when HTD cards are announced", _number(0, 1), sweep=("1",),
         needs="it changes play only with htd.announce_htd_cards=true"),
    switch("htd.announce_htd_cards", False, "C.14",
           "players read HTD card names aloud (fewer false slaps on HTD-N and HTD-C)",
           words=("HTD card names are read aloud", "HTD cards are played without a word")),
    Flag("htd.reaction", "adult", "adult, child, distracted, off, optionally NAME:param=value,...",
         "C.14 P9", "the reaction profile of every seat (per-seat profiles override it)", _profile_spec,
         value_words=(("adult", "adults' reaction times"), ("child", "a child's slower, lapse-prone reactions"),
                      ("distracted", "a distracted player's reactions"),
                      ("off", "perfect reflexes: never forgets, never slaps falsely, never loses a race"))),
)


@dataclass(frozen=True)
class Rules:
    colours: tuple = ("R", "G", "B", "Y")
    htd_number_values: tuple = _NUMBER_VALUES
    htd_colour_values: str = "one_per_colour"
    start_card: str = "as_if_dealer_played"
    word_matches_word: bool = False
    voluntary_draw: bool = False
    drawn_card_play: str = "mandatory_if_legal"
    cut_depth: str = "normal_half"
    cut_exposed: str = "bottom_of_lifted"
    bury_position: str = "uniform_below_top"
    exposed_hand_card: str = "shouter_then_plays"
    final_card_effects: str = "hand_ends_immediately"
    target_score: int = 100
    winner_tie: str = "shared"
    blocked_hand: str = "score_all"
    max_turns: int = 2000
    dealer_rotation: str = "left"
    memory: str = "perfect"
    p_notice: float = 1.0
    judge_window: float = 30
    announce_factor: float = 0.25
    announce_htd_cards: bool = False
    reaction: str = "adult"

    def as_dict(self) -> dict:
        """Every flag keyed by its full RULES.md name, JSON-ready; list values as "a,b,c" text
        so that parse_rules reads them back."""
        d = {}
        for f in FLAGS:
            value = getattr(self, f.field)
            if isinstance(value, tuple):
                value = ",".join(str(v) for v in value)
            d[f.name] = value
        return d


def check_players(players: int) -> None:
    if players not in PLAYER_COUNTS:
        raise BadInput(f"--players {players} is not possible for Hit the Deck; accepted: 2..6")


def parse_rules(args=(), players: int | None = None) -> Rules:
    """Rules from ``"k=v"`` strings (``htd.`` prefix optional); with ``players``, also checked."""
    rules = apply_rule_args(Rules(), FLAGS, list(args))
    if players is not None:
        check_players(players)
    return rules


def rule_args(rules_dict: dict) -> list[str]:
    """``k=v`` strings from a record's ``rules`` object (the inverse of Rules.as_dict)."""
    if not isinstance(rules_dict, dict):
        raise BadInput("rules is not an object")
    out = []
    for key, value in rules_dict.items():
        if isinstance(value, bool):
            text = str(value).lower()
        elif isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value)
        else:
            text = str(value)
        out.append(f"{key}={text}")
    return out
