# A 10^6-iteration while loop doing integer arithmetic on module-level variables.
i = 0
total = 0
while i < 1000000:
    total = (total + i * 7) % 1000003
    i = i + 1
print(total)
