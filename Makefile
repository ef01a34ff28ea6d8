# Quick start:  make        (creates .venv, installs, builds every artifact into build/)
#               make test   (the whole test suite)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: all build test test-slow lint bench clean

# measured: see README, "Long runs and benchmarks"
SLOW_NOTE := about 40 minutes on 2 cores (measured in parts: 32 min for the sweep/fuzz/differential runs, 218 s disassembler, 64 s converter round trips); each test is listed when it ends, the slowest at the end

all: build

# (PYTHONWARNINGS hides the notice that setuptools prints at every editable install, 8 lines)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# every artifact declared in build.yaml (asm6502 build --check compares instead of writing)
build: $(STAMP)
	$(BIN)/asm6502 build build.yaml

# The suite on every core (pytest-xdist), with byte-code cached in .venv even where
# PYTHONDONTWRITEBYTECODE is set: the suite starts asm6502 some thousand times, and compiling the
# package each time was a third of its time.  Work stealing: each worker takes one half of the
# tests in their order (a module's tests stay together, its module fixtures made once), and a
# worker done early takes over half of what the other still has.  What several modules share (the
# copy README.md's commands ran in, the readings of real print) is made once for all workers
# (tests/helpers.py, once_for_the_run).
TEST_ENV := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache

test: $(STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist worksteal

# ruff and mypy on the package (settings in pyproject.toml; tests/test_lint.py runs them too)
lint: $(STAMP)
	$(BIN)/python -m ruff check asm6502
	$(BIN)/python -m mypy

# long runs (full Superhirn sweep, long fuzzing profile)
test-slow: $(STAMP)
	@echo "test-slow: $(SLOW_NOTE)"
	$(TEST_ENV) $(BIN)/python -m pytest -m slow -v --durations=0

# asm6502 against 64tass, ACME and Ophis, measured in the same run (a few minutes; see bench/README.md).
# Ophis is the benchmark's peer, not a project dependency: installed into .venv here only.
OPHIS := ophis-asm==2.3.0
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet '$(OPHIS)'
	$(BIN)/python bench/bench_assemblers.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
