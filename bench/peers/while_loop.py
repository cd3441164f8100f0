# A 2x10^4-iteration while loop on module-level variables: programs/while_loop.py at a fiftieth.
i = 0
total = 0
while i < 20000:
    total = (total + i * 7) % 1000003
    i = i + 1
print(total)
