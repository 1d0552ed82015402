# The README's commands. Everything runs inside .venv, created on first use.
PY := .venv/bin/python
OUT ?= out/shoot-the-moon
HANDS ?= 100000     # make run: the Shoot the Moon report at half its default size, ~59 CPU-s (35 s on 2 cores, measured in a fresh clone)

.PHONY: run test bench clean

.venv/.installed: pyproject.toml setup.py
	python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	-$(PY) -m moonshot.compile   # every game's numba kernels, once, so later commands and tests load them (a failure only costs time)
	touch $@

run: .venv/.installed
	.venv/bin/moonshot report shoot-the-moon --out $(OUT) --hands $(HANDS) --jobs -1

test: .venv/.installed
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2

bench: .venv/.installed
	$(PY) benchmarks/bench.py
	$(PY) benchmarks/review_bench.py   # a hand reviewed on one core (<= 2 s), a 200-hand session on 2 (<= 3 min)
	$(PY) benchmarks/variance_bench.py --games 2000 --deals 10000   # the luck covariate's narrower intervals

clean:
	rm -rf .venv out .pytest_cache
