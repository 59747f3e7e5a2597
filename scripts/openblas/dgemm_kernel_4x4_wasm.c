/*
 * pybox: OpenBLAS DGEMM micro-kernel for wasm32 with SIMD128 (4x4).
 *
 * C += alpha * A * B on OpenBLAS's packed panels: ba holds bm rows of A as
 * panels of 4 rows (then one of 2, then one of 1 for the remainder), each
 * stored k-major (for each k, the panel's rows contiguous); bb holds bn
 * columns of B the same way (gemm_ncopy_4/gemm_tcopy_4 pack them). C is
 * column-major with leading dimension ldc.
 *
 * The 4x4 block keeps 8 f64x2 accumulators (rows 0-1 and 2-3 of 4
 * columns) in registers: per k, two loads of A, four broadcasts of B and 8
 * multiply-adds, which wazero compiles to SSE2 / NEON. Remainder panels use
 * the plain loop. Built for wasm only (build-openblas.sh copies it into
 * kernel/riscv64/ and selects it in KERNEL.RISCV64_GENERIC, whose DGEMM
 * unroll the patch sets to 4x4).
 *
 * Built with -mrelaxed-simd (OB_SIMD='-msimd128 -mrelaxed-simd' in
 * build-openblas.sh), each multiply-add is one f64x2.relaxed_madd, which
 * pybox's wazero compiles to a fused VFMADD231PD (amd64 with FMA) or FMLA
 * (arm64): one rounding instead of two, and 1.2x the GFLOP/s of this
 * kernel with mul+add on an AVX2 machine (scripts/bench/fma;
 * docs/runtime-bundle.md, "OpenBLAS"). Without the flag the compiled code
 * is byte for byte the same as before the macro.
 */
#include "common.h"
#include <wasm_simd128.h>

/* acc + x*y, fused where the host can (relaxed SIMD). */
#ifdef __wasm_relaxed_simd__
#define PYBOX_MADD(acc, x, y) wasm_f64x2_relaxed_madd((x), (y), (acc))
#else
#define PYBOX_MADD(acc, x, y) wasm_f64x2_add((acc), wasm_f64x2_mul((x), (y)))
#endif

/* Any mr x nr block (mr, nr <= 4) from panels of width mr and nr. */
static void block_any(BLASLONG mr, BLASLONG nr, BLASLONG bk, FLOAT alpha,
                      const FLOAT *a, const FLOAT *b, FLOAT *C, BLASLONG ldc) {
  FLOAT acc[4][4] = {{0}};
  for (BLASLONG k = 0; k < bk; k++) {
    for (BLASLONG j = 0; j < nr; j++) {
      FLOAT bj = b[k * nr + j];
      for (BLASLONG i = 0; i < mr; i++) acc[j][i] += a[k * mr + i] * bj;
    }
  }
  for (BLASLONG j = 0; j < nr; j++)
    for (BLASLONG i = 0; i < mr; i++) C[j * ldc + i] += alpha * acc[j][i];
}

static void block_4x4(BLASLONG bk, FLOAT alpha, const FLOAT *a, const FLOAT *b,
                      FLOAT *C, BLASLONG ldc) {
  v128_t c00 = wasm_f64x2_splat(0), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  /* One k step: A rows 0-3 at a[o..o+3], B columns 0-3 at b[o..o+3]. */
#define PYBOX_STEP(o)                                                          \
  do {                                                                         \
    v128_t a0 = wasm_v128_load(a + (o));                                       \
    v128_t a1 = wasm_v128_load(a + (o) + 2);                                   \
    v128_t b0 = wasm_f64x2_splat(b[(o)]);                                      \
    v128_t b1 = wasm_f64x2_splat(b[(o) + 1]);                                  \
    c00 = PYBOX_MADD(c00, a0, b0);                                             \
    c01 = PYBOX_MADD(c01, a1, b0);                                             \
    c10 = PYBOX_MADD(c10, a0, b1);                                             \
    c11 = PYBOX_MADD(c11, a1, b1);                                             \
    v128_t b2 = wasm_f64x2_splat(b[(o) + 2]);                                  \
    v128_t b3 = wasm_f64x2_splat(b[(o) + 3]);                                  \
    c20 = PYBOX_MADD(c20, a0, b2);                                             \
    c21 = PYBOX_MADD(c21, a1, b2);                                             \
    c30 = PYBOX_MADD(c30, a0, b3);                                             \
    c31 = PYBOX_MADD(c31, a1, b3);                                             \
  } while (0)
  /* Four k steps per iteration: python.wasm's loop guard (internal/
   * loopguard) adds a countdown to every loop iteration, a real cost in a
   * loop this short. */
  BLASLONG k = 0;
  for (; k + 4 <= bk; k += 4) {
    PYBOX_STEP(0);
    PYBOX_STEP(4);
    PYBOX_STEP(8);
    PYBOX_STEP(12);
    a += 16;
    b += 16;
  }
  for (; k < bk; k++) {
    PYBOX_STEP(0);
    a += 4;
    b += 4;
  }
#undef PYBOX_STEP
  v128_t va = wasm_f64x2_splat(alpha);
#define PYBOX_STORE(col, lo, hi)                                               \
  do {                                                                         \
    FLOAT *c = C + (col) * ldc;                                                \
    wasm_v128_store(c, PYBOX_MADD(wasm_v128_load(c), va, lo));                 \
    wasm_v128_store(c + 2, PYBOX_MADD(wasm_v128_load(c + 2), va, hi));         \
  } while (0)
  PYBOX_STORE(0, c00, c01);
  PYBOX_STORE(1, c10, c11);
  PYBOX_STORE(2, c20, c21);
  PYBOX_STORE(3, c30, c31);
#undef PYBOX_STORE
}

int CNAME(BLASLONG bm, BLASLONG bn, BLASLONG bk, FLOAT alpha, FLOAT *ba,
          FLOAT *bb, FLOAT *C, BLASLONG ldc) {
  BLASLONG j = 0;
  const FLOAT *b = bb;
  while (j < bn) {
    BLASLONG nr = bn - j >= 4 ? 4 : (bn - j >= 2 ? 2 : 1);
    BLASLONG i = 0;
    const FLOAT *a = ba;
    while (i < bm) {
      BLASLONG mr = bm - i >= 4 ? 4 : (bm - i >= 2 ? 2 : 1);
      if (mr == 4 && nr == 4)
        block_4x4(bk, alpha, a, b, C + j * ldc + i, ldc);
      else
        block_any(mr, nr, bk, alpha, a, b, C + j * ldc + i, ldc);
      a += mr * bk;
      i += mr;
    }
    b += nr * bk;
    j += nr;
  }
  return 0;
}
