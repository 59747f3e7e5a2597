"""Finds C methods and getters/setters whose definition does not match how
CPython calls them.

    python3 check_method_signatures.py SOURCE_DIR

On native targets a METH_NOARGS function written with one parameter, or a
METH_VARARGS|METH_KEYWORDS one written with two, works by accident of the
calling convention. On wasm32 every indirect call checks the function type,
and such a call traps: the interpreter dies ("indirect call type mismatch").
Each hit here is a way to crash pybox from Python. A regex scan (not a C
parser): it reads method tables `{"name", (PyCFunction)fn, FLAGS, ...}` and
definitions `PyObject *fn(...) {`, and getset tables `{"name", (getter)fn,
(setter)fn2, ...}` (a getter is called with 2 arguments, a setter with 3);
tp_* slots are not checked.
"""
import glob
import os
import re
import sys

need={'METH_VARARGS':2,'METH_NOARGS':2,'METH_O':2,'METH_VARARGS|METH_KEYWORDS':3,'METH_KEYWORDS|METH_VARARGS':3,'METH_FASTCALL':3,'METH_FASTCALL|METH_KEYWORDS':4,'METH_KEYWORDS|METH_FASTCALL':4}
root=sys.argv[1]
files=[f for pat in ('**/*.c','**/*.cpp','**/*.c.src','**/*.h') for f in glob.glob(root+'/'+pat,recursive=True) if os.path.isfile(f) and '/tests/' not in f and 'vendored-meson' not in f and 'f2py' not in f and 'pythoncapi-compat' not in f]
defs={}
P=r'((?:[^()]|\([^()]*\))*)'
for f in files:
    src=open(f,errors='replace').read()
    for m in re.finditer(r'(?:^|\n)[A-Za-z_ ]*?(?:PyObject|PyArrayObject)\s*\*\s*\n?\s*(\w+)\s*\('+P+r'\)\s*\n?\{', src):
        params=[p for p in re.sub(r'\([^()]*\)','',m.group(2)).split(',') if p.strip() and p.strip()!='void']
        defs.setdefault(m.group(1),(len(params),f))
    for m in re.finditer(r'(?:^|\n)[A-Za-z_ ]*?\bint\s*\n?\s*(\w+)\s*\('+P+r'\)\s*\n?\{', src):
        params=[p for p in re.sub(r'\([^()]*\)','',m.group(2)).split(',') if p.strip() and p.strip()!='void']
        defs.setdefault(m.group(1),(len(params),f))
for f in files:
    src=open(f,errors='replace').read()
    for m in re.finditer(r'\{\s*"([^"]+)"\s*,\s*\(PyCFunction(?:WithKeywords)?\)\s*(?:\(void\s*\(\*\)\(void\)\))?\s*(\w+)\s*,\s*([A-Z_|\s]+?)\s*[,}]', src):
        name,fn,flags=m.groups(); flags=''.join(flags.split())
        n=need.get(flags)
        if fn in defs and n is not None and defs[fn][0]!=n:
            print(f.replace(root+'/',''), name, fn, flags, 'defined with', defs[fn][0], 'params; needs', n)
    for m in re.finditer(r'\{\s*"([^"]+)"\s*,\s*\(getter\)\s*(\w+)\s*,\s*(?:\(setter\)\s*(\w+)|NULL|0)', src):
        name,get,set_=m.groups()
        for fn,n,kind in ((get,2,'getter'),(set_,3,'setter')):
            if fn and fn in defs and defs[fn][0]!=n:
                print(f.replace(root+'/',''), name, fn, kind, 'defined with', defs[fn][0], 'params; needs', n)
