/* _pgo: a builtin module of the PGO training build of python.wasm only
 * (scripts/bench/pgo.sh): dump() writes the profile counters to a file,
 * reset() zeroes them. */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

int pybox_pgo_write(const char *path);
void pybox_pgo_reset(void);

static PyObject *
pgo_dump(PyObject *self, PyObject *arg)
{
    const char *path = PyUnicode_AsUTF8(arg);
    if (path == NULL) {
        return NULL;
    }
    if (pybox_pgo_write(path) != 0) {
        return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    }
    Py_RETURN_NONE;
}

static PyObject *
pgo_reset(PyObject *self, PyObject *unused)
{
    pybox_pgo_reset();
    Py_RETURN_NONE;
}

static PyMethodDef pgo_methods[] = {
    {"dump", pgo_dump, METH_O, "dump(path): write the raw profile (.profraw) to path."},
    {"reset", pgo_reset, METH_NOARGS, "reset(): zero the profile counters."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef pgo_module = {
    PyModuleDef_HEAD_INIT, "_pgo", NULL, -1, pgo_methods,
};

PyMODINIT_FUNC
PyInit__pgo(void)
{
    return PyModule_Create(&pgo_module);
}
