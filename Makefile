# The two commands a user needs: `make book` and `make test`. Both create the Python
# environment first if it is missing (or if the pinned requirements changed).

SHELL      := /bin/bash
PYTHON     ?= python3
VENV       ?= .venv
PY         := $(VENV)/bin/python
STAMP      := $(VENV)/.pins-installed
PAPER      ?= all
EXPERIMENT ?=
JOBS       ?= 2
SCHEDULER  ?=

# Python caches compiled modules (__pycache__, in .venv and beside the sources; git ignores them).
# An environment that sets PYTHONDONTWRITEBYTECODE (some CI images do) would make every process
# compile numpy, scipy, matplotlib, numba and bandit_lib from source again, and pytest re-rewrite
# every test module in each worker: about 5 s of CPU per process, and make test starts dozens
# (workers, notebook kernels, the subprocesses of the stop/resume and store scenarios).
unexport PYTHONDONTWRITEBYTECODE

# OpenBLAS's kernels and numpy's SIMD loops pinned to a baseline every x86-64 CPU runs, so that a
# result is the same on any of them (bandit_lib/infra/kernels.py, whose PIN these must equal:
# tests/test_kernels.py; `python -m bandit_lib.reproduce` pins itself).
KERNELS    := $(if $(filter x86_64 amd64,$(shell uname -m)),OPENBLAS_CORETYPE=Nehalem NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL AVX512_SPR")

# The book is drawn from the paper-scale results cached in data/results/.
# Chapters publish their scorecards into the build for the verdicts page (book/verdicts.md), which
# Sphinx reads after the notebooks (it reads pages in sorted order; the folder goes with the build).
BOOK_ENV   := $(KERNELS) BANDIT_PROFILE=full BANDIT_PROGRESS=0 BANDIT_SCORECARDS=$(CURDIR)/book/_build/scorecards
# Tests run every notebook in the quick profile against a throw-away result store. BLAS at one
# thread: two pytest workers already fill two cores, and OpenBLAS's threads on the tiny vectors of
# scipy's optimisers (L-BFGS-B, SLSQP) then wait for each other: the window yardstick took 35 s with
# two threads per process and 1 s with one, on a loaded 2-core machine (the same numbers either way).
SINGLE_BLAS := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
TEST_ENV   := BANDIT_PROFILE=quick BANDIT_PROGRESS=0 $(SINGLE_BLAS) $(KERNELS)

.PHONY: all book test test-slow test-lib test-notebooks fuzz lab chapter data reproduce check bench check-book sync lock env clean distclean help

help:
	@echo "make book        build the book into book/_build/html (notebooks run from cached results)"
	@echo "make test        unit, property and statistical tests and nbval on every notebook (quick profile), in one session (< 7 min)"
	@echo "make test-slow   the tests marked slow (long equivalence and statistical cases); CI runs it"
	@echo "make reproduce   recompute cached results at paper scale [PAPER=<key>|all] [EXPERIMENT=<name>] [JOBS=n] [SCHEDULER=tcp://host:port]"
	@echo "make check       is every cached result present and fresh? one line per experiment, a total and a verdict [PAPER=<key>]"
	@echo "make fuzz        property tests with random examples, ROUNDS times (failures saved to tests/hypothesis-examples)"
	@echo "make data        fetch and check polblogs into data/raw (or POLBLOGS=<local .gml or .zip>)"
	@echo "make lab         JupyterLab on 127.0.0.1, in notebooks/: each chapter's .md opens as a notebook [CHAPTER=<key>: opens make chapter's output]"
	@echo "make chapter     run one chapter: CHAPTER=<key> [PROFILE=quick|full], into build/chapters/<profile>/<key>.ipynb and .html"
	@echo "make bench       performance benchmarks (reference vs fast engines)"
	@echo "make check-book  check the built book in headless Chromium (needs Debian's chromium: apt-get install chromium)"
	@echo "make sync        regenerate notebooks/*.ipynb from their MyST sources"
	@echo "make env         create .venv with the pinned requirements and bandit_lib installed (editable); every target does it first"
	@echo "make lock        pin requirements.in into requirements.txt and environment.yml, keeping current pins [UPGRADE=1]"
	@echo "make clean       remove build outputs and caches (keeps .venv and data/results)"

env: $(STAMP)

# Idempotent bootstrap, redone whenever the pins or the package metadata change. pip installs only
# uv (pinned in requirements.txt), which installs the pins: pip took 106 s on a 2-core machine, uv
# about 10 s (it downloads and unpacks in parallel). Python 3.11.5 to
# 3.13 are supported (the pins install, and the fingerprints of bandit_lib/infra/fingerprint.py are
# the same under each); another version is refused before anything is installed.
$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -c 'import sys; v = sys.version_info; sys.exit(0 if (3, 11, 5) <= v[:3] and v[:2] <= (3, 13) else \
		"$(PYTHON) is Python %d.%d.%d; this project needs Python 3.11.5 or later, 3.12 or 3.13: run make PYTHON=python3.11 ..." % v[:3])'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check $$(grep '^uv==' requirements.txt)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -r requirements.txt
	$(VENV)/bin/uv pip install --quiet --python $(PY) --no-deps -e .
	@touch $@

# jupyter-cache keys a notebook on its code only, and Sphinx re-reads only changed sources. A
# notebook's outputs also depend on the cached results, the library and the execution environment
# (this Makefile, the book's configuration, the pins), so the whole build (execution cache and
# doctrees) is dropped whenever any of them changes. The chapters count too: the verdicts page is
# drawn from the scorecards they publish while they run, and Sphinx would not re-read it alone.
BOOK_INPUTS = { find data/results bandit_lib notebooks -type f \( -name '*.json' -o -name '*.py' -o -name '*.md' \) -print0; \
	printf '%s\0' Makefile book/_config.yml requirements.txt; } | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16

# The book never starts a long computation unannounced: with results missing or stale it stops
# before running any notebook and says what to run, unless BOOK_COMPUTE=1 (then `make reproduce`
# computes them first, with progress).
BOOK_COMPUTE ?=
book: $(STAMP)
	@if ! BANDIT_PROFILE=full $(PY) -m bandit_lib.reproduce --pending; then \
		if [ -n "$(BOOK_COMPUTE)" ]; then $(MAKE) --no-print-directory reproduce BANDIT_PROFILE=full; else exit 3; fi; fi
	@mkdir -p book/_build
	@inputs=$$($(BOOK_INPUTS)); if [ "$$(cat book/_build/.inputs 2>/dev/null)" != "$$inputs" ]; then \
		echo "results, library or build environment changed: rebuilding the book from scratch"; \
		rm -rf book/_build; mkdir -p book/_build; fi
	$(BOOK_ENV) $(VENV)/bin/jupyter-book build book --path-output book --warningiserror --keep-going
	@$(BOOK_INPUTS) > book/_build/.inputs

LINTED := bandit_lib tests tools benchmarks
# Each notebook runs whole on one worker (--dist loadfile), its cells in order, in the quick profile.
NBVAL  := -p no:randomly --nbval-lax --nbval-current-env --nbval-cell-timeout=600
PYTEST := $(TEST_ENV) BANDIT_RESULTS=$$(mktemp -d) BANDIT_USER_RESULTS=$$(mktemp -d) $(PY) -m pytest -n 2 --dist loadfile --durations=10
# Before the tests: the linter, then numba's largest kernels compiled once (tests/precompile.py).
define LINT_AND_PRECOMPILE
$(VENV)/bin/ruff check $(LINTED)
$(VENV)/bin/ruff format --check $(LINTED)
$(TEST_ENV) $(PY) tests/precompile.py --jobs 2
endef

# The tests and the notebooks in one pytest session, notebooks first: loadfile hands files to the
# two workers in the order given, so the longest files (the notebooks, 15-40 s each) start first and
# the short test files fill the gaps, where two sessions each ended on one busy worker (a fresh
# clone: 270 s + 89 s as two sessions; the same work as one, warm, 288 s against 334 s).
# Tests marked `slow` (the long statistical and engine-equivalence cases) are left to
# `make test-slow`, which CI runs after `make test`: make test stays within 7 minutes.
test: $(STAMP)
	$(LINT_AND_PRECOMPILE)
	$(PYTEST) $(NBVAL) -m "not slow" notebooks tests

test-slow: $(STAMP)
	$(PYTEST) -m slow tests

test-lib: $(STAMP)
	$(LINT_AND_PRECOMPILE)
	$(PYTEST) tests

test-notebooks: $(STAMP)
	$(PYTEST) $(NBVAL) notebooks

# Property tests with fresh random examples, ROUNDS times (`make test` is seeded and never varies).
# A failing example is saved to tests/hypothesis-examples: commit it (make test replays it) and
# turn it into an explicit test.
ROUNDS ?= 5
fuzz: $(STAMP)
	for round in $$(seq $(ROUNDS)); do \
		$(TEST_ENV) HYPOTHESIS_PROFILE=fuzz BANDIT_RESULTS=$$(mktemp -d) $(PY) -m pytest -q -o addopts="-ra --strict-markers" \
			-n 2 --dist loadfile -m "not slow" tests || exit 1; done

# The real data sets the repository may not commit (polblogs), fetched and checked into data/raw.
POLBLOGS ?=
data: $(STAMP)
	$(PY) tools/data.py $(if $(POLBLOGS),--polblogs $(POLBLOGS))

# JupyterLab from the project's environment; chapters (notebooks/*.md) open as notebooks (jupytext),
# their MyST rendered (jupyterlab-myst). CHAPTER=<key> opens what `make chapter` wrote for PROFILE
# (the chapter's source if it has not run yet).
CHAPTER ?=
PROFILE ?= quick
lab: $(STAMP)
	$(PY) tools/lab.py $(if $(CHAPTER),--chapter $(CHAPTER) --profile $(PROFILE))

# One chapter, executed in the quick profile (small instances, under a minute) or PROFILE=full (the
# cached results), into build/chapters/<profile>/<key>.ipynb and its HTML page <key>.html: each
# profile has its own folder, and the repository's paired notebook is untouched.
CHAPTER_OUT = build/chapters/$(PROFILE)
chapter: $(STAMP)
	@test -f notebooks/$(CHAPTER).md || { echo "usage: make chapter CHAPTER=<key> [PROFILE=quick|full]; keys: $$(cd notebooks && ls *.md | sed 's/\.md//' | tr '\n' ' ')"; exit 2; }
	@case "$(PROFILE)" in quick|full) ;; *) echo "PROFILE must be quick or full; got PROFILE=$(PROFILE)"; exit 2;; esac
	@mkdir -p $(CHAPTER_OUT)
	$(KERNELS) BANDIT_PROFILE=$(PROFILE) $(VENV)/bin/jupytext --to ipynb --execute notebooks/$(CHAPTER).md -o $(CHAPTER_OUT)/$(CHAPTER).ipynb
	$(VENV)/bin/jupyter nbconvert --log-level WARN --to html $(CHAPTER_OUT)/$(CHAPTER).ipynb --output-dir $(CHAPTER_OUT)
	@echo "wrote $(CHAPTER_OUT)/$(CHAPTER).ipynb (open it with: make lab CHAPTER=$(CHAPTER) PROFILE=$(PROFILE)) and $(CHAPTER_OUT)/$(CHAPTER).html (open it in a browser)"

reproduce: $(STAMP)
	BANDIT_PROFILE=$(or $(BANDIT_PROFILE),full) $(PY) -m bandit_lib.reproduce --paper $(PAPER) --jobs $(JOBS) \
		$(if $(EXPERIMENT),--experiment $(EXPERIMENT)) $(if $(SCHEDULER),--scheduler $(SCHEDULER))

check: $(STAMP)
	$(PY) -m bandit_lib.reproduce --check --profile full --paper $(PAPER)

bench: $(STAMP)
	$(PY) -m benchmarks

check-book: $(STAMP)
	$(PY) tools/check_book.py book/_build/html

sync: $(STAMP)
	$(VENV)/bin/jupytext --to ipynb --update notebooks/*.md

lock:
	$(PYTHON) tools/lock.py $(if $(UPGRADE),--upgrade)

clean:
	rm -rf book/_build .cache .pytest_cache .hypothesis build *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -print0 | xargs -0 rm -rf

distclean: clean
	rm -rf $(VENV)
