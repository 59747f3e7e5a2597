/* _pybox: the guest side of the pybox host interface.
 *
 * pybox's Go host imports nothing from Python; Python reaches the host only
 * through the two wasm imports below ("pybox" module). The runner
 * (runtime/guest/pybox_runner.py) uses them to fetch its next request and to
 * report outcomes. Everything else the guest can do goes through WASI and is
 * decided by the host's filesystem policy.
 *
 * python.wasm is a WASI *reactor*: it has no _start. The host calls
 * _initialize (libc constructors), then pybox_boot (below), which starts the
 * interpreter, runs the runner's set-up and preloads and RETURNS, so the
 * guest is at rest with an empty wasm call stack: its linear memory can be
 * snapshotted and later mapped into new instances. pybox_serve then runs the
 * job loop, in the booted instance or in one restored from a snapshot.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"
#include "pycore_ast.h"           // _PyAST_Assign(), _PyAST_Name()
#include "pycore_compile.h"       // _PyAST_Compile()
#include "pycore_parser.h"        // _PyParser_ASTFromString()
#include "pycore_pyarena.h"       // _PyArena_New()
#include <stdint.h>
#include <stdlib.h>
#include <wasi/api.h>

/* call sends (op, payload) to the host. A result r >= 0 means success with
 * an r-byte reply; r < 0 means failure with a (-r - 1)-byte UTF-8 message as
 * the reply. Either way the guest copies the reply out with reply(). A
 * message that starts with "interrupted" means the run was interrupted while
 * it waited on the host, and becomes KeyboardInterrupt. */
__attribute__((import_module("pybox"), import_name("call")))
extern int32_t pybox_host_call(const char *op, uint32_t op_len,
                               const char *in, uint32_t in_len);

/* reply copies the pending reply of the last call into out. */
__attribute__((import_module("pybox"), import_name("reply")))
extern void pybox_host_reply(char *out, uint32_t out_len);

static PyObject *
pybox_call(PyObject *module, PyObject *args)
{
    const char *op;
    Py_ssize_t op_len;
    Py_buffer in;
    if (!PyArg_ParseTuple(args, "s#y*:call", &op, &op_len, &in)) {
        return NULL;
    }
    int32_t r = pybox_host_call(op, (uint32_t)op_len, in.buf, (uint32_t)in.len);
    PyBuffer_Release(&in);
    Py_ssize_t len = r >= 0 ? (Py_ssize_t)r : (Py_ssize_t)(-(int64_t)r - 1);
    PyObject *out = PyBytes_FromStringAndSize(NULL, len);
    if (out == NULL) {
        return NULL;
    }
    if (len > 0) {
        pybox_host_reply(PyBytes_AS_STRING(out), (uint32_t)len);
    }
    if (r >= 0) {
        return out;
    }
    const char *msg = PyBytes_AS_STRING(out);
    if (len >= 11 && memcmp(msg, "interrupted", 11) == 0) {
        PyErr_SetString(PyExc_KeyboardInterrupt, msg);
    } else {
        PyErr_Format(PyExc_OSError, "%s: %s", op, msg);
    }
    Py_DECREF(out);
    return NULL;
}

/* compile_cell(source, filename, name) -> (code, has_value)
 *
 * Compiles source as a module, like compile(source, filename, "exec"), but
 * when the last statement is an expression it becomes an assignment to the
 * global `name`, so the runner can report the value of a final expression
 * as a notebook cell does. The same with ast.parse and two compile() calls
 * of the resulting trees cost the runner 3-4 times as much inside wasm (a
 * session round trip is mostly this). */
static PyObject *
pybox_compile_cell(PyObject *module, PyObject *args)
{
    const char *src;
    PyObject *filename, *name;
    if (!PyArg_ParseTuple(args, "sUU:compile_cell", &src, &filename, &name)) {
        return NULL;
    }
    PyArena *arena = _PyArena_New();
    if (arena == NULL) {
        return NULL;
    }
    PyObject *res = NULL;
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    cf.cf_flags = PyCF_SOURCE_IS_UTF8;
    mod_ty mod = _PyParser_ASTFromString(src, filename, Py_file_input, &cf, arena);
    if (mod == NULL) {
        goto done;
    }
    int has_value = 0;
    asdl_stmt_seq *body = mod->v.Module.body;
    Py_ssize_t n = asdl_seq_LEN(body);
    if (n > 0) {
        stmt_ty last = asdl_seq_GET(body, n - 1);
        if (last->kind == Expr_kind) {
            Py_INCREF(name);
            if (_PyArena_AddPyObject(arena, name) < 0) {
                Py_DECREF(name);
                goto done;
            }
            expr_ty target = _PyAST_Name(name, Store, last->lineno, last->col_offset,
                                         last->end_lineno, last->end_col_offset, arena);
            asdl_expr_seq *targets = _Py_asdl_expr_seq_new(1, arena);
            if (target == NULL || targets == NULL) {
                goto done;
            }
            asdl_seq_SET(targets, 0, target);
            stmt_ty assign = _PyAST_Assign(targets, last->v.Expr.value, NULL,
                                           last->lineno, last->col_offset,
                                           last->end_lineno, last->end_col_offset, arena);
            if (assign == NULL) {
                goto done;
            }
            asdl_seq_SET(body, n - 1, assign);
            has_value = 1;
        }
    }
    PyObject *code = (PyObject *)_PyAST_Compile(mod, filename, &cf, -1, arena);
    if (code != NULL) {
        res = Py_BuildValue("(Ni)", code, has_value);
    }
done:
    _PyArena_Free(arena);
    return res;
}

static PyMethodDef pybox_methods[] = {
    {"call", pybox_call, METH_VARARGS,
     "call(op, payload) -> bytes\n\nSend a request to the pybox host and return its reply."},
    {"compile_cell", pybox_compile_cell, METH_VARARGS,
     "compile_cell(source, filename, name) -> (code, has_value)\n\n"
     "Compile source for exec; a final expression statement is assigned to the global name."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef pybox_module = {
    PyModuleDef_HEAD_INIT, "_pybox",
    "Guest side of the pybox host interface.", -1, pybox_methods,
};

/* Python/ceval.c: the flags the host stores to when it interrupts. */
extern void _Py_pybox_interrupt_addresses(uint32_t *out);

PyMODINIT_FUNC
PyInit__pybox(void)
{
    /* Tell the host where the interrupt flags live; see
     * Modules/signalmodule.c. The runner imports _pybox first thing, before
     * any user code runs. */
    uint32_t addr[5];
    _Py_pybox_interrupt_addresses(addr);
    if (pybox_host_call("signals", 7, (const char *)addr, sizeof(addr)) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "_pybox: the host refused the interrupt flags");
        return NULL;
    }
    return PyModule_Create(&pybox_module);
}


/* The runner's _serve function, found by pybox_boot. Lives in linear memory,
 * so an instance restored from a snapshot has it too. */
static PyObject *pybox_serve_fn;

/* pybox_boot initialises the interpreter with the command line the host
 * passes as WASI arguments (today: python -I -u -X utf8), fetches the runner
 * from the host ("runner"), executes it in a private namespace (its module
 * level does the set-up: import paths, preloads, refusals) and returns 0
 * with the interpreter at rest. Non-zero means failure; the reason is on
 * stderr. */
__attribute__((export_name("pybox_boot")))
int32_t
pybox_boot(void)
{
    __wasi_size_t argc = 0, bufsize = 0;
    if (__wasi_args_sizes_get(&argc, &bufsize) != 0 || argc == 0) {
        return 1;
    }
    char **argv = calloc(argc + 1, sizeof(char *));
    char *buf = malloc(bufsize);
    if (argv == NULL || buf == NULL ||
        __wasi_args_get((uint8_t **)argv, (uint8_t *)buf) != 0) {
        return 1;
    }
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    PyStatus st = PyConfig_SetBytesArgv(&config, (Py_ssize_t)argc, argv);
    if (!PyStatus_Exception(st)) {
        st = Py_InitializeFromConfig(&config);
    }
    PyConfig_Clear(&config);
    free(argv);
    free(buf);
    if (PyStatus_Exception(st)) {
        Py_ExitStatusException(st);  /* prints the reason and exits */
    }

    PyObject *mod = NULL, *src = NULL, *code = NULL, *ns = NULL, *r = NULL;
    mod = PyImport_ImportModule("_pybox");  /* reports the signal addresses */
    if (mod == NULL) {
        goto done;
    }
    src = PyObject_CallMethod(mod, "call", "sy#", "runner", "", (Py_ssize_t)0);
    if (src == NULL) {
        goto done;
    }
    code = Py_CompileString(PyBytes_AS_STRING(src), "<pybox-runner>", Py_file_input);
    if (code == NULL) {
        goto done;
    }
    ns = Py_BuildValue("{s:s,s:O}", "__name__", "_pybox_runner",
                       "__builtins__", PyEval_GetBuiltins());
    if (ns == NULL) {
        goto done;
    }
    r = PyEval_EvalCode(code, ns, ns);
    if (r == NULL) {
        goto done;
    }
    pybox_serve_fn = PyDict_GetItemString(ns, "_serve");
    if (pybox_serve_fn == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "pybox runner defines no _serve()");
        goto done;
    }
    Py_INCREF(pybox_serve_fn);
done:
    Py_XDECREF(r);
    Py_XDECREF(ns);
    Py_XDECREF(code);
    Py_XDECREF(src);
    Py_XDECREF(mod);
    if (PyErr_Occurred()) {
        PyErr_Print();  /* SystemExit exits here */
        return 1;
    }
    return 0;
}

/* pybox_serve runs the runner's job loop (_serve): a session's until the
 * host has no more jobs (the runner then calls sys.exit), a one-off's for
 * one job, after which _serve returns and so does this, with 0. 1 means the
 * runner failed (reported on stderr). */
__attribute__((export_name("pybox_serve")))
int32_t
pybox_serve(void)
{
    if (pybox_serve_fn == NULL) {
        return 1;
    }
    PyObject *r = PyObject_CallNoArgs(pybox_serve_fn);
    if (r == NULL) {
        PyErr_Print();  /* SystemExit exits here, as after a -c command */
        return 1;
    }
    Py_DECREF(r);
    return 0;
}
