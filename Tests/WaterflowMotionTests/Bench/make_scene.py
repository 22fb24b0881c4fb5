"""Writes a scene of N listed items ({"w", "h", "price"}, about 41 bytes each) for bench-json.sh.

Deterministic: the same N gives the same bytes. Usage: python3 make_scene.py N out.json
"""
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(14)
with open(out, "w") as f:
    f.write('{"viewport": {"width": 375, "height": 667, "scale": 2}, "columns": 2, "items": [\n')
    for i in range(n):
        f.write('%s{"w": %d, "h": %d, "price": "%d.%02d"}' % (
            ",\n" if i else "", rng.randint(100, 800), rng.randint(100, 1200),
            rng.randint(1, 999), rng.randint(0, 99)))
    f.write("\n]}\n")
