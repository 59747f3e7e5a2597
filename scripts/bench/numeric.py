# numpy and Pillow kernels, run the same way natively (Debian's python3-numpy
# and python3-pil) and inside pybox by scripts/bench/numeric.sh. Prints one
# JSON object: best of REPEAT wall times in seconds. Import time is measured
# in a fresh process by the shell script, not here.
import json
import sys
import time

import numpy as np
from PIL import Image, ImageFilter

REPEAT = int(sys.argv[1]) if len(sys.argv) > 1 else 3
rng = np.random.default_rng(0)
A = rng.random((500, 500))
B = rng.random((500, 500))
X = rng.random(1 << 20)
S = rng.random(1_000_000)
IMG = Image.fromarray((rng.random((1024, 1024, 3)) * 255).astype(np.uint8))


def b_matmul():
    A @ B


def b_fft():
    np.fft.fft(X)


def b_sort():
    np.sort(S)


def b_elementwise():
    (np.sin(S) * 2.0 + np.sqrt(S)).sum()


def b_resize():
    IMG.resize((512, 512), Image.LANCZOS)


def b_blur():
    IMG.filter(ImageFilter.GaussianBlur(3))


out = {}
for b in (b_matmul, b_fft, b_sort, b_elementwise, b_resize, b_blur):
    best = float("inf")
    for _ in range(REPEAT):
        t = time.perf_counter()
        b()
        best = min(best, time.perf_counter() - t)
    out[b.__name__[2:]] = best
print(json.dumps(out))
