# The two commands of the quick start: `make serve` runs the service, `make test` runs the tests.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# openapi-typescript and tsc (npm): the TypeScript client the suite builds from the document
NODE_STAMP := clients/typescript/node_modules/.installed

.PHONY: serve test lint bench openapi clean

# The service (with the test tools), the SDK, gin and gin-bot, each its own distribution, in one pip call.
# A venv made while the service's distribution still carried `gin` loses that script when the service is
# reinstalled after gin: the `test -x` line puts it back (once).
$(STAMP): pyproject.toml clients/python/pyproject.toml clients/cli/pyproject.toml clients/bot/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]' -e ./clients/python -e ./clients/cli -e ./clients/bot
	test -x $(BIN)/gin || $(BIN)/pip install --quiet --force-reinstall --no-deps -e ./clients/cli
	touch $(STAMP)

$(NODE_STAMP): clients/typescript/package.json clients/typescript/package-lock.json
	npm ci --prefix clients/typescript --no-audit --no-fund --silent
	touch $(NODE_STAMP)

serve: $(STAMP)
	$(BIN)/ginrummy-serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint $(NODE_STAMP)
	$(BIN)/pytest -n 4 --dist worksteal

openapi: $(STAMP)
	$(BIN)/python -m ginrummy.http.openapi_export openapi/openapi.json
	$(BIN)/python clients/generate.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
