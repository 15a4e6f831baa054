# Arena: `make run` serves the app, `make test` checks all of it, `make check` the quick part (the inner loop).
# Each installs what it needs first.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000
# Python writes bytecode (and pytest its rewritten tests) to __pycache__: every process the tests start would
# otherwise compile the project again, about half of a test process's collection time.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install run test check lint format bench calibrate clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt scripts/find-python scripts/llama-flags scripts/build-llama \
		scripts/build-llama-server
	@python=$$(scripts/find-python) || exit 1; \
	if [[ ! -x $(PY) ]] || ! $(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)'; then \
		echo "Creating $(VENV) with $$python"; rm -rf $(VENV); "$$python" -m venv $(VENV) || exit 1; \
	fi
	@# llama.cpp from our own portable build (no host-only instructions, no AMX), never pip's native one.
	@wheels=$$(scripts/build-llama $(PY)) || exit 1; \
	$(PY) -m pip install --disable-pip-version-check -q --no-deps --force-reinstall "$$wheels"/llama_cpp_python-*.whl && \
	$(PY) -m pip install --disable-pip-version-check -q --find-links "$$wheels" -r requirements-dev.txt
	@# llama.cpp's own server for the local models (several games at once), from the same source and flags.
	@server=$$(scripts/build-llama-server $(PY)) || exit 1; install -m 755 "$$server" $(VENV)/bin/llama-server
	@touch $@

run: install
	$(MANAGE) migrate --noinput
	$(MANAGE) seed
	$(MANAGE) collectstatic --noinput -v0
	@# One embedded worker: whatever was running when the last one stopped is orphaned.
	$(MANAGE) resume_matches --stale-after 0
	@HOST=$(HOST) PORT=$(PORT) scripts/serve

test: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest

# Lint, the contracts and every test not marked slow, browser or scaleout (those run in `make test` and CI), on
# three workers: two cores, and a third for the tests that wait on a socket or a deadline (every worker more
# collects the suite once more).
check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n 3 -m "not slow and not browser and not scaleout"

lint: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

calibrate: install
	$(MANAGE) calibrate_ladder

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
