"""The rules lab (analysis/rules_lab.py, `moonshot rules-lab`): never-fired rules, the sign of a
known effect, equality with `whatif`, the Bonferroni correction, --jobs and rule sets. Tiny sizes."""
from __future__ import annotations

import json

import numpy as np
import pytest

from moonshot.analysis.common import make_setup, whatif
from moonshot.analysis.rules_lab import GAMES_CHUNK, HANDS_CHUNK, comparisons, parse_sets, rules_lab, sweep_arms
from moonshot.analysis.words import widen
from moonshot.simulator.errors import BadInput

SEED = 7


def _row(res, table, rule, metric):
    df = res.tables[table]
    hit = df[(df["rule"] == rule) & (df["metric"] == metric)]
    assert len(hit) == 1, (rule, metric)
    return hit.iloc[0]


@pytest.fixture(scope="module")
def stm_sets():
    """Shoot the Moon: a rule that only acts with revokes on, a shorter game, and the two together."""
    setup = make_setup("shoot-the-moon")
    return setup, rules_lab(setup, games=300, hands=600, seed=SEED, sets=[
        "silent=stm.revoke_keep_hand_chips=true", "short=stm.target_chips=4", "both=stm.target_chips=4,"
        "stm.revoke_keep_hand_chips=true"])


def test_a_rule_that_cannot_act_is_never_fired_with_its_reason(stm_sets):
    _, res = stm_sets
    silent = res.tables["never_fired"]
    assert list(silent["rule"]) == ["silent", "both vs short"]      # both = short plus a rule that never acts
    assert "stm.revoke_model on" in silent["reason"].iloc[0]
    assert "silent" not in set(res.tables["ranked"]["rule"])        # not ranked as 'no effect'
    assert any(f.startswith("Never fired, so not ranked (2;") and "`silent`" in f for f in res.findings)


def test_a_minimum_bid_below_every_bid_never_fires_under_the_bidders():
    """threshold never bids 3, so moon.min_bid=3 changes none of its games or hands; only the skill
    games, where random players bid 3, see it, and the reason says so rather than ranking it.
    threshold is seated by name (the default once); the default, the expert, does bid 3 when it may."""
    sets = ["low=moon.min_bid=3", "high=moon.min_bid=5"]
    res = rules_lab(make_setup("moon", strategies=("threshold",)), games=100, hands=1_000, seed=SEED, sets=sets)
    silent = res.tables["never_fired"].set_index("rule")["reason"]
    assert list(silent.index) == ["low"]
    assert "threshold never reaches" in silent["low"] and "random players" in silent["low"]
    assert "low" not in set(res.tables["ranked"]["rule"]) and "high" in set(res.tables["ranked"]["rule"])
    expert = rules_lab(make_setup("moon"), games=100, hands=1_000, seed=SEED, sets=sets)
    assert "never_fired" not in expert.tables and {"low", "high"} <= set(expert.tables["ranked"]["rule"])


def test_never_fired_names_the_flag_it_waits_for():
    setup = make_setup("hit-the-deck")
    res = rules_lab(setup, games=2, hands=20, seed=SEED, sets=["loud=htd.announce_factor=1",
                                                            "names=htd.colours=Red,Green,Blue,Yellow"])
    reasons = dict(zip(res.tables["never_fired"]["rule"], res.tables["never_fired"]["reason"]))
    assert "htd.announce_htd_cards=true" in reasons["loud"]
    assert "display names" in reasons["names"]


def test_a_lower_target_shortens_the_game_and_ranks_with_the_right_sign(stm_sets):
    _, res = stm_sets
    d = _row(res, "ranked", "short", "d_rounds")
    assert d["ci_high"] < 0                                    # fewer rounds, beyond the corrected interval
    ranked = res.tables["ranked"]
    sizes = ranked[ranked["metric"] == "effect_size"].set_index("rule")["estimate"]
    assert sizes["short"] > 0.5


def test_htd_target_score_sign():
    setup = make_setup("hit-the-deck", 3)
    res = rules_lab(setup, games=40, hands=40, seed=SEED,
                    sets=["long=htd.target_score=200", "quick=htd.target_score=50"])
    assert _row(res, "ranked", "long", "d_hands")["ci_low"] > 0
    assert _row(res, "ranked", "quick", "d_hands")["ci_high"] < 0
    assert _row(res, "ranked", "quick vs long", "d_hands")["ci_high"] < 0    # sets are paired with each other too


def test_numbers_equal_whatif_with_the_same_flag_seed_and_chunk(stm_sets):
    setup, res = stm_sets
    w = whatif(setup, ["stm.target_chips=4"], None, 300, SEED, chunk=GAMES_CHUNK)
    seats = w.tables["seats"]
    for metric in ("d_rounds", "d_unfinished"):
        mine = _row(res, "ranked", "short", metric)
        theirs = seats[(seats["metric"] == metric) & (seats["seat"] == 0)].iloc[0]
        assert mine["estimate"] == pytest.approx(theirs["estimate"])
    w = whatif(setup, ["stm.target_chips=4"], 600, None, SEED, chunk=HANDS_CHUNK)
    seats = w.tables["seats"]
    odd = seats[seats["metric"] == "base_p_odd"]["estimate"].mean()     # the mean over the four seats' sides
    assert _row(res, "levels", "defaults", "p_odd")["estimate"] == pytest.approx(odd)


def test_the_correction_is_bonferroni_for_the_rules_compared(stm_sets):
    setup, res = stm_sets
    # 6 comparisons (3 sets against the defaults and against each other), 2 never fired: 4 corrected for
    ranked = res.tables["ranked"]
    assert set(ranked["rule"]) == {"short", "both", "short vs silent", "both vs silent"}
    assert "Bonferroni-corrected for 4 rule changes" in " ".join(res.notes)
    assert widen(4) == pytest.approx(2.498 / 1.960, rel=1e-3)          # z at 1 - 0.05 / (2 * 4)
    plain = whatif(setup, ["stm.target_chips=4"], None, 300, SEED, chunk=GAMES_CHUNK).tables["seats"]
    plain = plain[(plain["metric"] == "d_rounds") & (plain["seat"] == 0)].iloc[0]
    d = _row(res, "ranked", "short", "d_rounds")
    assert d["ci_high"] - d["estimate"] == pytest.approx((plain["ci_high"] - plain["estimate"]) * widen(4))
    assert d["estimate"] - d["ci_low"] == pytest.approx((plain["estimate"] - plain["ci_low"]) * widen(4))


def test_jobs_do_not_change_the_numbers():
    setup = make_setup("moon")
    args = dict(games=GAMES_CHUNK + 20, hands=HANDS_CHUNK + 30, seed=SEED, sets=["high=moon.min_bid=5"])
    one, two = rules_lab(setup, jobs=1, **args), rules_lab(setup, jobs=2, **args)
    a, b = one.tables["ranked"], two.tables["ranked"]
    assert np.array_equal(a["estimate"].to_numpy(), b["estimate"].to_numpy())
    assert np.array_equal(a["ci_low"].to_numpy(), b["ci_low"].to_numpy(), equal_nan=True)


def test_the_sweep_skips_flags_that_do_not_apply_with_the_reason():
    arms, skipped = sweep_arms(make_setup("shoot-the-moon"))
    labels = [a.label for a in arms]
    assert "stm.target_chips=5" in labels and "stm.moon_chip_netting=sequential" in labels
    reasons = dict(zip(skipped["flag"], skipped["reason"]))
    assert "stm.dummy_mode" in reasons and "2 players" in reasons["stm.dummy_mode"]
    moon_arms, moon_skipped = sweep_arms(make_setup("moon"))
    assert "moon.tile_set=full28" in set(moon_skipped["flag"] + "=" + moon_skipped["value"])   # refused at 3 players
    assert comparisons(3, sets=True) == ((1, 0), (2, 0), (3, 0), (2, 1), (3, 1), (3, 2))


def test_bad_sets_are_refused_in_one_line():
    setup = make_setup("shoot-the-moon")
    with pytest.raises(BadInput, match="NAME=flag=value"):
        parse_sets(setup, ["stm.target_chips=5"])
    with pytest.raises(BadInput, match="used twice"):
        parse_sets(setup, ["a=stm.target_chips=5", "a=stm.target_chips=6"])
    with pytest.raises(BadInput, match="stm.target_chips"):
        parse_sets(setup, ["a=stm.target_chips=zero"])
    assert parse_sets(make_setup("hit-the-deck"), ["c=htd.colours=A,B,C,D,htd.target_score=50"])[0].args == (
        "htd.colours=A,B,C,D", "htd.target_score=50")


def _cli(args, capsys):
    from tests.test_cli import run
    return run(args, capsys)


def test_cli_rules_lab_and_its_bad_input(capsys, tmp_path):
    code, out, _ = _cli(["rules-lab", "shoot-the-moon", "--set", "short=stm.target_chips=4", "--games", 60,
                         "--hands", 100, "-q", "-f", "json", "--figure", tmp_path / "lab.png"], capsys)
    assert code == 0
    assert (tmp_path / "lab.png").read_bytes()[:4] == b"\x89PNG"
    result = json.loads(out)
    assert {"ranked", "levels"} <= set(result["tables"]) and "never_fired" not in result["tables"]   # all fired
    assert result["meta"]["sets"] == {"short": ["stm.target_chips=4"]}
    for bad in (["--set", "stm.target_chips=4"], ["--strong", "greedy"], ["--games", 0], ["--weak", "nobody"]):
        code, out, err = _cli(["rules-lab", "shoot-the-moon", "-q", *bad], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (bad, err)


def test_the_spread_interval_is_the_delta_method_of_highest_minus_lowest():
    """From the positions' co-moments: the spread is the highest minus the lowest P(win), and its
    change's half-width 1.96 SD of the matching per-game combination / sqrt(n)."""
    from moonshot.analysis.rules_lab import _spread
    from moonshot.simulator.runner import Tally
    rng = np.random.default_rng(3)
    n, P = 4_000, 3
    winner = rng.choice(P, size=(n, 2), p=[0.5, 0.3, 0.2])        # variant and base: one winner per game
    winner[:, 1] = np.where(rng.random(n) < 0.7, winner[:, 0], rng.integers(0, P, n))   # paired: mostly the same
    x = np.concatenate([winner[:, :1] == np.arange(P), winner[:, 1:] == np.arange(P)], axis=1)
    tally = Tally()
    tally.add("m", {"all": np.zeros(n, dtype=np.int8)},
              {f"m{i}_{j}": x[:, i] & x[:, j] for i in range(2 * P) for j in range(i, 2 * P)})
    rows = {r["metric"]: r for r in _spread(tally.get("m"), P)}
    p = x.mean(axis=0)
    c = np.zeros(2 * P)
    c[np.argmax(p[:P])] += 1
    c[np.argmin(p[:P])] -= 1
    c[P + np.argmax(p[P:])] -= 1
    c[P + np.argmin(p[P:])] += 1
    assert rows["variant_spread"]["estimate"] == pytest.approx(p[:P].max() - p[:P].min())
    assert rows["d_spread"]["estimate"] == pytest.approx(c @ p)
    half = 1.959963984540054 * (x @ c).std(ddof=1) / np.sqrt(n)
    assert rows["d_spread"]["ci_high"] - rows["d_spread"]["estimate"] == pytest.approx(half)


def test_a_game_without_lab_hooks_is_refused_in_one_line(capsys):
    from moonshot.simulator import games
    from tests.toy_game import GAME
    games.register(GAME)
    try:
        code, out, err = _cli(["rules-lab", GAME.name, "-q"], capsys)
    finally:
        games.GAMES.pop(GAME.name)
    assert code == 2 and "headline" in err and "shoot-the-moon" in err and len(err.strip().splitlines()) == 1


def test_the_library_takes_rule_sets_as_dicts():
    import moonshot
    r = moonshot.rules_lab("shoot-the-moon", games=100, hands=200, seed=SEED,
                           sets={"short": {"stm.target_chips": 4}, "silent": {"stm.revoke_keep_hand_chips": True}})
    assert r.meta["sets"] == {"short": ["stm.target_chips=4"], "silent": ["stm.revoke_keep_hand_chips=true"]}
    assert "silent" in set(r.tables["never_fired"]["rule"]) and "short" in set(r.tables["ranked"]["rule"])


# --- issue 40: --until, skill without moving a handicap, the weakest seat, profiles' provenance ----------

def _odd_lab(monkeypatch, **kw):
    """A tiny Shoot the Moon lab with cheap players (odd against random) in chunks of 25 games."""
    import moonshot.analysis.rules_lab as lab
    monkeypatch.setattr(lab, "GAMES_CHUNK", 25)
    setup = make_setup("shoot-the-moon", 3, strategies=("odd",))
    return rules_lab(setup, hands=100, seed=SEED, strong="odd", weak="random", sets=["short=stm.target_chips=4"], **kw)


def test_until_gives_the_numbers_of_a_fixed_run_of_the_size_it_stopped_at(monkeypatch):
    from moonshot.analysis.until import Until
    said = []
    res = _odd_lab(monkeypatch, games=2_000, until=Until(30, say=said.append))
    n = res.meta["games"]
    assert res.meta["stopped_by"] == "width" and res.meta["widest_interval"] < 30 and n % 25 == 0 and n < 2_000
    assert res.meta["rounds"] >= 2 and len(said) == res.meta["rounds"] - 1 and "more games" in said[0]
    widths = [(r["ci_high"] - r["ci_low"]) * 100 for _, r in res.tables["ranked"].iterrows() if r["metric"] in
              ("d_first_edge", "d_spread", "d_weakest", "d_skill", "d_random_edge", "d_unfinished")]
    assert len(widths) == 6 and max(widths) == pytest.approx(res.meta["widest_interval"], abs=1e-5)   # as quoted
    assert any(n_.startswith("Played until every headline interval was narrower than 30") for n_ in res.notes)
    fixed = _odd_lab(monkeypatch, games=n)
    for name in ("ranked", "levels", "seats"):
        assert fixed.tables[name].equals(res.tables[name]), name
    assert fixed.findings == res.findings


@pytest.mark.parametrize("max_time, reason", [(None, "budget"), (1e-9, "time")])
def test_until_stopped_short_says_so_and_how_many_games_it_would_take(monkeypatch, max_time, reason):
    from moonshot.analysis.until import Until
    res = _odd_lab(monkeypatch, games=50 if max_time is None else 2_000, until=Until(1, max_time))
    assert res.meta["stopped_by"] == reason and res.meta["games"] == 50 and res.meta["rounds"] == 1
    projected = res.meta["projected_total"]
    assert projected == pytest.approx(50 * res.meta["widest_interval"] ** 2, rel=1e-3) and projected > 50
    note = next(n for n in res.notes if n.startswith("Stopped by"))
    assert "after 50 games" in note and f"about {projected:,} games in all" in note.replace(f"{projected - 1:,}",
                                                                                           f"{projected:,}")


def test_the_cli_and_library_take_until_and_refuse_a_bad_one(capsys):
    import moonshot
    for args, said in ((["--until", "0"], "--until 0.0 is not accepted"),
                       (["--max-time", "5"], "--max-time 5.0 without --until")):
        code, out, err = _cli(["rules-lab", "shoot-the-moon", "-q", *args], capsys)
        assert code == 2 and not out and said in err and len(err.strip().splitlines()) == 1
    with pytest.raises(BadInput, match="max_time=5 without until="):
        moonshot.rules_lab("shoot-the-moon", max_time=5)
    code, out, _ = _cli(["rules-lab", "shoot-the-moon", "-p", "3", "-s", "odd", "--strong", "odd", "--weak", "random",
                         "--set", "short=stm.target_chips=4", "--games", 30, "--hands", 100, "--until", 1, "-q",
                         "-f", "json"], capsys)
    meta = json.loads(out)["meta"]
    assert code == 0 and meta["stopped_by"] == "budget" and meta["games"] == 30 and meta["until"] == 1


def test_skill_seats_keep_a_handicap_where_it_was_put():
    from moonshot.analysis.rules_lab_words import skill_seats
    seats = {specs: skill_seats(make_setup("hit-the-deck", players, profiles=specs))
             for players, specs in ((4, ()), (4, ("child",)), (4, ("0=child",)), (4, ("0=child", "1=child")),
                                    (4, ("2=child", "3=distracted")), (3, ("1=adult:mu=900",)))}
    assert seats[()] == seats[("child",)] == (0, 1, 2, 3)           # alike: as before, every seat
    assert seats[("0=child",)] == (1, 2, 3) and seats[("2=child", "3=distracted")] == (0, 1)
    assert seats[("0=child", "1=child")] == (2, 3)                   # a tie: the game's default profile's seats
    assert seats[("1=adult:mu=900",)] == (0, 2)
    with pytest.raises(BadInput, match="two seats with one reaction profile"):
        skill_seats(make_setup("hit-the-deck", 2, profiles=("1=child",)))


def test_a_child_keeps_her_seat_in_the_skill_games_and_her_chance_leads(monkeypatch):
    """--profile 0=child, seat 0 played by random: the skill games seat the strong player in seats 1
    and 2 in turn, never in hers, and she keeps her own player there; the findings open with her
    P(win) and what changes the weakest seat's, and say the profiles are uncalibrated placeholders."""
    from moonshot.analysis.rules_lab_words import lab_players
    hooks = make_setup("hit-the-deck").hooks
    seen = []
    play = type(hooks).play_games

    def spy(self, setup, strategies, *args, **kw):
        seen.append(list(strategies))
        return play(self, setup, strategies, *args, **kw)
    monkeypatch.setattr(type(hooks), "play_games", spy)
    setup = make_setup("hit-the-deck", 3, strategies=("0=random",), profiles=("0=child",))
    res = rules_lab(setup, games=12, hands=10, seed=SEED, sets=["quick=htd.target_score=50"])
    strong, weak, child = setup.strategy("tactician"), setup.strategy("dump"), setup.seats.strategies[0]
    skill = [s for s in seen if any(x is weak for x in s)]
    assert skill and all(s[0] is child for s in skill)
    assert sorted(next(i for i, x in enumerate(s) if x is strong) for s in skill) == [1, 1, 2, 2]   # 2 arms x 2 turns
    assert res.meta["skill_seats"] == [1, 2] and res.meta["weakest_seat"] == 0
    seats = res.tables["seats"].set_index("seat")["estimate"]
    assert seats.idxmin() == 0 and _row(res, "levels", "defaults", "weakest")["estimate"] == seats[0]
    assert res.findings[0].startswith("Seat 0 (random, reaction profile child) wins ")
    assert "placeholder profile from RULES.md C.14, not calibrated" in res.findings[0]
    assert res.findings[1].startswith("`quick` changes the weakest seat's P(win) (seat 0 under the defaults) by ")
    assert ("the tactician player takes each seat with profile adult in turn (1 and 2), dump players the others of "
            "those seats, and seat 0 keeps its profile and the table's player") in " ".join(res.notes)
    assert lab_players(setup, ("tactician", "dump"), ["d_skill"]) == ("one tactician among dump players in the seats "
                                                                      "with reaction profile adult, in each in turn "
                                                                      "(seat 0 keeps its player and profile)")


def test_a_profile_says_where_its_numbers_come_from():
    from moonshot.analysis.rules_lab_words import table_players
    from moonshot.web.games.hit_the_deck import fit_profile
    from moonshot.simulator.hit_the_deck.profiles import parse_profile
    fitted = fit_profile([350.0, 420.0, 390.0, 510.0, 365.0], 1)["spec"].removeprefix("--profile ")
    said = table_players(make_setup("hit-the-deck", 4, profiles=(fitted, "0=child:mu=900")))
    assert "adult:mu=" in said and "mu, sigma and tau fitted from your slaps" in said
    assert "child:mu=900: mu as given, the rest child's placeholders from RULES.md C.14, not calibrated" in said
    assert parse_profile("off").provenance().startswith("perfect reflexes")
    assert table_players(make_setup("hit-the-deck")) == "tactician in every seat"        # nothing named, nothing said


def test_the_weakest_seat_is_the_lowest_p_win_taken_as_found_with_a_delta_method_change():
    from moonshot.analysis.rules_lab import _weakest
    from moonshot.analysis.stats import wilson
    from moonshot.simulator.runner import Tally
    rng = np.random.default_rng(5)
    n, P = 3_000, 3
    winner = rng.choice(P, size=(n, 2), p=[0.1, 0.45, 0.45])
    winner[:, 0] = np.where(rng.random(n) < 0.8, winner[:, 1], rng.choice(P, n, p=[0.2, 0.4, 0.4]))  # variant
    x = np.concatenate([winner[:, :1] == np.arange(P), winner[:, 1:] == np.arange(P)], axis=1)
    tally = Tally()
    tally.add("m", {"all": np.zeros(n, dtype=np.int8)},
              {f"m{i}_{j}": x[:, i] & x[:, j] for i in range(2 * P) for j in range(i, 2 * P)})
    rows, base = _weakest(tally.get("m"), P)
    rows = {r["metric"]: r for r in rows}
    p = x.mean(axis=0)
    assert np.allclose(base, p[P:]) and rows["base_weakest"]["estimate"] == pytest.approx(p[P:].min())
    _, low, high = wilson(x[:, P + np.argmin(p[P:])].sum(), n)
    assert (rows["base_weakest"]["ci_low"], rows["base_weakest"]["ci_high"]) == pytest.approx((float(low), float(high)))
    d = x[:, np.argmin(p[:P])].astype(float) - x[:, P + np.argmin(p[P:])]
    assert rows["d_weakest"]["estimate"] == pytest.approx(d.mean())
    assert rows["d_weakest"]["ci_high"] - rows["d_weakest"]["estimate"] == pytest.approx(
        1.959963984540054 * d.std(ddof=1) / np.sqrt(n))
