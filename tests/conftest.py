"""Settings for the whole test session."""
import gc

from hypothesis import settings

from tests.budget import THOROUGH

# Property tests: hypothesis's default 100 examples in CI (a test may ask for fewer by its own
# @settings(max_examples=budget.size(ci, thorough))), 1,000 with MOONSHOT_THOROUGH=1.
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=1_000, deadline=None)
settings.load_profile("thorough" if THOROUGH else "ci")


def pytest_collection_finish(session):
    """Everything collecting imported (numpy, pandas, numba, dask, matplotlib, ...: ~265,000 objects)
    lives to the end: take it out of the garbage collector's walks. pytest closes with two full gc
    passes over it (0.9-1.9 s measured on this 2-core machine, more when it is busy), and execnet
    sends a pytest-xdist worker still closing 5 s after it was told to exit a SIGINT: the likely
    source of the KeyboardInterrupt seen at the end of `make test` as a
    PytestUnraisableExceptionWarning (a KeyboardInterrupt landing in a finalizer run by that gc).
    Frozen, the close takes 0.01 s."""
    gc.collect()
    gc.freeze()


# The longest tests (a few whole reports, ~10-20 s each on an idle core) start first: sent in collection
# order, they would start late and leave one xdist worker running them alone at the end. Modules move
# whole (a module's fixtures are set up once), in their own order otherwise.
FIRST = ("test_reports.py",)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.path.name not in FIRST)
