# The CPython twin of agent_script.syn: JSON in, text processing, a map of counts, JSON out.
import json

topics = ["billing", "login", "shipping", "refund", "api"]
moods = ["angry", "calm", "confused"]
records = []
for i in range(3000):
    topic = topics[i % 5]
    records.append({"id": i, "topic": topic,
                    "text": f"Ticket {i}: my {topic} is broken, I am {moods[i * 7 % 3]}. Please help with {topic} {i % 17}!"})
reply = json.dumps(records, separators=(",", ":"))


def words_of(text):
    cleaned = text.replace(",", " ").replace(".", " ").replace("!", " ").lower()
    return [w for w in cleaned.split(" ") if len(w) > 2]


tickets = json.loads(reply)
counts = {}
by_topic = {}
for ticket in tickets:
    for w in words_of(ticket["text"]):
        counts[w] = counts.get(w, 0) + 1
    t = ticket["topic"]
    by_topic[t] = by_topic.get(t, 0) + 1
top = sorted(counts, key=lambda k: (-counts[k], k))[:10]
print(json.dumps({"tickets": len(tickets), "topics": by_topic, "top": [[k, counts[k]] for k in top]},
                 separators=(",", ":")))
