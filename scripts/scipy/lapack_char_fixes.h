/* lapack_char_fixes.h — appended to scipy's generated _lapack_subroutines.h
 * (build-scipy.sh). Two routines of cython_lapack have another type in
 * OpenBLAS's C LAPACK than scipy declares: the CHARACTER function
 * CHLA_TRANSTYPE returns its result through a pointer and a length (f2c's
 * convention), and XERBLA_ARRAY takes the hidden length of its CHARACTER
 * array. A call with scipy's type linked to the wrong function type made
 * python.wasm invalid, so the calls go through wrappers with OpenBLAS's. */
#ifndef PYBOX_LAPACK_CHAR_FIXES_H
#define PYBOX_LAPACK_CHAR_FIXES_H
void chla_transtype_(char *ret, int ret_len, int *trans);
int xerbla_array_(char *srname_array, int *srname_len, int *info, int srname_array_len);
static inline char pybox_chla_transtype_(int *trans)
{
    char c = ' ';
    chla_transtype_(&c, 1, trans);
    return c;
}
static inline int pybox_xerbla_array_(char *srname_array, int *srname_len, int *info)
{
    return xerbla_array_(srname_array, srname_len, info, 1);
}
#define chla_transtype_ pybox_chla_transtype_
#define xerbla_array_ pybox_xerbla_array_
#endif
