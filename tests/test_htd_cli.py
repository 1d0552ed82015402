"""Hit the Deck through every verb of the command line, and its bad input: one line, exit 2, no file."""
import json

import pytest

from tests.test_cli import run


def test_every_verb_works_for_hit_the_deck(tmp_path, capsys):
    code, out, _ = run(["simulate", "hit-the-deck", "-n", "800", "-f", "json", "-q"], capsys)
    seats = [r for r in json.loads(out)["tables"]["seats"] if r["metric"] == "p_out"]
    assert code == 0 and len(seats) == 4 and 0.9 < sum(r["estimate"] for r in seats) <= 1.0
    code, out, _ = run(["simulate", "hit-the-deck", "--games", "20", "-p", "3", "-f", "json", "-q"], capsys)
    wins = [r for r in json.loads(out)["tables"]["games"] if r["metric"] == "p_win"]
    assert code == 0 and sum(r["estimate"] for r in wins) >= 1.0          # shared wins count for each
    hist = tmp_path / "h.jsonl"
    code, _, _ = run(["simulate", "hit-the-deck", "-n", "5", "--history", hist, "-q"], capsys)
    assert code == 0 and len(hist.read_text().splitlines()) == 5
    code, out, _ = run(["replay", hist, "--hand-id", "2"], capsys)
    assert code == 0 and "plays" in out
    for verb in (["compare", "hit-the-deck", "-s", "random", "--vs", "dump", "-n", "300"],
                 ["whatif", "hit-the-deck", "-r", "htd.word_matches_word=true", "-n", "300"],
                 ["analyze", "hit-the-deck", "seat-advantage", "--games", "10"],
                 ["hand", "hit-the-deck", "--hand", "R3 R5 G2 BCUT YFLIP HN3 HH", "--samples", "200"],
                 ["rules", "hit-the-deck"], ["strategies", "hit-the-deck"]):
        code, out, err = run(verb + (["-q"] if verb[0] not in ("rules", "strategies") else []), capsys)
        assert code == 0, (verb, err)
        assert out.strip()


def test_profiles_per_seat_reach_the_table(capsys):
    code, out, _ = run(["simulate", "hit-the-deck", "-n", "300", "--profile", "off", "--profile", "2=child",
                        "-f", "json", "-q"], capsys)
    meta = json.loads(out)["meta"]
    assert code == 0 and meta["profiles"] == ["off", "off", "child", "off"]


@pytest.mark.parametrize("args,needle", [
    (["hand", "hit-the-deck", "--hand", "R3 R5 G2 BCUT YFLIP HN3 ZZ"], "unknown card 'ZZ'"),
    (["hand", "hit-the-deck", "--hand", "HH HH HH HH HH R1 R2"], "5 x HH; the deck has 4"),
    (["hand", "hit-the-deck", "--hand", "R3 R5"], "exactly 7 cards"),
    (["hand", "hit-the-deck", "--hand", "R3 R5 G2 BCUT YFLIP HN3 HH", "--seat-order", "middle"],
     "first, second, third, last"),
    (["simulate", "hit-the-deck", "--profile", "kid"], "unknown reaction profile 'kid'"),
    (["simulate", "hit-the-deck", "--profile", "adult:speed=3"], "unknown profile parameter 'speed'"),
    (["simulate", "hit-the-deck", "--profile", "9=child"], "accepted: 0..3"),
    (["simulate", "hit-the-deck", "-r", "htd.cut_depth=deep"], "accepted: normal_half, uniform, exact_half"),
    (["simulate", "hit-the-deck", "-r", "htd.memory=window(-1)"], "htd.memory"),
    (["simulate", "hit-the-deck", "-p", "7"], "7"),
    (["simulate", "moon", "--profile", "child"], "reaction profiles apply to hit-the-deck"),
    (["analyze", "hit-the-deck", "card-value", "-n", "100"], "give --games"),
    (["hand", "shoot-the-moon", "--hand", "R1 R2"], "exactly 5 cards"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle, capsys, tmp_path):
    out = tmp_path / "o.json"
    code, stdout, err = run(args + ["-n", "10"] * ("-n" not in args and args[0] == "simulate") + ["-o", out], capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_a_plugin_from_a_file_plays_hit_the_deck(tmp_path, capsys):
    plugin = tmp_path / "mine.py"
    plugin.write_text("import numpy as np\n\nclass FirstLegal:\n    def play(self, view, rng):\n"
                      "        return np.argmax(view.legal, axis=1)\n\n"
                      "class Cheater:\n    def play(self, view, rng):\n        return np.full(len(view), 37)\n")
    code, out, err = run(["simulate", "hit-the-deck", "-n", "500", "-s", f"2={plugin}:FirstLegal", "-f", "json",
                          "-q"], capsys)
    assert code == 0, err
    assert json.loads(out)["meta"]["strategies"][2] == f"{plugin}:FirstLegal"
    code, _, err = run(["simulate", "hit-the-deck", "-n", "500", "-s", f"1={plugin}:Cheater", "-q"], capsys)
    assert code == 2 and "Cheater" in err and len(err.strip().splitlines()) == 1


def test_a_custom_profile_parameter_is_in_the_header_and_the_json(capsys):
    """--profile 0=child:mu=900 changes the numbers, so the run says so (issue 40): the seat's full spec."""
    code, out, _ = run(["simulate", "hit-the-deck", "-n", "200", "--profile", "0=child:mu=900", "-f", "json", "-q"],
                       capsys)
    assert code == 0 and json.loads(out)["meta"]["profiles"] == ["child:mu=900", "adult", "adult", "adult"]
