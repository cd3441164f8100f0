# Text building and splitting: the twin of text_split.syn.
lines = []
i = 0
while i < 20000:
    lines.append(f"row {i}: {i * i % 997},{i % 13}")
    i = i + 1
doc = "\n".join(lines)
total = 0
chars = 0
for line in doc.split("\n"):
    fields = line.split(": ")[1].split(",")
    total = total + int(fields[0]) + int(fields[1])
    chars = chars + len(line)
print(len(doc), chars, total)
