/* The little of OpenBLAS's common.h that dgemm_kernel_4x4_wasm.c uses, for
 * dgemm.c (scripts/bench/fma). */
#define BLASLONG long
#define FLOAT double
#define CNAME dgemm_kernel
