# Pillow inside pybox: draw shapes and TrueType text, save PNG and JPEG,
# reopen and resize them.
import os
from PIL import Image, ImageDraw, ImageFont, features

print("features", features.check("jpg"), features.check("zlib"), features.check("freetype2"))
im = Image.new("RGB", (320, 200), "white")
d = ImageDraw.Draw(im)
d.rectangle((10, 10, 150, 90), outline="red", width=3)
d.ellipse((160, 20, 300, 120), fill="skyblue", outline="navy")
d.text((20, 140), "pybox ✓", font=ImageFont.truetype("DejaVuSans.ttf", 24), fill="black")
d.text((20, 110), "default font", font=ImageFont.load_default(), fill="purple")
os.makedirs("/tmp/img", exist_ok=True)
im.save("/tmp/img/a.png")
im.save("/tmp/img/a.jpg", quality=90)
for p in ("/tmp/img/a.png", "/tmp/img/a.jpg"):
    r = Image.open(p)
    r.load()
    small = r.resize((160, 100), Image.LANCZOS).rotate(30, expand=True)
    print(os.path.basename(p), r.format, r.size, r.mode, small.size)
print("pixel", im.getpixel((12, 50)), im.getpixel((230, 70)))
# Found by Pillow's own suite: PDF output (no mmap in WASI) and the Arrow export.
im.save("/tmp/a.pdf"); print("pdf", open("/tmp/a.pdf", "rb").read(5))
print("arrow", type(im.__arrow_c_schema__()).__name__)
