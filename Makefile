# iaa-teach: set-up, tests and notebook upkeep. `make help` lists the targets.
# Everything runs inside ./.venv; nothing is installed or registered globally.

PYTHON ?= python3
VENV = .venv
BIN = $(VENV)/bin
# Two installs: the lessons' (jupyterlab, jupytext, the package) for `make lab`,
# and the whole tool chain (pytest, hypothesis, nbval, playwright...) for `make test`.
LAB_STAMP = $(VENV)/.installed-lab
STAMP = $(VENV)/.installed
LOCK_VENV = .lock-venv
PIP_QUIET = --quiet --disable-pip-version-check --no-input

NOTEBOOKS = $(wildcard notebooks/*.ipynb)
BENCHMARKS = $(wildcard benchmarks/*.py)

PYTEST_FLAGS = -p no:cacheprovider
PYTEST_ARGS ?=
LAB_ARGS ?=
# the folder JupyterLab opens on (`make lab LAB_ROOT=student` for the student copies)
LAB_ROOT ?= notebooks
# where `make student` writes the student copies (git-ignored)
STUDENT_DIR ?= student
# Jupyter refuses to run as root without this (containers, CI machines).
ALLOW_ROOT = $(if $(filter 0,$(shell id -u)),--allow-root)

.DEFAULT_GOAL := help
.PHONY: help setup lab test sync student book book-pdf bench lock clean

help:
	@echo "make lab     install what the lessons need into .venv (once), then start JupyterLab"
	@echo "             on notebooks/ (open 00_start_here.ipynb)"
	@echo "make student write student copies of the notebooks, worked answers removed, to student/"
	@echo "make test    install the test tool chain too (once), then pytest (tests/, doctests,"
	@echo "             notebook sync gate) and nbval on notebooks/*.ipynb"
	@echo "make book    the whole course as a static HTML book in build/book/ (open index.html),"
	@echo "             from the notebooks' stored outputs, offline"
	@echo "make book-pdf the whole book as one PDF, build/book.pdf (printed by headless Chromium)"
	@echo "make sync    after editing notebooks/py/*.py: sync each pair and re-execute the .ipynb"
	@echo "             (NB=03_krippendorff_alpha for one notebook)"
	@echo "make bench   run benchmarks/*.py"
	@echo "make lock    re-resolve the dependencies into constraints.txt"
	@echo "make clean   remove .venv and caches"

# Set-up: a project venv, reinstalled when pyproject.toml or constraints.txt change.
# Both installs also write this environment's JupyterLab defaults (no news prompt):
# {sys.prefix}/share/jupyter/lab/settings/overrides.json, see tools/lab_settings.py.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install $(PIP_QUIET) --upgrade pip

$(LAB_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing the lessons' packages into .venv (once; a minute or two)..."
	@$(BIN)/python -m pip install $(PIP_QUIET) -c constraints.txt -e ".[notebooks]"
	@$(BIN)/python -m tools.lab_settings
	@touch $@

$(STAMP): pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing the package, the lessons' and the test tool chain into .venv (once)..."
	@$(BIN)/python -m pip install $(PIP_QUIET) -c constraints.txt -e ".[dev]"
	@$(BIN)/python -m tools.lab_settings
	@touch $@ $(LAB_STAMP) $(BOOK_STAMP)

# Test-only oracles installed without their dependencies: irrCAC 0.4 pins pandas < 3
# and scipy == 1.12, older than the tested environment; what it imports (numpy,
# pandas, scipy) is already there. The stamp names the version, so a new pin reinstalls.
ORACLES = irrCAC==0.4.4
ORACLE_STAMP = $(VENV)/.oracles-$(subst ==,-,$(ORACLES))
$(ORACLE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps $(ORACLES)
	touch $@

setup: $(STAMP) $(ORACLE_STAMP)

lab: $(LAB_STAMP)
	@mkdir -p $(LAB_ROOT)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(LAB_ROOT) $(ALLOW_ROOT) $(LAB_ARGS)

# Student copies: every cell tagged "solution" emptied, every output cleared
# (`iaa-teach lessons DIR --student`, iaa_teach/lesson_copies.py). Open them with `make lab LAB_ROOT=student`.
student: $(LAB_STAMP)
	@$(BIN)/iaa-teach lessons $(STUDENT_DIR) --student --replace

# The static book: Sphinx + myst-nb + sphinx-book-theme ([book] extra, also in [dev]) read the
# committed outputs (nothing is executed) and write build/book/ (tools/book.py, book/conf.py).
BOOK_STAMP = $(VENV)/.installed-book
BOOK_DIR ?= build/book
$(BOOK_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing the book's packages into .venv (once)..."
	@$(BIN)/python -m pip install $(PIP_QUIET) -c constraints.txt -e ".[book]"
	@touch $@

book: $(BOOK_STAMP)
	$(BIN)/python -m tools.book $(BOOK_DIR)

# The whole book as one PDF: the built site's pages in order, printed by headless Chromium
# (as the worksheets are; no LaTeX), with a contents page and page numbers. Needs chromium,
# and poppler-utils' pdftotext for the contents' page numbers.
BOOK_PDF ?= build/book.pdf
book-pdf: book
	$(BIN)/python -m tools.book --pdf $(BOOK_DIR) $(BOOK_PDF)

# 0. ruff: lint and format checks ([tool.ruff] in pyproject.toml; `ruff format .` fixes the layout).
# 1. pytest with no arguments: tests/ (including the notebook sync gate in
#    tests/test_notebooks_meta.py) and the doctests of iaa_teach/.
# 2. nbval re-runs every committed notebook and compares outputs. MPLBACKEND is
#    unset: Agg would drop the stored figure outputs and fail every plot cell.
test: $(STAMP) $(ORACLE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest $(PYTEST_FLAGS) $(PYTEST_ARGS)
ifneq ($(NOTEBOOKS),)
	env -u MPLBACKEND $(BIN)/python -m pytest $(PYTEST_FLAGS) \
	    --nbval --nbval-current-env --nbval-sanitize-with .ci/nbval_sanitize.cfg \
	    $(NOTEBOOKS)
else
	@echo "make test: no notebooks/*.ipynb yet, nbval skipped"
endif

# The .py is the source: notebooks/py/NN_topic.py is paired with notebooks/NN_topic.ipynb
# (notebooks/jupytext.toml). For each pair:
# 1. `jupytext --sync`: inputs from the newer file, stored outputs kept (an
#    .ipynb without a .py gets one). --set-kernel python3 records the venv's
#    kernel in both files; without a kernelspec `jupytext --execute` (the
#    pre-commit hook) refuses to run.
# 2. `jupytext --to ipynb --update X.py`: rewrites the .ipynb's jupytext metadata
#    from the .py header. Needed for a .py written without a header: jupytext 1.19
#    then stores notebook_metadata_filter "-all" in the .ipynb and the sync gate
#    (`jupytext --to py:percent -o - X.ipynb`) drops the header the .py has.
# 3. re-execute the .ipynb in place, in notebooks/, then write the .py back from it
#    (same cells; only the .ipynb's sorted cell-metadata order is taken). nbconvert rather than
#    `jupytext --update --execute`: in jupytext 1.19 that writes the OLD outputs
#    back over the fresh ones. record_timing=False keeps cell metadata stable;
#    store_widget_state=False keeps widget snapshots (PNG bytes) out of the file; a snapshot an
#    older run left in the metadata (the quiz's old HTML) is removed, as nbconvert keeps it.
# NB=NN_topic syncs and executes that one notebook only.
NB ?= *
sync: $(STAMP)
	@set -e; for f in notebooks/py/$(NB).py notebooks/$(NB).ipynb; do \
	    [ -e "$$f" ] || continue; \
	    case "$$f" in *.ipynb) b=$$(basename "$$f" .ipynb); [ -e "notebooks/py/$$b.py" ] && continue;; esac; \
	    $(BIN)/jupytext --quiet --sync --set-kernel python3 "$$f"; \
	done
	@set -e; for py in notebooks/py/$(NB).py; do \
	    [ -e "$$py" ] || { echo "make sync: no notebooks/py/$(NB).py"; break; }; \
	    nb="notebooks/$$(basename "$$py" .py).ipynb"; \
	    $(BIN)/jupytext --quiet --to ipynb --update -o "$$nb" "$$py"; \
	    echo "executing $$nb"; \
	    env -u MPLBACKEND $(BIN)/jupyter nbconvert --log-level=WARN \
	        --to notebook --execute --inplace \
	        --ExecutePreprocessor.timeout=600 \
	        --ExecutePreprocessor.record_timing=False \
	        --ExecutePreprocessor.store_widget_state=False \
	        "$$nb"; \
	    $(BIN)/python -c 'import sys, nbformat; nb = nbformat.read(sys.argv[1], 4); \
	        nb.metadata.pop("widgets", None); nbformat.write(nb, sys.argv[1])' "$$nb"; \
	    $(BIN)/jupytext --quiet --to py:percent -o "$$py" "$$nb"; \
	done

bench: $(STAMP)
ifeq ($(BENCHMARKS),)
	@echo "make bench: no benchmarks/*.py yet"
else
	@set -e; for b in $(BENCHMARKS); do \
	    echo "== $$b"; $(BIN)/python "$$b"; \
	done
endif

# Resolve pyproject.toml afresh (newest versions allowed by its ranges) in a
# throwaway venv, and write the result to constraints.txt, keeping its header.
# Then review `git diff constraints.txt` and run `make test`.
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install -e ".[dev]"
	awk '/^#/ {print; next} {exit}' constraints.txt > constraints.txt.new
	$(LOCK_VENV)/bin/python -m pip freeze --exclude-editable >> constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCK_VENV)
	@echo "constraints.txt regenerated: review the diff, then run make test"

clean:
	rm -rf $(VENV) $(LOCK_VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
