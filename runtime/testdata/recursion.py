# The recursion limit is Linux's 1000 (CPython for WASI defaults to 600), and
# code that recurses through C at every level ends in RecursionError, never a
# crash of the interpreter, at that limit and well past it.
import sys, json, copy, pickle, functools, re, ast
print("limit", sys.getrecursionlimit())
def f(n): return 0 if n == 0 else 1 + f(n - 1)
print("python", f(sys.getrecursionlimit() - 20))
# Recursion through C at every level: each must end in RecursionError, never a crash.
class A:
    def __init__(s, d): s.d = d
    def __repr__(s): return "A(%r)" % (s.d,)
    def __eq__(s, o): return s.d == o.d
    def __hash__(s): return hash(s.d)
a = None
for _ in range(5000): a = A(a)
x = []
for _ in range(5000): x = [x]
d = {}
for _ in range(5000): d = {"k": d}
cases = [("repr via __repr__", lambda: repr(a)), ("eq via __eq__", lambda: a == copy.copy(a)),
         ("hash", lambda: hash(a)), ("nested list repr", lambda: repr(x)),
         ("json", lambda: json.dumps(d)), ("json default", lambda: json.dumps(a, default=lambda o: o.d)),
         ("pickle", lambda: pickle.dumps(x)), ("deepcopy", lambda: copy.deepcopy(x)),
         ("str.format", lambda: format(a)), ("sorted key", lambda: sorted([a, a], key=repr)),
         ("reduce", lambda: functools.reduce(lambda acc, _: [acc], range(5000), [])),
         ("ast", lambda: ast.literal_eval("[" * 90 + "]" * 90)),
         ("getattr chain", lambda: type("G", (), {"__getattr__": lambda s, n: getattr(s, n + "x")})().y)]
for name, fn in cases:
    try:
        fn(); print(name, "ok")
    except RecursionError:
        print(name, "RecursionError")
    except MemoryError:
        print(name, "MemoryError")
print("alive")
sys.setrecursionlimit(3000)
print("python 3000", f(2980))
for name, fn in cases:
    try:
        fn()
    except RecursionError:
        pass
print("alive at 3000")
