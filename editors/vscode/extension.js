// Starts `synsema lsp` for .syn files. Everything the editor knows about Synsema (diagnostics,
// hover, completion, definitions, formatting) comes from that server; this file only launches it.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("synsema.server");
  const run = { command: settings.get("command", "synsema"), args: settings.get("args", ["lsp"]), transport: TransportKind.stdio };
  client = new LanguageClient(
    "synsema",
    "Synsema",
    { run, debug: run },
    { documentSelector: [{ scheme: "file", language: "synsema" }, { scheme: "untitled", language: "synsema" }] },
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
