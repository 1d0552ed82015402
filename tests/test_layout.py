"""The code's shape: no import circles, and layout numbers read from the modules that define them."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import numpy as np

import moonshot
from moonshot.simulator.hit_the_deck import cards
from moonshot.simulator.runner import DEFAULT_SEED

ROOT = Path(moonshot.__file__).parent
SKIP = {"tests", "benchmarks", "build", ".venv"}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if SKIP & set(rel.parts):
            continue
        parts = ("moonshot", *rel.with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _type_only(tree: ast.Module) -> set[ast.AST]:
    """The statements under `if TYPE_CHECKING:`: imports for annotations, never run."""
    return {node for block in ast.walk(tree) if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
            for stmt in block.body for node in ast.walk(stmt)}


def _imports(path: Path, modules: dict) -> set[str]:
    """The package's modules `path` imports when it runs, at module level or inside a function."""
    deps = set()
    tree = ast.parse(path.read_text())
    skip = _type_only(tree)
    for node in ast.walk(tree):
        if node in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                deps.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            deps.update(alias.name for alias in node.names)
    return deps & modules.keys()


def test_no_import_circles():
    """A module that needs another's piece imports it; two modules never need each other (the shared
    piece lives in the lower one), lazily or not."""
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    assert len(graph) > 50
    circles = []
    for start in graph:                         # depth-first from each module: a path back to it is a circle
        stack, seen = [(start, (start,))], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(path)
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*path, nxt)))
    assert not circles, circles[:3]


# DESIGN.md's layers, lowest first: an import points down this list or stays in its layer (the
# command line's helpers beside it; the package root, the library, above them all; version a leaf)
LAYERS = {"version": 0, "simulator": 0, "strategies": 1, "analysis": 2, "reports": 3, "web": 4, "cli": 4,
          "inputs": 4, "startup": 4, "compile": 4}
TOP = 5


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], TOP) if len(parts) > 1 else TOP


def test_imports_point_down_the_layers():
    """simulator < strategies < analysis < reports < web, cli: imports inside functions counted, so
    a game's page parts live in web/games/ and an engine gets its fast players from the strategies
    (fast.WHOLE_BATCH), never by importing them."""
    modules = _modules()
    up = [f"{name} -> {dep}" for name, path in modules.items() for dep in sorted(_imports(path, modules))
          if _layer(dep) > _layer(name)]
    assert not up, up


def test_the_layer_scan_sees_an_upward_import_inside_a_function(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from moonshot.web.app import create_app\n    return create_app\n")
    modules = _modules()
    assert "moonshot.web.app" in _imports(path, modules)
    assert _layer("moonshot.web.app") > _layer("moonshot.simulator.games") == 0


def test_htd_card_kinds_cover_the_layout_once():
    from moonshot.analysis.hit_the_deck import CARD_KINDS
    kinds = sorted(k for group in CARD_KINDS.values() for k in group)
    assert kinds == list(range(cards.N_KINDS))
    for name, group in CARD_KINDS.items():
        assert len({int(cards.CLASS[k]) for k in group}) == 1, name
        assert [cards.name(k) for k in group] == [cards.NAMES[k] for k in group]
    assert {cards.name(k) for k in CARD_KINDS["number 3"]} == {f"{c}3" for c in cards.COLOURS}


def test_moon_random_bid_table_is_uniform_over_the_number_bids():
    from moonshot.simulator.moon.views import BID_VALUES, MOON_BID, PASS
    from moonshot.strategies import moon
    for mask in range(1 << len(BID_VALUES)):
        cols = [c for c, b in enumerate(BID_VALUES) if mask >> c & 1 and b not in (PASS, MOON_BID)]
        row = moon._NONPASS[mask & moon._NUMBER_BITS]
        if not cols:
            assert (row == -1).all()
            continue
        assert sorted(set(row.tolist())) == cols
        assert len(set(np.bincount(row, minlength=len(BID_VALUES))[cols].tolist())) == 1   # each equally often


def test_one_default_seed():
    from moonshot.analysis.rules_lab import rules_lab
    for fn in (moonshot.simulate, moonshot.analyze, moonshot.compare, moonshot.whatif, moonshot.rules_lab,
               moonshot.hand, moonshot.report, rules_lab):
        assert inspect.signature(fn).parameters["seed"].default == DEFAULT_SEED, fn.__name__
