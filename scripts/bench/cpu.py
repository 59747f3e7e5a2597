# A small fixed CPU suite, run the same way natively and inside pybox by
# scripts/bench/run.sh. Each benchmark reports the best of REPEAT timings
# (perf_counter inside the process: startup is measured separately).
import json
import re
import sys
import time

REPEAT = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def b_fib():
    fib(25)


def b_intloop():
    s = 0
    for i in range(1_000_000):
        s += i * i % 7
    return s


def b_nbody():
    bodies = [[0.0, 0.0, 0.0, 0.01, 0.02, 0.03, 39.47],
              [4.84, -1.16, -0.10, 0.606, 2.81, -0.02, 0.037],
              [8.34, 4.12, -0.4, -1.01, 1.82, 0.008, 0.011],
              [12.89, -15.11, -0.22, 1.08, 0.868, -0.01, 0.0017],
              [15.37, -25.9, 0.179, 0.979, 0.594, -0.034, 0.002]]
    dt = 0.01
    for _ in range(20000):
        for i in range(5):
            bi = bodies[i]
            for j in range(i + 1, 5):
                bj = bodies[j]
                dx, dy, dz = bi[0] - bj[0], bi[1] - bj[1], bi[2] - bj[2]
                d2 = dx * dx + dy * dy + dz * dz
                mag = dt / (d2 * d2 ** 0.5)
                bm, jm = bi[6] * mag, bj[6] * mag
                bi[3] -= dx * jm; bi[4] -= dy * jm; bi[5] -= dz * jm
                bj[3] += dx * bm; bj[4] += dy * bm; bj[5] += dz * bm
        for b in bodies:
            b[0] += dt * b[3]; b[1] += dt * b[4]; b[2] += dt * b[5]


DOC = {"users": [{"id": i, "name": "user%d" % i, "tags": ["a", "b", "c"], "score": i * 1.5,
                  "active": i % 2 == 0, "meta": {"k": "v" * 10, "n": None}} for i in range(2000)]}


def b_json():
    for _ in range(5):
        json.loads(json.dumps(DOC))


TEXT = ("The quick brown fox jumps over the lazy dog 12345 foo@example.com bar-baz " * 2000)


def b_regex():
    for _ in range(5):
        re.findall(r"[\w.]+@[\w.]+", TEXT)
        re.sub(r"\d+", "#", TEXT)
        re.findall(r"\b[a-z]{4,5}\b", TEXT)


def b_strings():
    words = TEXT.split()
    for _ in range(10):
        s = " ".join(w.upper() for w in words)
        s.count("FOX")
        s.replace("DOG", "cat").lower()
        "".join(sorted(set(words)))
        "%s-%d" % ("x", 5) * 1000
        f"{len(words)}:{s[:10]}"


def b_sort():
    import random
    r = random.Random(1)
    data = [r.random() for _ in range(200_000)]
    sorted(data)
    sorted(map(str, data[:50_000]))


BENCHES = [b_fib, b_intloop, b_nbody, b_json, b_regex, b_strings, b_sort]

out = {}
for b in BENCHES:
    best = float("inf")
    for _ in range(REPEAT):
        t = time.perf_counter()
        b()
        best = min(best, time.perf_counter() - t)
    out[b.__name__[2:]] = best
print(json.dumps(out))
