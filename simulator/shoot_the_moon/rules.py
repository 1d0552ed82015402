"""Shoot the Moon rules flags (RULES.md §4, `stm.*`) as a frozen dataclass."""
from __future__ import annotations

import re
from dataclasses import dataclass

from moonshot.simulator.flags import Flag, apply_rule_args, one_of, rules_dict, switch, whole_number


@dataclass(frozen=True)
class RevokeModel:
    """STM-11.2: a player able to follow suit revokes with p_revoke; detected with p_detect."""
    p_revoke: float = 0.05
    p_detect: float = 0.5

    def __str__(self) -> str:
        return f"on({self.p_revoke:g},{self.p_detect:g})"


def _revoke(text: str) -> RevokeModel | None:
    if text == "off":
        return None
    if text == "on":
        return RevokeModel()
    m = re.fullmatch(r"on\(\s*([0-9.eE+-]+)\s*,\s*([0-9.eE+-]+)\s*\)", text)
    if not m:
        raise ValueError
    p, q = float(m.group(1)), float(m.group(2))
    if not (0 <= p <= 1 and 0 <= q <= 1):
        raise ValueError
    return RevokeModel(p, q)


FLAGS: tuple[Flag, ...] = (
    one_of("stm.partnership_trick_count", ("team_total", "per_player"), "A-STM-1",
           "partnership odd-trick award from the team total or summed per player",
           words=("the partners' tricks are added: the team with an odd total gets the chip",
                  "each partner with an odd number of tricks earns the team a chip")),
    one_of("stm.six_player_teams", ("two_teams_of_three", "three_teams_of_two"), "A-STM-2",
           "six-player partnerships: {0,2,4}/{1,3,5} or {0,3}/{1,4}/{2,5}",
           words=("two teams of three, seated alternately", "three teams of two, partners seated opposite")),
    one_of("stm.moon_chip_netting", ("net_per_trick", "sequential"), "A-STM-3",
           "Moon chips netted per trick then floored once, or applied card by card",
           words=("a trick's Big and Little Moons are netted, then the chips floored at 0 once",
                  "each Moon card counts in play order, floored at 0 after each")),
    one_of("stm.chip_supply", ("unlimited", "finite40"), "A-STM-5",
           "chips are a score counter, or a 40-chip supply (a gain that cannot be paid is lost)",
           words=("chips are only a score: never run out", "40 chips in all: a gain the supply cannot pay is lost")),
    one_of("stm.dummy_mode", ("blind_stack", "open_hand_nondealer_chooses"), "A-STM-4",
           "two players: the dummy turns up its top card, or the non-dealer picks a legal dummy card",
           words=("the dummy's top card is turned up (face-down pile)",
                  "the dummy is face up and the non-dealer picks its legal card")),
    switch("stm.little_moon_lead_trumps", False, "A-STM-7",
           "whether red still trumps when a Little Moon is led (sensitivity test only)",
           words=("red still trumps a Little Moon lead", "red has no trump power when a Little Moon is led")),
    whole_number("stm.target_chips", 7, 1, 1000, "A-STM-8", "chips needed to win the game", sweep=("5", "10"),
                 whole_games=True),
    whole_number("stm.starting_chips", 2, 0, 1000, "STM-3.1", "chips each side starts with", sweep=("0", "4")),
    Flag("stm.revoke_model", None, "off, on, on(p_revoke,p_detect) with probabilities in [0,1]", "STM-11",
         "human-error model: revokes happen and may be detected (round replayed, offender -1 chip)", _revoke,
         value_words=(("off", "nobody revokes"), ("on", "revokes at 5%, each detected at 50%"))),
    switch("stm.revoke_keep_hand_chips", False, "A-STM-6",
           "whether Moon-card chip changes of an annulled round stand",
           words=("an annulled round's Moon-card chips stand", "an annulled round's chip changes are all undone"),
           needs="it changes play only with stm.revoke_model on (a round annulled by a detected revoke)"),
)


@dataclass(frozen=True)
class Rules:
    partnership_trick_count: str = "team_total"
    six_player_teams: str = "two_teams_of_three"
    moon_chip_netting: str = "net_per_trick"
    chip_supply: str = "unlimited"
    dummy_mode: str = "blind_stack"
    little_moon_lead_trumps: bool = False
    target_chips: int = 7
    starting_chips: int = 2
    revoke_model: RevokeModel | None = None
    revoke_keep_hand_chips: bool = False

    def as_dict(self) -> dict:
        d = rules_dict(self, FLAGS)
        if d["stm.revoke_model"] is None:
            d["stm.revoke_model"] = "off"
        return d


def parse_rules(args: list[str] | tuple[str, ...] = ()) -> Rules:
    return apply_rule_args(Rules(), FLAGS, args)


SUPPLY_CHIPS = 40  # STM-1.3: the physical chip count (used by chip_supply=finite40 and the run-out counter)

# Flags that only mean something at some tables (a what-if with them elsewhere would change nothing).
ONLY_AT = {
    "stm.partnership_trick_count": ("partnerships (--partners)", lambda players, partners: partners),
    "stm.six_player_teams": ("6 players in partnerships", lambda players, partners: players == 6 and partners),
    "stm.dummy_mode": ("2 players (the dummy)", lambda players, partners: players == 2),
}
