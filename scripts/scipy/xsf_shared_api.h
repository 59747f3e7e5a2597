/* xsf_shared_api.h — forced include for scipy.special's C++ files that use
 * xsf's numpy glue (xsf/numpy.h), on wasm32-wasi.
 *
 * numpy's C-API tables (PyArray_API, PyUFunc_API) are static variables of
 * each file unless a unique symbol is named; each module's init fills its
 * own. xsf/numpy.h's functions (ufunc(), gufunc(), ...) are inline in this
 * build (static-link-fixes.py), so one copy serves every module, and that
 * copy must not read a table another module never filled. These files
 * therefore share one pair of table pointers (the -D names in
 * static-link-fixes.py), weak so that each file's definition becomes the
 * same variable: every module's import_array()/import_umath() sets them to
 * numpy's one table. */
#pragma weak pybox_scipy_xsf_ARRAY_API
#pragma weak pybox_scipy_xsf_ARRAY_APIPyArray_RUNTIME_VERSION
#pragma weak pybox_scipy_xsf_UFUNC_API
