"""Moon's expert player: its model file is checked on load, it plays every decision legally at every table
and rules variant, its histories replay, and its compiled paths compute what their numpy definitions say."""
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from moonshot.analysis.common import Setup
from moonshot.simulator.errors import BadInput
from moonshot.simulator.moon import engine, tiles
from moonshot.simulator.moon.rules import FLAGS
from moonshot.strategies import moon_expert as ex
from moonshot.strategies import moon_expert_bid as tm
from moonshot.strategies import moon_expert_play as mp
from moonshot.strategies.base import parse_seat_specs

METHODS = ("bid", "discard", "trump", "play")


def lineup(players: int, spec="expert"):
    return parse_seat_specs("moon", [spec], players, default=spec, required=METHODS).strategies


def variants():
    """Every flag's every other value, at each table size where the rules allow it."""
    out = []
    for flag in FLAGS:
        for value in flag.alternatives():
            for players in (3, 4):
                try:
                    Setup("moon", players, rule_args=(f"{flag.name}={value}",)).validate()
                except BadInput:
                    continue
                out.append((players, f"{flag.name}={value}"))
    return out


@pytest.mark.parametrize("players,rule", [(3, None), (4, None)] + variants())
def test_plays_every_decision_legally(players, rule):
    """The engine checks every answer (bid, discard, trump, play, called end) and names the strategy
    otherwise; every played hand takes its seven tricks."""
    table = Setup("moon", players, rule_args=(rule,) if rule else ()).validate().table
    res = engine.play(table, 400, lineup(players), np.random.default_rng(1), np.random.default_rng(2))
    played = res.bidder >= 0
    assert played.mean() > 0.5
    assert (res.tricks[played].sum(axis=1) == 7).all()
    if table.has_widow:
        assert (res.discard[played] >= 0).all()


@pytest.mark.parametrize("players", [3, 4])
def test_hands_replay_through_the_reference(players):
    from tests.moon_testing import replay_hand
    table = Setup("moon", players).validate().table
    res = engine.play(table, 120, lineup(players), np.random.default_rng(11), np.random.default_rng(12), trace=True)
    for i in range(120):
        replay_hand(res, i, table)


def test_histories_pass_moonshot_replay(tmp_path):
    path = tmp_path / "hands.jsonl"
    run = [sys.executable, "-m", "moonshot.cli"]
    for players in ("3", "4"):
        out = subprocess.run(run + ["simulate", "moon", "-p", players, "-s", "expert", "-n", "60", "--history",
                                    str(path), "-q"], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        check = subprocess.run(run + ["replay", str(path)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr + check.stdout


def _arrays():
    with np.load(ex.MODEL_PATH) as f:
        return {k: f[k] for k in f.files}


@pytest.mark.parametrize("tamper,said", [
    (lambda a: a.pop("p3_play"), "p3_play is missing"),
    (lambda a: a.__setitem__("p4_post_w1", a["p4_post_w1"][:5]), "p4_post_w1 is missing or not a finite array"),
    (lambda a: a["p3_pre_b2"].__setitem__(0, np.nan), "p3_pre_b2 is missing or not a finite array"),
    (lambda a: a.__setitem__("format", np.array(99)), "model format 99"),
    (lambda a: a.__setitem__("format", np.array([1, 1])), "model format"),
    (lambda a: a.__setitem__("format", np.array("1")), "model format"),
])
def test_a_tampered_model_file_is_refused_in_one_line(tmp_path, tamper, said):
    arrays = _arrays()
    tamper(arrays)
    path = tmp_path / "model.npz"
    np.savez(path, **arrays)
    with pytest.raises(BadInput, match=said) as err:
        ex.Model.load(path)
    assert "\n" not in str(err.value)
    path.write_bytes(b"not a model")
    with pytest.raises(BadInput, match="cannot read the expert's model"):
        ex.Model.load(path)


def test_the_trick_model_is_the_network_its_design_matrix_defines():
    """The compiled pass (first layer summed once per trump, a dropped tile's row taken off) gives the
    network's softmax on the one-hot design matrix, for whole hands and for every 7 kept of 8."""
    rng = np.random.default_rng(3)
    w = ex.shipped_model().tricks["p3_post"]
    hands8 = np.array([rng.permutation(22)[:8] for _ in range(40)])
    trumps = np.array([1, 5, 7, 8])
    points = rng.normal(size=(1, 3, 8))
    skip = np.broadcast_to(np.arange(8), (40, 4, 8))
    got = tm.expected(w, hands8, trumps, points, skip)                         # (40, 4, 8, 3)
    for d in range(8):
        kept = np.delete(hands8, d, axis=1)
        for a, t in enumerate(trumps):
            X = tm.design(kept, np.full(len(kept), t))
            h = np.maximum(X @ w["w1"] + w["b1"], 0)
            z = h @ w["w2"] + w["b2"]
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            assert np.allclose(got[:, a, d], p @ points[0].T, atol=1e-5)     # the pass runs in float32


@given(arrays(np.int16, st.tuples(st.integers(1, 5), st.integers(1, 4), st.integers(1, 9)), elements=st.integers(0, 3)),
       st.integers(1, 9))
def test_the_discards_tried_are_a_stable_sorts_first(keep, k):
    """lowest_slots picks, in order, what a stable argsort puts first (ties: the earlier slot)."""
    k = min(k, keep.shape[2])
    assert (tm.lowest_slots(keep, k) == np.argsort(keep, axis=2, kind="stable")[:, :, :k]).all()


def test_the_play_kernel_plays_the_argmax_of_its_features():
    table = Setup("moon", 3).validate().table
    weights = ex.shipped_model().play[3]
    seen = []

    class Check(ex.ExpertMoon):
        def play(self, view, rng):
            X, S = mp.play_features(view)
            choice = super().play(view, rng)
            score = np.where(np.asarray(view.legal), np.einsum("njf,nf->nj", X, weights[S]), -np.inf)
            many = np.asarray(view.legal).sum(axis=1) > 1
            assert (choice[many] == score[many].argmax(axis=1)).all()
            seen.append(many.sum())
            return choice

    player = Check.with_model(ex.shipped_model())
    engine.play(table, 300, [player] * 3, np.random.default_rng(5), np.random.default_rng(6))
    assert sum(seen) > 1000


def test_roles_are_a_permutation_of_each_family():
    """Every trump's roles name each of its family's 28 rows once (the full set's tiles)."""
    for t in range(tiles.N_TRUMPS):
        assert sorted(tm.ROLE[t] % 28) == list(range(28))


def test_a_laydown_bids_the_moon_and_a_hopeless_hand_passes():
    from moonshot.simulator.moon.engine.rows import BITS7
    from moonshot.simulator.moon.engine.table import bid_legal_index
    from moonshot.simulator.moon.views import BID_VALUES, BidView
    table = engine.Table(3)
    legal = np.tile(BITS7[table.bid_legal[bid_legal_index(0, 0)]][:len(BID_VALUES)], (2, 1))
    assert not legal[:, 1].any()                        # no bid of 3 under the default rules
    hands = np.array([[tiles.parse_tile(x) for x in text.split()] for text in
                      ("6-6 6-5 6-4 6-3 6-2 6-1 5-5", "2-1 3-1 4-1 5-2 4-3 5-3 3-2")])
    view = BidView(3, table.rules, 0, np.zeros(2, dtype=np.int64), hands, np.full((2, 3), -1),
                   np.zeros(2, dtype=np.int16), legal, np.zeros((2, 3)), np.zeros(2, dtype=np.int64))
    bids = ex.ExpertMoon().bid(view, np.random.default_rng(0))
    assert bids[0] == 21 and bids[1] == 0


def test_training_rebuilds_the_same_weights_from_the_same_seed(tmp_path):
    """A tiny run of benchmarks/train_moon_expert.py twice: the same seed, the same file."""
    script = [sys.executable, "benchmarks/train_moon_expert.py", "--rounds", "1", "--play-hands", "3:6,4:4",
              "--bid-deals", "60", "--trick-steps", "30", "--seed", "5"]
    outs = []
    for k in range(2):
        out = tmp_path / f"m{k}.npz"
        run = subprocess.run(script + ["--out", str(out)], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        outs.append(np.load(out))
    assert set(outs[0].files) == set(outs[1].files)
    for k in outs[0].files:
        assert np.array_equal(outs[0][k], outs[1][k]), k
    ex.Model({k: outs[0][k] for k in outs[0].files})           # a file the player accepts
