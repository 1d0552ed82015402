"""The package list, found rather than written out: the repository root is the `moonshot` package
(pyproject.toml maps it), and every folder under it with an __init__.py is one of its packages, so
a new game, analysis or front end needs no edit here. Everything else is in pyproject.toml."""
from setuptools import find_packages, setup

# Folders of data files (the page's templates and static files) are packages too, with no
# __init__.py: named here so setuptools installs them without its "Package would be ignored" warning
# (pyproject.toml's package-data says which files they hold).
DATA_PACKAGES = ["strategies.models", "web.static", "web.templates"]

setup(packages=["moonshot"] + [f"moonshot.{p}" for p in find_packages(exclude=["tests", "tests.*", "benchmarks",
                                                                             "benchmarks.*", "build", "build.*"])
                               + DATA_PACKAGES])
