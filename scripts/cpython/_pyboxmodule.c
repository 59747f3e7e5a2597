/* _pybox: the guest side of the pybox host interface.
 *
 * pybox's Go host imports nothing from Python; Python reaches the host only
 * through the two wasm imports below ("pybox" module). The runner
 * (runtime/guest/pybox_runner.py) uses them to fetch its next request and to
 * report outcomes. Everything else the guest can do goes through WASI and is
 * decided by the host's filesystem policy.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"
#include <stdint.h>

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

static PyMethodDef pybox_methods[] = {
    {"call", pybox_call, METH_VARARGS,
     "call(op, payload) -> bytes\n\nSend a request to the pybox host and return its reply."},
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
