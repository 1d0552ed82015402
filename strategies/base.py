"""Strategy protocol, registry and the `--strategy` spec parser shared by every game.

A strategy is a class with one method per decision of its game, each taking a batch observation
(which holds the legal mask) and a numpy Generator and returning one choice per game:
Shoot the Moon has ``play(view, rng)``; Moon has ``bid``, ``trump``, ``discard`` and ``play``.
The class docstring's first paragraph is its rule of thumb (shown by ``moonshot strategies``).

Specs, as typed on the command line:
  ``odd``                      every seat plays `odd`
  ``1=random``                 seat 1 plays `random` (other seats keep the default)
  ``threshold:margin=1``       a registered strategy with parameters
  ``2=path/to/mine.py:MyStrategy``   a user's class loaded from a file
"""
from __future__ import annotations

import importlib.util
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from simulator.errors import BadInput

REGISTRY: dict[str, dict[str, type]] = {}


def registered(game: str) -> dict[str, type]:
    """The built-in strategies of `game` by name (importing its module registers them)."""
    from simulator.games import GAMES
    if game not in REGISTRY and game in GAMES:
        importlib.import_module(GAMES[game].strategies)
    return REGISTRY.get(game, {})


def register(game: str, name: str) -> Callable[[type], type]:
    def deco(cls: type) -> type:
        REGISTRY.setdefault(game, {})[name] = cls
        cls.name = name
        return cls
    return deco


def rule_of_thumb(cls: type) -> str:
    doc = inspect.getdoc(cls) or ""
    return " ".join(doc.split("\n\n")[0].split())


def _convert(text: str, default: Any) -> Any:
    if isinstance(default, bool):
        if text.lower() in ("true", "1", "yes"):
            return True
        if text.lower() in ("false", "0", "no"):
            return False
        raise ValueError
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    return text


def _instantiate(cls: type, params: dict[str, str], spec: str) -> Any:
    sig = inspect.signature(cls)
    accepted = {k: p.default for k, p in sig.parameters.items() if k != "self"}
    kwargs = {}
    for key, text in params.items():
        if key not in accepted:
            names = ", ".join(accepted) or "none"
            raise BadInput(f"strategy {spec!r}: unknown parameter {key!r}; accepted: {names}")
        try:
            kwargs[key] = _convert(text, accepted[key])
        except ValueError:
            raise BadInput(f"strategy {spec!r}: bad value {text!r} for {key}; "
                           f"accepted: a value like {accepted[key]!r}") from None
    obj = cls(**kwargs)
    obj.spec = spec
    return obj


def _load_plugin(path: str, class_name: str, spec: str) -> type:
    file = Path(path)
    if not file.is_file():
        raise BadInput(f"strategy {spec!r}: no file {path!r}; accepted: path/to/file.py:ClassName")
    module_name = "moonshot_plugin_" + re.sub(r"\W", "_", str(file.resolve()))
    loader = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(loader)
    try:
        loader.loader.exec_module(module)
    except Exception as exc:   # a user's file: report it in one line
        raise BadInput(f"strategy {spec!r}: could not load {path}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        found = ", ".join(n for n, v in vars(module).items() if isinstance(v, type) and v.__module__ == module_name)
        raise BadInput(f"strategy {spec!r}: {path} has no class {class_name!r}; classes there: {found or 'none'}")
    return cls


def make_strategy(game: str, spec: str, required: tuple[str, ...] = ("play",)) -> Any:
    """Build one strategy from `name[:k=v,...]` or `file.py:Class[:k=v,...]`."""
    known = registered(game)
    head, _, rest = spec.partition(":")
    if head.endswith(".py"):
        cls_name, _, param_text = rest.partition(":")
        cls = _load_plugin(head, cls_name, spec)
    else:
        cls = known.get(head)
        param_text = rest
        if cls is None:
            raise BadInput(f"unknown strategy {head!r} for {game}; accepted: {', '.join(sorted(known))} "
                           f"or path/to/file.py:ClassName")
    params = {}
    for item in filter(None, param_text.split(",")):
        k, sep, v = item.partition("=")
        if not sep:
            raise BadInput(f"strategy {spec!r}: parameter {item!r} is not key=value")
        params[k.strip()] = v.strip()
    obj = _instantiate(cls, params, spec)
    missing = [m for m in required if not callable(getattr(obj, m, None))]
    if missing:
        raise BadInput(f"strategy {spec!r} has no method {', '.join(missing)}; a {game} strategy needs "
                       f"{', '.join(required)}")
    return obj


@dataclass(frozen=True)
class SeatStrategies:
    """One strategy object per seat plus the specs that made them (for reports and histories)."""
    strategies: tuple
    specs: tuple[str, ...]


def parse_seat_specs(game: str, specs: list[str] | tuple[str, ...], seats: int, default: str,
                     required: tuple[str, ...] = ("play",)) -> SeatStrategies:
    """Turn the repeated `--strategy` values into one strategy per seat.

    A spec without `seat=` sets every seat; `seat=spec` then overrides single seats. Seats with
    the same spec share one object (the engine then calls it once for all of them).
    """
    per_seat = [default] * seats
    for spec in specs:
        seat_text, sep, rest = spec.partition("=")
        if sep and seat_text.strip().isdigit():
            seat = int(seat_text)
            if not 0 <= seat < seats:
                raise BadInput(f"--strategy {spec!r}: seat {seat} does not exist; accepted seats: 0..{seats - 1}")
            per_seat[seat] = rest.strip()
        elif sep and ":" not in seat_text and not seat_text.endswith(".py"):
            raise BadInput(f"--strategy {spec!r}: seat {seat_text!r} is not a number; accepted: SEAT=NAME, "
                           f"SEAT in 0..{seats - 1}")
        else:
            per_seat = [spec.strip()] * seats
    built: dict[str, Any] = {}
    for spec in per_seat:
        if spec not in built:
            built[spec] = make_strategy(game, spec, required)
    return SeatStrategies(tuple(built[s] for s in per_seat), tuple(per_seat))
