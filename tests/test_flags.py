"""Every game's rules flags against its Rules dataclass: one field per flag, in table order, with
the flag's default (the default is written in both places, so a test keeps them together)."""
import pytest

from moonshot.simulator import games
from moonshot.simulator.flags import Flag, one_of, switch, whole_number


@pytest.mark.parametrize("name", ["moon", "shoot-the-moon", "hit-the-deck"])
def test_rules_dataclass_matches_the_flags(name):
    rules = games.get(name).module("rules")
    assert [f.field for f in rules.FLAGS] == list(rules.Rules.__dataclass_fields__)
    defaults = rules.Rules()
    for flag in rules.FLAGS:
        assert getattr(defaults, flag.field) == flag.default, flag.name
        assert flag.default not in [flag.parse(v) for v in flag.alternatives()], flag.name


def test_flag_constructors_write_each_value_once():
    flag = one_of("g.mode", ("fast", "slow"), "G-1", "how fast")
    assert (flag.default, flag.accepted, flag.alternatives()) == ("fast", "fast, slow", ["slow"])
    with pytest.raises(ValueError):
        flag.parse("medium")
    assert switch("g.on", False, "G-2", "on or off").parse("yes") is True
    bounded, open_ended = whole_number("g.n", 3, 1, 9, "G-3", "n"), whole_number("g.m", 3, 1, None, "G-4", "m")
    assert (bounded.accepted, open_ended.accepted) == ("an integer 1..9", "an integer >= 1")
    with pytest.raises(ValueError):
        bounded.parse("10")
    assert open_ended.parse("10") == 10 and isinstance(bounded, Flag)


@pytest.mark.parametrize("text", ["1_000", "\u0661\u0662", " 12", "12.0", "1e3", "99999999999999999999999"])
def test_an_integer_flag_takes_plain_digits_only(text):
    """int() reads "1_000" and other scripts' digits; a rules flag takes ASCII digits only, as the
    typed records do (issue 38)."""
    from moonshot.simulator.flags import integer
    with pytest.raises(ValueError):
        integer(1, None)(text)
