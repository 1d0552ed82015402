"""The toy game's one rules flag."""
from dataclasses import dataclass

from moonshot.simulator.flags import Flag, apply_rule_args, integer

FLAGS = (Flag("toy.target", 3, "1..9", "TOY-1", "hands to win the game", integer(1, 9)),)


@dataclass(frozen=True)
class Rules:
    target: int = 3

    def as_dict(self) -> dict:
        return {"toy.target": self.target}


def parse_rules(args=()) -> Rules:
    return apply_rule_args(Rules(), FLAGS, args)
