/* f2py_shared_api.h — forced include for scipy's C files on wasm32-wasi.
 *
 * f2py's extension modules (scipy.linalg._fblas, _flapack,
 * scipy.interpolate._dfitpack) each define numpy's C-API table pointer
 * under the one name f2py gives it (PY_ARRAY_UNIQUE_SYMBOL
 * _npy_f2py_ARRAY_API), and f2py's fortranobject.c uses it. As shared
 * libraries each has its own copy; linked into one python.wasm they would be
 * defined several times. Made weak, they become one variable, which every
 * module's import_array() sets to the same table. */
#pragma weak _npy_f2py_ARRAY_API
#pragma weak _npy_f2py_ARRAY_APIPyArray_RUNTIME_VERSION
