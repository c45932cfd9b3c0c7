# random with a seed is deterministic in CPython; the evaluator knows no random number, and
# must say so rather than print a made-up one.
import random

random.seed(7)
values = [random.randint(1, 6) for _ in range(3)]
print(values)
print(round(random.uniform(0, 1), 3))
print("after", len(values))
