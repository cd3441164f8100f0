// Reads {"grammar": path, "sources": [{"name", "text"}]} on stdin and prints, per source, the
// tokens of every line with their scopes, using the engine VS Code itself runs.
"use strict";

const fs = require("fs");
const path = require("path");
const oniguruma = require("vscode-oniguruma");
const textmate = require("vscode-textmate");

async function main() {
  const request = JSON.parse(fs.readFileSync(0, "utf8"));
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(request.grammar, "utf8"), request.grammar),
  });
  const grammar = await registry.loadGrammar("source.synsema");
  const results = [];
  for (const source of request.sources) {
    let stack = textmate.INITIAL;
    const lines = [];
    for (const line of source.text.split("\n")) {
      const result = grammar.tokenizeLine(line, stack);
      lines.push(result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes })));
      stack = result.ruleStack;
    }
    results.push({ name: source.name, lines });
  }
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack || error) + "\n");
  process.exit(1);
});
