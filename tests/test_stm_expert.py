"""The Shoot the Moon expert (issue 36): its shipped model loads, it plays legally at every table and
under every flag, its histories replay, a damaged model file is one clear line, and the training
script gives the same weights from the same seed."""
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from moonshot.simulator.errors import BadInput
from moonshot.simulator.shoot_the_moon.engine import Table, play
from moonshot.simulator.shoot_the_moon.rules import parse_rules
from moonshot.strategies import stm_expert as E
from moonshot.strategies.base import make_strategy
from moonshot.strategies.shoot_the_moon import OddPlanner, RandomPlay
from tests.test_cli import run

TABLES = [(2, False), (3, False), (4, False), (4, True), (5, False), (6, False), (6, True)]
FLAGS = [(), ("stm.dummy_mode=open_hand_nondealer_chooses",), ("stm.little_moon_lead_trumps=true",),
         ("stm.revoke_model=on(0.2,0.5)",), ("stm.chip_supply=finite40", "stm.moon_chip_netting=sequential"),
         ("stm.partnership_trick_count=per_player", "stm.six_player_teams=three_teams_of_two", "stm.starting_chips=0")]


def test_the_strategy_names_no_file():
    """The page and the command line pass strategy parameters: none of them loads a file."""
    import inspect
    assert not inspect.signature(E.ExpertPlay).parameters
    with pytest.raises(BadInput, match="unknown parameter"):
        make_strategy("shoot-the-moon", "expert:model=/etc/passwd")


def test_the_shipped_model_loads_with_its_fields():
    m = E.load_model(str(E.MODEL_FILE))
    hd = m.w2.shape[0]
    assert m.w1.shape == (E.N_FEATURES, hd) and m.b1.shape == (E.N_CONTEXTS, hd) and np.abs(m.w1).max() > 0
    assert m.t_lo.shape == (1 << E.SPLIT, hd) and m.t_hi.shape == (1 << (E.BINARY - E.SPLIT), hd)
    with np.load(E.MODEL_FILE) as z:
        assert int(z["format"]) == E.MODEL_FORMAT and tuple(z["features"].tolist()) == E.FEATURES
        assert int(z["decisions"]) > 10_000          # fitted on real data, not a stub


class Counting:
    """The expert, counting the decisions it is asked and those with a real choice."""

    def __init__(self):
        self.inner, self.asked, self.choices, self.seats = make_strategy("shoot-the-moon", "expert"), 0, 0, set()

    def play(self, view, rng):
        self.asked += len(view)
        self.choices += int((np.bitwise_count(view.legal_bits) > 1).sum())
        self.seats |= set(np.asarray(view.seat).tolist())
        return self.inner.play(view, rng)


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: ",".join(f) or "defaults")
@pytest.mark.parametrize("players,partners", TABLES)
def test_it_plays_every_table_and_flag_legally(players, partners, flags):
    """The engine checks every answer (an illegal slot raises); the rounds end with five tricks."""
    table = Table(players, partners, parse_rules(list(flags)))
    rng = np.random.default_rng(players * 10 + partners)
    expert = Counting()
    res = play(table, 400, [expert] * players, rng, rng)
    assert (res.tricks_seat.sum(axis=1) == 5).all()
    assert expert.choices > 400                      # it really chose, at every seat
    open_dummy = players == 2 and "stm.dummy_mode=open_hand_nondealer_chooses" in flags
    assert expert.seats == set(range(players + open_dummy))
    # beside other strategies too (the engine asks each seat's own)
    mixed = [expert if s % 2 else OddPlanner() for s in range(players)]
    res = play(table, 200, mixed, rng, rng)
    assert (res.tricks_seat.sum(axis=1) == 5).all()


def test_it_beats_random_and_often_differs_from_odd():
    table = Table(4, False, parse_rules([]))
    expert = make_strategy("shoot-the-moon", "expert")
    rng = np.random.default_rng(5)
    gains = {}
    for name, strat in (("expert", expert), ("random", RandomPlay())):
        r = np.random.default_rng(5)
        res = play(table, 3000, [strat, RandomPlay(), RandomPlay(), RandomPlay()], r, r)
        gains[name] = (res.chips_after - res.chips_before)[:, 0].mean()
    assert gains["expert"] > gains["random"] + 0.1

    class Both:
        differ = same = 0

        def play(self, view, rng):
            a, b = expert.play(view, rng), OddPlanner().play(view, rng)
            real = np.bitwise_count(view.legal_bits) > 1
            Both.differ += int((real & (a != b)).sum())
            Both.same += int((real & (a == b)).sum())
            return a
    play(table, 2000, [Both()] * 4, rng, rng)
    share = Both.differ / (Both.differ + Both.same)       # its own player: neither odd nor far from it
    assert 0.1 < share < 0.9


@pytest.mark.parametrize("players,partners", [(2, False), (4, False), (6, True)])
def test_its_histories_replay(players, partners, tmp_path, capsys):
    path = tmp_path / "h.jsonl"
    args = ["simulate", "shoot-the-moon", "-p", players, "-n", 60, "-s", "expert", "--seed", 3, "-q",
            "--history", path] + (["--partners"] if partners else [])
    code, _, err = run(args, capsys)
    assert code == 0, err
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(lines) == 60 and all("expert" in json.dumps(rec) for rec in lines[:1])
    code, out, err = run(["replay", path], capsys)
    assert code == 0, err


@pytest.fixture
def other_model(monkeypatch):
    """Points the expert at another model file; runs build their players afresh (they are cached per spec)."""
    from moonshot.analysis.common import _seats

    def use(path):
        monkeypatch.setenv(E.MODEL_ENV, str(path))
        _seats.cache_clear()
    yield use
    monkeypatch.delenv(E.MODEL_ENV, raising=False)
    _seats.cache_clear()


def _write(path: Path, **fields):
    np.savez(path, **fields)
    return str(path)


def good_fields(hd: int = 3):
    return E.Model(np.zeros((E.N_FEATURES, hd)), np.zeros((E.N_CONTEXTS, hd)), np.zeros(hd)).fields()


@pytest.mark.parametrize("damage,words", [
    ("missing", "not found"),
    ("garbage", "unreadable"),
    ("no_weights", "lacks w1"),
    ("format", "has format 99"),
    ("features", "other features"),
    ("shape", "w1 (3, 4)"),
    ("nan", "finite numbers"),
])
def test_a_damaged_model_file_is_one_clear_line(damage, words, tmp_path, capsys, other_model):
    path = tmp_path / "m.npz"
    fields = good_fields()
    if damage == "garbage":
        path.write_bytes(b"PK\x03\x04 not a zip at all")
    elif damage != "missing":
        if damage == "no_weights":
            del fields["w1"]
        elif damage == "format":
            fields["format"] = np.int64(99)
        elif damage == "features":
            fields["features"] = np.array(E.FEATURES[::-1])
        elif damage == "shape":
            fields["w1"] = np.zeros((3, 4))
        else:
            fields["b1"][2, 1] = np.nan
        _write(path, **fields)
    with pytest.raises(BadInput, match="expert model file") as info:
        E.load_model(str(path))
    assert words in str(info.value) and "\n" not in str(info.value)
    other_model(path)
    code, _, err = run(["simulate", "shoot-the-moon", "-n", 10, "-s", "expert"], capsys)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_good_model_file_is_played_as_written(tmp_path, other_model):
    """A network that scores only 'lowest' plays the cheapest legal card everywhere."""
    fields = good_fields()
    fields["w1"][E.FEATURES.index("lowest"), 0] = 1.0
    fields["w2"][0] = 1.0
    other_model(_write(tmp_path / "low.npz", **fields))
    strat = make_strategy("shoot-the-moon", "expert")
    rng = np.random.default_rng(2)

    class Check:
        def play(self, view, rng):
            got = strat.play(view, rng)
            assert (got == np.asarray(view.legal).argmax(axis=1)).all()
            return got
    play(Table(4, False, parse_rules([])), 300, [Check()] * 4, rng, rng)


def _trainer():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "train_stm_expert.py"
    spec = importlib.util.spec_from_file_location("train_stm_expert", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_training_script_gives_the_same_weights_from_the_same_seed(tmp_path):
    T = _trainer()
    cfg = dict(T.TINY, deals=60, worlds=4)
    quiet = lambda *a: None       # noqa: E731
    m1, info = T.train(cfg, 7, log=quiet)
    m2, _ = T.train(cfg, 7, log=quiet)
    m3, _ = T.train(cfg, 8, log=quiet)
    same = lambda a, b: all(np.array_equal(x, y) for x, y in ((a.w1, b.w1), (a.b1, b.b1), (a.w2, b.w2)))  # noqa: E731
    assert same(m1, m2) and not same(m1, m3) and info["decisions"] > 100
    out = tmp_path / "m.npz"
    T.save(out, m1, cfg, 7, info)
    assert same(E.load_model(str(out)), m1)


def test_the_compiled_scores_are_the_networks():
    """choose() (yes/no features looked up per pattern, numbers summed sparsely) picks the card the
    network's plain formula scores best, from features() of the same views."""
    model = E.load_model(str(E.MODEL_FILE))
    checked = [0]

    class Check:
        def play(self, view, rng):
            got = E.choose(view, model)
            x, ctx = E.features(view)
            s = np.maximum(x @ model.w1 + model.b1[ctx][:, None, :], 0) @ model.w2
            s = np.where(np.asarray(view.legal), s, -np.inf)
            real = (np.bitwise_count(view.legal_bits) > 1) & (np.asarray(view.side) >= 0)
            top2 = np.sort(s, axis=1)[:, -2:]
            clear = real & (top2[:, 1] - top2[:, 0] > 1e-4)          # no near-tie that rounding may flip
            assert (got[clear] == s[clear].argmax(axis=1)).all()
            checked[0] += int(clear.sum())
            return got
    for players, partners in ((2, False), (4, False), (6, True)):
        rng = np.random.default_rng(players)
        play(Table(players, partners, parse_rules([])), 300, [Check()] * players, rng, rng)
    assert checked[0] > 3000
