# Everything a fresh machine needs: `make dataset` builds out/ from the default CR text, `make test` runs the tests.
RULES_ARCHIVE ?= ../shared/rules
OUT ?= out
export RULES_ARCHIVE OUT

DEPS := node_modules/.package-lock.json
BIN := node_modules/.bin

.PHONY: all build dataset test fuzz bench validate release history clean

all: dataset

$(DEPS): package.json package-lock.json
	npm install --no-audit --no-fund --no-save
	@touch $(DEPS)

# Install (if needed) and compile the CLI to dist/.
# (npm run build: schemas → standalone validators, tsc, the worker script copied beside its caller.)
build: $(DEPS)
	npm run --silent build
	@chmod +x dist/src/cli.js

# Build out/ from the newest release in RULES_ARCHIVE, or from RULES=path.
dataset: build
	node pipelines/dataset.mjs

test: build
	$(BIN)/vitest run --reporter=default --reporter=json --outputFile.json=out/test-results.json
	@node -e "const r=require('./out/test-results.json'); console.log(r.numPassedTests + ' passed, ' + r.numFailedTests + ' failed' + (r.numPendingTests ? ', ' + r.numPendingTests + ' skipped' : ''))"

# A rules update: fetch the newest release (FROM=dir takes it from a folder instead; URL=page), build,
# validate, and write out/CHANGELOG.md against the previous release in raw/.
release: build
	node pipelines/regenerate.mjs $(if $(FROM),--from "$(FROM)") $(if $(URL),--url "$(URL)") --raw raw --out "$(OUT)"

# Build and validate every release in RULES_ARCHIVE, with a table (out/history/).
history: build
	node dist/src/cli.js history "$(RULES_ARCHIVE)" --out "$(OUT)/history"

# Property tests: 10,000 mutated real CR texts through the build, and 2,000 damaged exports through
# validate (make test runs a small share of each).
fuzz: build
	FUZZ_RUNS=$${FUZZ_RUNS:-10000} $(BIN)/vitest run test/fuzz.test.ts test/fuzz-exports.test.ts

# Speed and memory against the targets; writes bench.json (a script, not a test).
bench: build
	node scripts/bench.mjs

# CI data check: make validate FILE=path/to/export.parquet
validate: build
	@test -n "$(FILE)" || { echo 'make validate: set FILE=path (a CR .txt, .parquet, .jsonl or .csv)' >&2; exit 2; }
	node dist/src/cli.js validate "$(FILE)" $(VALIDATE_FLAGS)

clean:
	rm -rf dist
