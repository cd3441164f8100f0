"""The LLM side of the interpreter: providers, tool calling and the expression forms.

Nothing here is imported at start-up; the builtins in `stdlib.llm` and the evaluator's LLM
expressions import what they need on first use. Layout, from the script inward:

    step.py, expressions.py   llm_step (its context, tool_result) and reason/decide/analyze/generate
    stream.py                 llm_stream: a text answer passed on piece by piece
    session.py                the one provider per process, token usage and the budget
    exchange.py               Ask and Reply: a request and its answer, independent of any API
    convert.py, names.py      model arguments → declared types; tool names an API cannot carry
    openai_chat.py, anthropic_messages.py, api.py, http.py   the real APIs over HTTP (and SSE)
    cassette.py               replay and record
    config.py, status.py      settings with their sources, and `synsema llm status`
"""
