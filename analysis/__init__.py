"""Odds tables, values of cards and choices, strategy matches, rules what-ifs and the shared verbs."""
