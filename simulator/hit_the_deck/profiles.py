"""Per-seat reaction profiles of the slap model (RULES.md §C.14, §C.16 P5, P6, P9).

A profile carries the 14 parameters named in P9 (times in ms, probabilities in 0..1).
``judge_window`` and ``p_notice`` belong to the table (flags ``htd.judge_window``, ``htd.p_notice``),
not to a profile (P5). The ``off`` profile is perfect reflexes (P6): all parameters are None.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from moonshot.simulator.errors import BadInput, short

PARAMS = ("mu", "sigma", "tau", "mu_self", "sigma_self", "tau_self", "move_mu", "move_sd",
          "p_lapse", "lapse_mean", "p_forget", "q_htd", "q_word", "q_number")
_PROBABILITIES = {"p_lapse", "p_forget", "q_htd", "q_word", "q_number"}


@dataclass(frozen=True)
class Profile:
    name: str
    mu: float | None = None
    sigma: float | None = None
    tau: float | None = None
    mu_self: float | None = None
    sigma_self: float | None = None
    tau_self: float | None = None
    move_mu: float | None = None
    move_sd: float | None = None
    p_lapse: float | None = None
    lapse_mean: float | None = None
    p_forget: float | None = None
    q_htd: float | None = None
    q_word: float | None = None
    q_number: float | None = None

    @property
    def off(self) -> bool:
        return self.mu is None

    def as_dict(self) -> dict:
        """The HISTORY.md ``reaction`` entry: ``{"profile": NAME, every P9 parameter}``."""
        if self.off:
            return {"profile": "off"}
        return {"profile": self.name, **{p: _json_number(getattr(self, p)) for p in PARAMS}}

    def provenance(self) -> str:
        """Where the profile's numbers come from, in words: RULES.md C.14's named profiles are
        placeholders to be calibrated; the Play page's fit to a person's slaps changes only mu, sigma
        and tau and sets move_mu and move_sd to 0 (page.fit_profile); other parameters are as given."""
        if self.off:
            return "perfect reflexes (the reaction model off)"
        base = PROFILES[self.name]
        changed = [p for p in PARAMS if getattr(self, p) != getattr(base, p)]
        rest = f"the rest {self.name}'s placeholders from RULES.md C.14, not calibrated"
        if not changed:
            return "a placeholder profile from RULES.md C.14, not calibrated"
        if set(changed) <= {"mu", "sigma", "tau", "move_mu", "move_sd"} and self.move_mu == 0 == self.move_sd:
            return f"mu, sigma and tau fitted from your slaps (the Play page's fit), {rest}"
        return f"{', '.join(changed)} as given, {rest}"

    def spec(self) -> str:
        """A spec that parse_profile turns back into this profile."""
        if self.off:
            return "off"
        base = PROFILES[self.name]
        changed = [f"{p}={_json_number(getattr(self, p))}" for p in PARAMS
                   if getattr(self, p) != getattr(base, p)]
        return self.name + (":" + ",".join(changed) if changed else "")


def _json_number(x: float):
    return int(x) if float(x).is_integer() else x


def _profile(name, mu, sigma, tau, mu_self, sigma_self, tau_self, move_mu, move_sd,
             p_lapse, lapse_mean, p_forget, q_htd, q_word, q_number) -> Profile:
    values = (mu, sigma, tau, mu_self, sigma_self, tau_self, move_mu, move_sd,
              p_lapse, lapse_mean, p_forget, q_htd, q_word, q_number)
    return Profile(name, *(float(v) for v in values))


# RULES.md §C.14 "Default parameter profiles" (placeholders to be calibrated)
PROFILES: dict[str, Profile] = {
    "adult": _profile("adult", 300, 40, 80, 50, 30, 50, 200, 50, 0.02, 800, 0.05, 0.03, 0.005, 0.002),
    "child": _profile("child", 420, 60, 150, 100, 50, 100, 280, 70, 0.08, 1200, 0.15, 0.10, 0.02, 0.01),
    "distracted": _profile("distracted", 320, 50, 200, 60, 30, 80, 200, 50, 0.10, 1500, 0.12, 0.04, 0.01,
                           0.005),
    "off": Profile("off"),
}
ACCEPTED = ("adult, child, distracted or off, optionally with parameters as in "
            "adult:mu=250,tau=60 (parameters: " + ", ".join(PARAMS) + ")")


MAX_MS = 60_000          # a reaction time or spread past a minute is no hand-slap race


def parse_profile(spec: str) -> Profile:
    """``"child"`` or ``"adult:mu=250,tau=60"``; BadInput naming an unknown profile or parameter,
    or a bad value (negative, or a probability outside 0..1)."""
    if not isinstance(spec, str):
        raise BadInput(f"reaction profile {short(spec)} is not text; accepted: {ACCEPTED}")
    name, sep, rest = spec.strip().partition(":")
    name = name.strip().lower()
    base = PROFILES.get(name)
    if base is None:
        raise BadInput(f"unknown reaction profile {short(name)} in {short(spec)}; accepted: {ACCEPTED}")
    if not sep:
        return base
    if base.off:
        raise BadInput(f"profile off takes no parameters (in {short(spec)}); accepted: off")
    changes = {}
    for item in rest.split(","):
        key, eq, text = item.partition("=")
        key = key.strip()
        if key not in PARAMS:
            raise BadInput(f"unknown profile parameter {short(key)} in {short(spec)}; accepted: {', '.join(PARAMS)}")
        plain = eq and re.fullmatch(r"[0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9}", text.strip())  # float() takes "1_000"
        value = float(text) if plain else float("nan")
        bad = not value >= 0 or value > (1 if key in _PROBABILITIES else MAX_MS)
        if bad:
            accepted = "a probability 0..1" if key in _PROBABILITIES else f"a number 0..{MAX_MS:,} (ms)"
            raise BadInput(f"bad value {short(text.strip())} for profile parameter {key} in {short(spec)}; "
                           f"accepted: {accepted}")
        changes[key] = value
    return dataclasses.replace(base, **changes)


_SEAT_SPEC = re.compile(r"^\s*(\d+)\s*=(.*)$")


def reaction_in_force(reaction: str, specs) -> str:
    """The htd.reaction in force: the last profile given for every seat (a spec without ``SEAT=``)
    replaces the rule's, so records and meta name what every seat played with."""
    if isinstance(specs, str):
        specs = [specs]
    for spec in specs:
        if isinstance(spec, str) and not _SEAT_SPEC.match(spec):
            reaction = parse_profile(spec).spec()
    return reaction


def seat_profiles(specs, players: int, default: str = "adult") -> tuple[Profile, ...]:
    """One profile per seat: ``default`` everywhere, then each spec without ``SEAT=`` for every
    seat, then each ``SEAT=spec`` for that seat (so a seat override wins whatever the order)."""
    if isinstance(specs, str):
        specs = [specs]
    out = [parse_profile(default)] * players
    seat_specs = []
    for spec in specs:
        m = _SEAT_SPEC.match(spec) if isinstance(spec, str) else None
        if m:
            seat_specs.append((int(m.group(1)), m.group(2), spec))
        else:
            out = [parse_profile(spec)] * players
    for seat, rest, spec in seat_specs:
        if not 0 <= seat < players:
            raise BadInput(f"seat {seat} in profile {short(spec)} is not a seat; accepted: 0..{players - 1}")
        out[seat] = parse_profile(rest)
    return tuple(out)
