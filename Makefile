# Kaiser Club. The two commands a new machine needs: `make demo` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?= --reuse-db

.PHONY: demo test test-all install migrate demodata serve lint typecheck check bench worker beat clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip wheel

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

demodata: migrate
	$(PY) manage.py load_demo --base-url http://$(HOST):$(PORT)/

# The server, a Celery worker and beat (the clock sweep, PDFs off the request) on a broker kept
# in files: nothing more to install. It says the address once it answers; Ctrl-C stops all three.
serve: install
	$(PY) manage.py serve_demo $(HOST):$(PORT)

## Virtual environment, install, SQLite, demo data, and the app on http://127.0.0.1:8000
## (another port: make demo PORT=8001; another address: make demo HOST=0.0.0.0)
demo: demodata serve

# The suite runs on TEST_WORKERS processes (pytest-xdist), each with its own test database:
# many tests wait on a browser, a server, a worker or a subprocess rather than compute.
# The everyday suite is spread test by test (--dist worksteal: an idle worker takes tests from
# the busy one); the slow part keeps a module's tests on one worker (--dist loadscope), so a
# module-scoped fixture (the production stack, every page swept in the browser) is built once.
# TEST_WORKERS=0 runs everything in this one process.
TEST_WORKERS ?= 2
# What the everyday loop leaves to test-all: the browser sweeps, whole stacks, broken
# services, and the long fuzz and property runs (pyproject.toml names each marker).
SLOW_MARKERS := browser or stack or fault or long
PYTEST := DJANGO_SETTINGS_MODULE=kaiser_club.settings.test $(PY) -m pytest -n $(TEST_WORKERS)
EVERYDAY := $(PYTEST) --dist worksteal -m "not ($(SLOW_MARKERS))"
SLOW := $(PYTEST) --dist loadscope -m "$(SLOW_MARKERS)"

## The everyday suite, a few minutes (DATABASE_URL=postgres://... runs it on PostgreSQL, as
## production and CI do; without it, SQLite)
test: install
	$(EVERYDAY) $(PYTEST_ARGS)

## The everyday suite, then the browser sweeps, the stacks, the fault and the long fuzz tests
## (both run whatever the first says; the target fails if either does)
test-all: install
	status=0; \
	$(EVERYDAY) $(PYTEST_ARGS) || status=$$?; \
	$(SLOW) $(PYTEST_ARGS) || status=$$?; \
	exit $$status

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy .
	$(VENV)/bin/mypy --strict --config-file /dev/null scoring/rules tournaments/pairing

check: lint typecheck test-all

## Every benchmark, then one table of figures and ratios (ARGS=--quick for smaller sizes)
bench: install
	$(PY) bench/run_all.py $(ARGS)

worker: install
	$(VENV)/bin/celery -A kaiser_club worker -l info

beat: install
	$(VENV)/bin/celery -A kaiser_club beat -l info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
