"""Strategy protocol, registry and the `--strategy` spec parser shared by every game.

A strategy is a class with one method per decision of its game, each taking a batch observation
(which holds the legal mask) and a numpy Generator and returning one choice per game:
Shoot the Moon has ``play(view, rng)``; Moon has ``bid``, ``trump``, ``discard`` and ``play``.
The class docstring's first paragraph is its rule of thumb (shown by ``moonshot strategies``).
Numeric parameters declare their sensible range beside ``__init__`` in a class attribute
``ranges = {"margin": (-7, 7)}``; a spec outside it is refused. An optional ``chunk_hands`` (a
positive integer) makes runs with the strategy split into smaller chunks. An optional
``adapts_to`` (a tuple of rules flag names) declares the rules the strategy's choices take into
account beyond playing legal moves; a strategy that declares it and leaves a flag out plays as
under the defaults whatever that flag says (the rules lab marks such effects). Without the
declaration (a search player that plays the game out under the table's rules, a user's class)
it is taken to adapt to every rule.

Specs, as typed on the command line:
  ``odd``                      every seat plays `odd`
  ``1=random``                 seat 1 plays `random` (other seats keep the default)
  ``threshold:margin=1``       a registered strategy with parameters
  ``2=path/to/mine.py:MyStrategy``   a user's class loaded from a file
"""
from __future__ import annotations

import importlib.util
import inspect
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from moonshot.simulator import games
from moonshot.simulator.errors import BadInput, short

REGISTRY = games.STRATEGIES          # game -> name -> class (kept beside the game registry)
registered = games.strategies_of     # the built-in strategies of a game by name


def register(game: str, name: str) -> Callable[[type], type]:
    def deco(cls: type) -> type:
        REGISTRY.setdefault(game, {})[name] = cls
        cls.name = name
        return cls
    return deco


def rule_of_thumb(cls: type) -> str:
    """The first paragraph of the class's docstring, one line, with the module's number constants it
    names (ENDGAME) said as their values: a player reads "within 40 points", not a code name."""
    doc = " ".join((inspect.getdoc(cls) or "").split("\n\n")[0].split())
    module = vars(sys.modules.get(cls.__module__, object))

    def value(m: re.Match) -> str:
        v = module.get(m[0])
        return f"{v:g}" if isinstance(v, (int, float)) and not isinstance(v, bool) else m[0]
    return re.sub(r"\b[A-Z][A-Z0-9_]{2,}\b", value, doc)


def _convert(key: str, text: str, default: Any, bounds: tuple | None = None) -> Any:
    """A parameter's text as the type of its default; floats finite, p_* parameters in [0, 1], and a
    number within `bounds` (lowest, highest) where the class declares them."""
    value = _typed(key, text, default)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        raise ValueError
    return value


def _typed(key: str, text: str, default: Any) -> Any:
    if isinstance(default, bool):
        if text.lower() in ("true", "1", "yes"):
            return True
        if text.lower() in ("false", "0", "no"):
            return False
        raise ValueError
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        value = float(text)
        if not math.isfinite(value) or (key.startswith("p_") and not 0 <= value <= 1):
            raise ValueError
        return value
    return text


def _accepted(key: str, default: Any, bounds: tuple | None = None) -> str:
    if isinstance(default, bool):
        return "true or false"
    if bounds is not None:
        kind = "an integer" if isinstance(default, int) else "a number"
        return f"{kind} from {bounds[0]:,g} to {bounds[1]:,g}"
    if isinstance(default, int):
        return f"an integer like {default}"
    if isinstance(default, float):
        return "a probability in [0, 1]" if key.startswith("p_") else f"a finite number like {default}"
    return f"a value like {default!r}"


def _instantiate(cls: type, params: dict[str, str], spec: str) -> Any:
    sig = inspect.signature(cls)
    accepted = {k: p.default for k, p in sig.parameters.items() if k != "self"}
    ranges = getattr(cls, "ranges", {})       # {parameter: (lowest, highest)}, declared beside __init__
    kwargs = {}
    for key, text in params.items():
        if key not in accepted:
            names = ", ".join(accepted) or "none"
            raise BadInput(f"strategy {short(spec)}: unknown parameter {short(key)}; accepted: {names}")
        try:
            kwargs[key] = _convert(key, text, accepted[key], ranges.get(key))
        except ValueError:
            raise BadInput(f"strategy {short(spec)}: bad value {short(text)} for {key}; "
                           f"accepted: {_accepted(key, accepted[key], ranges.get(key))}") from None
    try:
        obj = cls(**kwargs)
    except BadInput:
        raise
    except Exception as exc:     # a user's class: its constructor's failure in one line
        where = _where(exc)
        if where.endswith(f"({Path(__file__).name}:{exc.__traceback__.tb_lineno})"):   # the call itself failed
            code = getattr(cls.__init__, "__code__", None)       # point at the user's __init__
            if code is not None:
                where = f"{type(exc).__name__}: {exc} ({Path(code.co_filename).name}:{code.co_firstlineno})"
        raise BadInput(f"strategy {short(spec)} could not be built: {where}") from None
    _check_chunk_hands(obj, spec)
    obj.spec = spec
    return obj


def _check_chunk_hands(obj: Any, spec: str) -> None:
    """A strategy's own chunk size (hands per chunk of a run with it at the table), if it sets one."""
    size = getattr(obj, "chunk_hands", None)
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size < 1):
        raise BadInput(f"strategy {short(spec)}: chunk_hands {short(size)} is not a positive integer; accepted: "
                       "an integer >= 1 (hands per chunk), or no chunk_hands")


def _where(exc: BaseException) -> str:
    """'TypeError: message (file.py:12)': the exception and the innermost frame that raised it."""
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    place = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{place}"


class Guarded:
    """A user's strategy (loaded from a file) whose exceptions become one BadInput line naming the
    strategy, the exception and its file:line, also inside worker processes."""

    def __init__(self, inner: Any, spec: str, methods: tuple[str, ...]):
        self._inner, self.spec = inner, spec
        for name in methods:
            setattr(self, name, self._guard(name))

    def _guard(self, name: str):
        method = getattr(self._inner, name)

        def call(*args, **kwargs):
            try:
                return method(*args, **kwargs)
            except BadInput:
                raise
            except Exception as exc:
                raise BadInput(f"strategy {short(self.spec)} failed in {name}: {_where(exc)}") from None
        return call

    def __getattr__(self, name: str):       # optional extras (call_end, predict_make, ...)
        return getattr(self._inner, name)


def _load_plugin(path: str, class_name: str, spec: str) -> type:
    file = Path(path)
    if not file.is_file():
        raise BadInput(f"strategy {short(spec)}: no file {short(path)}; accepted: path/to/file.py:ClassName")
    module_name = "moonshot_plugin_" + re.sub(r"\W", "_", str(file.resolve()))
    loader = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(loader)
    try:
        loader.loader.exec_module(module)
    except Exception as exc:   # a user's file: report it in one line
        raise BadInput(f"strategy {short(spec)}: could not load {path}: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        found = ", ".join(n for n, v in vars(module).items() if isinstance(v, type) and v.__module__ == module_name)
        raise BadInput(f"strategy {short(spec)}: {path} has no class {short(class_name)}; classes there: "
                       f"{found or 'none'}")
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
            raise BadInput(f"unknown strategy {short(head)} for {game}; accepted: {', '.join(sorted(known))} "
                           f"or path/to/file.py:ClassName")
    params = {}
    for item in filter(None, param_text.split(",")):
        k, sep, v = item.partition("=")
        if not sep:
            raise BadInput(f"strategy {short(spec)}: parameter {short(item)} is not key=value")
        params[k.strip()] = v.strip()
    obj = _instantiate(cls, params, spec)
    missing = [m for m in required if not callable(getattr(obj, m, None))]
    if missing:
        raise BadInput(f"strategy {short(spec)} has no method {', '.join(missing)}; a {game} strategy needs "
                       f"{', '.join(required)}")
    if head.endswith(".py"):
        optional = [m for m in ("call_end",) if callable(getattr(obj, m, None))]
        return Guarded(obj, spec, tuple(required) + tuple(optional))
    return obj


def adapts(strategy: Any, flag: str) -> bool:
    """Whether `strategy` takes rules flag `flag` into account (its declared ``adapts_to``; a
    strategy that declares nothing is taken to adapt to every rule)."""
    declared = getattr(getattr(strategy, "_inner", strategy), "adapts_to", None)
    return declared is None or flag in declared


@dataclass(frozen=True)
class SeatStrategies:
    """One strategy object per seat plus the specs that made them (for reports and histories)."""
    strategies: tuple
    specs: tuple[str, ...]


def parse_seat_specs(game: str, specs: list[str] | tuple[str, ...], seats: int, default: str,
                     required: tuple[str, ...] = ("play",)) -> SeatStrategies:
    """Turn the repeated `--strategy` values into one strategy per seat.

    A spec without `seat=` sets every seat; `seat=spec` overrides single seats, whatever the order
    they are given in. Two different specs for every seat, or for one seat, are an error. Seats
    with the same spec share one object (the engine then calls it once for all of them).
    """
    everyone: str | None = None
    single: dict[int, str] = {}
    for spec in specs:
        if not spec.strip():          # an empty value (a shell variable unset) would silently mean the default
            raise BadInput(f"--strategy {spec!r} names no strategy; accepted: NAME, SEAT=NAME, NAME:k=v or "
                           "SEAT=file.py:Class (leave --strategy out for the default)")
        seat_text, sep, rest = spec.partition("=")
        if sep and seat_text.strip().isdigit():
            seat = int(seat_text)
            if not 0 <= seat < seats:
                raise BadInput(f"--strategy {short(spec)}: seat {seat} does not exist; accepted seats: 0..{seats - 1}")
            if single.get(seat, rest.strip()) != rest.strip():
                raise BadInput(f"--strategy gives seat {seat} two strategies ({single[seat]!r} and "
                               f"{short(rest.strip())}); accepted: one per seat")
            single[seat] = rest.strip()
        elif sep and ":" not in seat_text and not seat_text.endswith(".py"):
            raise BadInput(f"--strategy {short(spec)}: seat {short(seat_text)} is not a number; accepted: SEAT=NAME, "
                           f"SEAT in 0..{seats - 1}")
        else:
            if everyone not in (None, spec.strip()):
                raise BadInput(f"--strategy gives every seat two strategies ({short(everyone)} and "
                               f"{short(spec.strip())}); accepted: one for every seat, then SEAT=NAME for single seats")
            everyone = spec.strip()
    per_seat = [single.get(s, everyone or default) for s in range(seats)]
    built: dict[str, Any] = {}
    for spec in per_seat:
        if spec not in built:
            built[spec] = make_strategy(game, spec, required)
    return SeatStrategies(tuple(built[s] for s in per_seat), tuple(per_seat))
