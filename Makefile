# Everything a fresh machine needs: `make dataset` builds out/ from the default CR text, `make test` runs the tests.
RULES_ARCHIVE ?= ../shared/rules
OUT ?= out
export RULES_ARCHIVE OUT

HISTORY_OUT ?= out-history
DEPS := node_modules/.package-lock.json
BIN := node_modules/.bin
CLI := dist/bin/cli.js
# What the compiled CLI is made from: it is rebuilt only when one of these changes.
SOURCES := $(shell find src schemas scripts/compile-schemas.mjs scripts/copy-mjs.mjs scripts/bundle-cli.mjs -type f -not -path 'src/generated/*') package.json tsconfig.json
TEST_RESULTS := node_modules/.cache/mtg-rules-etl/test-results.json

.PHONY: all build dataset test fuzz bench validate release history site clean

all: dataset

$(DEPS): package.json package-lock.json
	npm install --no-audit --no-fund --no-save
	@touch $(DEPS)

# Install (if needed) and compile the CLI to dist/, only when a source changed (tsc is incremental too).
# (npm run build: schemas → standalone validators, tsc, the worker scripts copied beside
# their callers, then the CLI bundled into dist/bin/ by rolldown.)
build: $(CLI)

$(CLI): $(DEPS) $(SOURCES)
	npm run --silent build
	@chmod +x $(CLI)
	@touch $(CLI)

# Build out/ from the newest release in RULES_ARCHIVE, or from RULES=path.
dataset: build
	node pipelines/dataset.mjs

# Test results go to node_modules/.cache, never into the dataset folder out/.
test: build
	@scripts/install-test-tools.sh
	@mkdir -p $(dir $(TEST_RESULTS))
	$(BIN)/vitest run --reporter=default --reporter=json --outputFile.json=$(TEST_RESULTS)
	@node -e "const r=require('./$(TEST_RESULTS)'); console.log(r.numPassedTests + ' passed, ' + r.numFailedTests + ' failed' + (r.numPendingTests ? ', ' + r.numPendingTests + ' skipped' : ''))"

# A rules update: fetch the newest release (FROM=dir takes it from a folder instead; URL=page), build,
# validate, and write out/CHANGELOG.md against the previous release in raw/.
release: build
	node pipelines/regenerate.mjs $(if $(FROM),--from "$(FROM)") $(if $(URL),--url "$(URL)") --raw raw --out "$(OUT)"

# Build and validate every release in RULES_ARCHIVE, with a table (out-history/, beside out/: a build
# owns out/ whole).
history: build
	node $(CLI) history "$(RULES_ARCHIVE)" --out "$(HISTORY_OUT)"

# Property tests: 10,000 mutated real CR texts through the build and 2,000 damaged exports through
# validate (make test runs a small share of each).
fuzz: build
	FUZZ_RUNS=$${FUZZ_RUNS:-10000} $(BIN)/vitest run test/fuzz.test.ts test/fuzz-exports.test.ts

# Speed and memory against the targets; writes out-bench/bench.json (a script, not a test).
bench: build
	node --max-old-space-size=8192 scripts/bench.mjs

# The website of out/ (or SITE_FROM=out-history for the history's): site/index.html opens from disk.
SITE_FROM ?= $(OUT)
site: build
	@test -d "$(SITE_FROM)" || { echo 'make site: $(SITE_FROM) is missing: run make dataset (or make history and SITE_FROM=$(HISTORY_OUT)) first' >&2; exit 2; }
	node $(CLI) site "$(SITE_FROM)" --out site

# CI data check: make validate FILE=path/to/export.parquet
validate: build
	@test -n "$(FILE)" || { echo 'make validate: set FILE=path (a CR .txt, an export or a dataset folder)' >&2; exit 2; }
	node $(CLI) validate "$(FILE)" $(VALIDATE_FLAGS)

clean:
	rm -rf dist
