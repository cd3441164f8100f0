# Hello world: used only to check hello.syn's output; its timing twin is `python -c pass`.
print("Hello, world!")
