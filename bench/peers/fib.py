# fib(22), naively recursive: the peers' size of programs/fib.py (a tree walker at 500x CPython
# would take seconds on fib(25)).
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


print(fib(22))
