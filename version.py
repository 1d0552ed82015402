"""moonshot's version (pyproject.toml reads it from here); CHANGELOG.md says what each one changed."""
__version__ = "0.2.0"
