# bz2 and lzma (libbz2 and liblzma built into python.wasm): round trips,
# tarfile's compressed modes, and networkx reading a .bz2 edge list.
import bz2, io, lzma, tarfile
data = b"pybox " * 10000
print("bz2", bz2.decompress(bz2.compress(data)) == data, len(bz2.compress(data)) < 200)
for fmt in (lzma.FORMAT_XZ, lzma.FORMAT_ALONE):
    print("lzma", fmt, lzma.decompress(lzma.compress(data, format=fmt)) == data)
for mode in ("w:bz2", "w:xz"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tf:
        ti = tarfile.TarInfo("a.txt"); ti.size = len(data); tf.addfile(ti, io.BytesIO(data))
    with tarfile.open(fileobj=io.BytesIO(buf.getvalue())) as tf:
        print("tar", mode, tf.extractfile("a.txt").read() == data)
try:
    lzma.decompress(b"\xfd7zXZ\x00garbage")
except lzma.LZMAError as e:
    print("corrupt xz raised LZMAError")
import networkx as nx
with bz2.open("/tmp/g.edgelist.bz2", "wt") as f:
    f.write("1 2\n2 3\n")
print("networkx bz2", sorted(nx.read_edgelist("/tmp/g.edgelist.bz2", nodetype=int).edges()))
