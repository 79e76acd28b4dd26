"""Input generator of the twin fixture: `python gen.py short|long`; EXECSTATE_SEED draws a fresh input with a 1000."""

import os
import random
import sys

seed = os.environ.get("EXECSTATE_SEED", "").strip()
if sys.argv[1] == "short":
    values = [4, 1, 3]
else:
    values = [(7 * i + 3) % 97 for i in range(40)]
if seed:
    rng = random.Random(int(seed) * 2 + (sys.argv[1] == "long"))
    values = [rng.randrange(97) for _ in values[:-1]] + [1000]
print(len(values))
print(" ".join(map(str, values)))
