# Quick start:  make        (creates .venv, installs, builds every artifact into build/)
#               make test   (the whole test suite)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: all build test test-slow clean

all: build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

build: $(STAMP)
	$(BIN)/asm6502 sources/superhirn.asm -o build/superhirn.prg \
	    --listing build/superhirn.lst --labels build/superhirn.labels

test: $(STAMP)
	$(BIN)/python -m pytest -q

# long runs (full Superhirn sweep, long fuzzing profile)
test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis
