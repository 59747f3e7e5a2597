# The pure-Python packages bundled for data work import and work.
import io, importlib.metadata as md
import openpyxl, xlsxwriter, pypdf, tabulate, dateutil.parser, pytz, six, yaml, jinja2, markupsafe, markdown, bs4
wb = openpyxl.Workbook(); ws = wb.active; ws.append(["a", "b"]); ws.append([1, 2]); buf = io.BytesIO(); wb.save(buf)
print("openpyxl", openpyxl.load_workbook(io.BytesIO(buf.getvalue())).active["B2"].value)
xb = io.BytesIO(); w = xlsxwriter.Workbook(xb); w.add_worksheet().write(0, 0, "x"); w.close(); print("xlsxwriter", len(xb.getvalue()) > 1000)
pw = pypdf.PdfWriter(); pw.add_blank_page(100, 100); pb = io.BytesIO(); pw.write(pb); print("pypdf", len(pypdf.PdfReader(io.BytesIO(pb.getvalue())).pages))
print("tabulate", tabulate.tabulate([[1, 2]], tablefmt="plain"))
print("dateutil", dateutil.parser.parse("2024-03-01T10:00:00+02:00").utcoffset())
print("pytz", pytz.timezone("Europe/Paris").zone)
print("yaml", yaml.safe_load("a: [1, 2]"), yaml.__with_libyaml__)
print("jinja2", jinja2.Template("{{ x|e }}").render(x="<b>"), type(markupsafe.escape("<")).__name__)
print("markdown", markdown.markdown("# hi"))
print("bs4", bs4.BeautifulSoup("<p>hey</p>", "html.parser").p.text)
import zoneinfo; print("zoneinfo", zoneinfo.ZoneInfo("America/New_York").key)
print("metadata", md.version("numpy"), md.version("Pillow"), md.version("openpyxl"))
import sympy, networkx as nx, mpmath
x = sympy.symbols("x"); print("sympy", sympy.integrate(x**2, (x, 0, 3)), sympy.solve(x**2 - 4, x))
g = nx.path_graph(5); print("networkx", nx.shortest_path(g, 0, 4), nx.is_tree(g))
mpmath.mp.dps = 20; print("mpmath", mpmath.sqrt(2))
