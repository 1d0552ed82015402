"""Pluggable players: base.py (protocol, registry, spec parsing) and one module per game."""
