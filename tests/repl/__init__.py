"""Tests of `synsema repl`: the session, its entries and commands, history, the prompt, the pipe."""
