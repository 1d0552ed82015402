"""How hard the randomised tests try. By default (CI, `make test`) each runs at a size that keeps the
whole suite near a minute on 2 cores; MOONSHOT_THOROUGH=1 runs each at its thorough size, and
hypothesis at its `thorough` profile (registered in tests/conftest.py)."""
import os

THOROUGH = os.environ.get("MOONSHOT_THOROUGH", "") not in ("", "0")


def size(ci: int, thorough: int) -> int:
    """A randomised test's number of examples (positions, hands, ...): `ci` by default, `thorough`
    with MOONSHOT_THOROUGH=1."""
    return thorough if THOROUGH else ci
