# lxml (over libxml2 and libxslt, built into python.wasm) and python-docx,
# which needs it. A malformed document raises XMLSyntaxError and the
# interpreter keeps working.
import io, importlib.metadata as md
from lxml import etree, html, objectify
from lxml.builder import E

root = etree.fromstring(b"<r><a x='1'>one</a><a x='2'>two</a><b/></r>")
print("xpath", root.xpath("//a[@x='2']/text()"), root.xpath("count(//a)"))
print("find", [a.text for a in root.findall("a")], root.findtext("a[@x='2']"))
print("serialize", etree.tostring(E.p(E.b("x"), "y", id="1")).decode())
xslt = etree.XSLT(etree.XML(
    b'<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"'
    b' xmlns:math="http://exslt.org/math" extension-element-prefixes="math">'
    b'<xsl:template match="/"><out n="{count(//a)}"><xsl:value-of select="math:max(//a/@x)"/></out>'
    b'</xsl:template></xsl:stylesheet>'))
print("xslt", etree.tostring(xslt(root.getroottree())).decode())
events = etree.iterparse(io.BytesIO(b"<r><a/><b>t</b></r>"), events=("start", "end"))
print("iterparse", [f"{ev}:{el.tag}" for ev, el in events])
cp = etree.fromstring("<?xml version='1.0' encoding='windows-1252'?><r>caf\xe9 \u20ac</r>".encode("cp1252"))
print("encoding", cp.text, etree.tostring(cp, encoding="shift_jis").decode("shift_jis").split("?>")[1].strip(),
      etree.fromstring("<r>\u3042</r>").text)
print("html", html.fromstring("<p>hi <b>there</b>").text_content())
print("objectify", objectify.fromstring("<r><n>3</n></r>").n + 1)
for _ in range(500):  # many error exits: nothing leaks, nothing breaks
    try:
        etree.fromstring(b"<r><a></r>")
    except etree.XMLSyntaxError as e:
        err = e
print("malformed raised", type(err).__name__, err.position)
print("still alive", etree.tostring(etree.fromstring("<ok/>")).decode(), sum(range(10)))

import docx
d = docx.Document()
d.add_heading("Hi", 0)
d.add_paragraph("text")
t = d.add_table(rows=2, cols=2)
t.cell(0, 0).text = "a"
b = io.BytesIO()
d.save(b)
d2 = docx.Document(io.BytesIO(b.getvalue()))
print("docx", len(d2.paragraphs), [p.text for p in d2.paragraphs], d2.tables[0].cell(0, 0).text)
print("metadata", md.version("lxml"), md.version("python-docx"))
