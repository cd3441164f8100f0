# Map-heavy word counting, 2x10^4 words: programs/word_count.py at a tenth, printing with a list
# comprehension (asteval refuses the generator expression of the original).
def count_words(n):
    counts = {}
    i = 0
    while i < n:
        w = "w" + str(i * 7919 % 500 * (i % 3 + 1) % 500)
        counts[w] = counts.get(w, 0) + 1
        i = i + 1
    return counts


counts = count_words(20000)
top = sorted(counts, key=lambda k: (-counts[k], k))
print(len(counts), "[" + ", ".join([f'"{k}"' for k in top[:5]]) + "]", counts[top[0]])
