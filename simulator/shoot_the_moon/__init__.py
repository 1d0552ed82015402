"""Shoot the Moon (Fundex card game), RULES.md §1."""
