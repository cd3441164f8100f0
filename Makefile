# `make demo` and `make test` work on a fresh machine with only Python 3.11:
# each creates .venv when it is missing and installs what it needs: every extra (`all`) and `test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: demo test differential bench fuzz-labels fuzz-codegen clean vscode browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,test]'
	touch $(STAMP)

demo: $(STAMP)
	@echo "== examples/hello.syn"
	$(BIN)/synsema run examples/hello.syn
	@echo "== examples/tool_calling.syn (its tests)"
	$(BIN)/synsema test examples/tool_calling.syn
	@echo "== examples/agent_loop.syn, replaying a recorded model"
	SYNSEMA_LLM_PROVIDER=replay SYNSEMA_LLM_CASSETTE=examples/agent_loop.cassette.jsonl \
		$(BIN)/synsema run examples/agent_loop.syn
	@echo "== the same run traced, and its trace as a page (build/agent_loop.html)"
	mkdir -p build
	SYNSEMA_LLM_PROVIDER=replay SYNSEMA_LLM_CASSETTE=examples/agent_loop.cassette.jsonl \
		$(BIN)/synsema run --trace build/agent_loop.jsonl examples/agent_loop.syn > /dev/null
	$(BIN)/synsema view build/agent_loop.jsonl
	@echo "== examples/private_agent.syn: customers' tickets triaged under --labels, replayed; only counts published"
	SYNSEMA_LLM_PROVIDER=replay SYNSEMA_LLM_CASSETTE=examples/private_agent.cassette.jsonl \
		$(BIN)/synsema run --labels --cap-set "stdout,llm=customer@api.anthropic.com,declassify=customer" \
		examples/private_agent.syn
	@echo "== examples/math_tour.syn: exact operations composed"
	$(BIN)/synsema run examples/math_tour.syn
	@echo "== examples/math_agent.syn, replaying a recorded model that computes instead of guessing"
	SYNSEMA_LLM_PROVIDER=replay SYNSEMA_LLM_CASSETTE=examples/math_agent.cassette.jsonl \
		$(BIN)/synsema run examples/math_agent.syn
	@echo "== examples/mcp_agent.syn: the safe loop over the MCP server examples/synsema.toml lists, replayed"
	PATH=$(abspath $(BIN)):$$PATH SYNSEMA_LLM_PROVIDER=replay SYNSEMA_LLM_CASSETTE=examples/mcp_agent.cassette.jsonl \
		$(BIN)/synsema run examples/mcp_agent.syn
	@echo "== examples/conjecture_agent.syn, replaying an agent that tests a conjecture with certified computations"
	SYNSEMA_LLM_PROVIDER=replay SYNSEMA_LLM_CASSETTE=examples/conjecture_agent.cassette.jsonl \
		$(BIN)/synsema run examples/conjecture_agent.syn

	@echo "== examples/eval: a task over a dataset, each row in its own process, scored (build/eval.jsonl)"
	$(BIN)/synsema eval examples/eval/arithmetic.syn --data examples/eval/arithmetic.jsonl --workers 2 \
		--out build/eval.jsonl
	$(BIN)/synsema view build/eval.jsonl

test: $(STAMP)
	$(BIN)/python -m pytest tests

# The math differential suite with 20 times the default draws per shape class (about 2 min).
differential: $(STAMP)
	SYNSEMA_DIFFERENTIAL=20 $(BIN)/python -m pytest tests/math/test_differential.py -q

# A long noninterference campaign for --labels (tests/labels/nifuzz; CI runs a small budget in
# tests/labels/test_noninterference_fuzz.py): `make fuzz-labels N=100000 JOBS=2 [SEED=…]`.
N ?= 10000
JOBS ?= 1
fuzz-labels: $(STAMP)
	PYTHONPATH=tests $(BIN)/python -m labels.nifuzz -n $(N) --jobs $(JOBS) $(if $(SEED),--seed $(SEED)) $(FUZZ_FLAGS)

# The generated evaluator against the closures (tests/test_codegen_differential.py) with a bigger
# budget than CI's: `make fuzz-codegen CODEGEN_N=2000` (hypothesis examples; a third as many
# programs of the label fuzzer's generator).
CODEGEN_N ?= 2000
fuzz-codegen: $(STAMP)
	SYNSEMA_CODEGEN_EXAMPLES=$(CODEGEN_N) $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_codegen_differential.py

# The bench extra (asteval, smolagents, RestrictedPython: the peers of bench/run.py) has its own
# stamp, so `make test` never installs it.
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[all,test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python bench/run.py

# The VS Code extension as editors/vscode/synsema.vsix: its locked dependencies (npm ci; no
# install scripts are needed), one esbuild bundle, vsce package. Needs Node 20 and npm.
vscode:
	cd editors/vscode && npm ci --ignore-scripts --no-audit --no-fund && npm run package

# Debian's Chromium, for the viewer's browser tests (tests/tracing/browser.py runs this when
# /usr/bin/chromium is missing; without root or apt the tests skip).
browser:
	@test -x /usr/bin/chromium || (apt-get update -q && apt-get install -y -q chromium)

clean:
	rm -rf $(VENV) build *.egg-info
