"""moonshot.compile: a first run says that it compiles, a compiled game says nothing (issue 29)."""
import io

from numba.core.caching import _CacheLocator

from moonshot.compile import ROOT, announce, compiled


def test_an_empty_cache_is_announced_and_a_filled_one_is_not(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    out = io.StringIO()
    announce("hit-the-deck", out)
    assert not compiled("hit-the-deck")
    assert "compiling hit-the-deck's kernels, once" in out.getvalue()
    # where numba files the engine folder's kernels under NUMBA_CACHE_DIR
    engine = ROOT / "simulator" / "hit_the_deck" / "engine"
    cache = tmp_path / _CacheLocator.get_suitable_cache_subpath(str(engine / "kernels.py"))
    cache.mkdir(parents=True)
    (cache / "kernels.turns-1.py311.nbi").write_bytes(b"")
    out = io.StringIO()
    announce("hit-the-deck", out)
    assert compiled("hit-the-deck") and out.getvalue() == ""
    assert not compiled("moon")                  # each game is looked up in its own folders
