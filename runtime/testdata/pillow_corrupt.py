# A corrupt or truncated image raises an exception in Python; the interpreter
# keeps working (libjpeg's error exit longjmps back into Pillow).
import io
from PIL import Image

im = Image.linear_gradient("L").resize((64, 64)).convert("RGB")
b = io.BytesIO(); im.save(b, "PNG"); png = b.getvalue()
b = io.BytesIO(); im.save(b, "JPEG"); jpg = b.getvalue()
dht = jpg.index(b"\xff\xc4")
bogus = bytearray(jpg); bogus[dht + 5:dht + 21] = b"\xff" * 16  # bogus Huffman table
cases = [("truncated jpeg", jpg[: len(jpg) // 2]), ("bogus huffman table", bytes(bogus)),
         ("truncated png", png[: len(png) // 2]), ("corrupt png", png[:60] + b"\x55" * 100 + png[160:]),
         ("not an image", b"hello")]
for _ in range(200):  # many error exits: nothing leaks, nothing breaks
    for name, data in cases:
        try:
            Image.open(io.BytesIO(data)).load()
        except (OSError, SyntaxError, ValueError):
            pass
for name, data in cases:
    try:
        Image.open(io.BytesIO(data)).load()
        print(name, "loaded")
    except (OSError, SyntaxError, ValueError) as e:
        print(name, "raised", "OSError" if isinstance(e, OSError) else type(e).__name__)
print("still alive", Image.open(io.BytesIO(jpg)).convert("L").size, sum(range(10)))
