/*
 * pybox: OpenBLAS DGEMV kernels for wasm32 with SIMD128.
 *
 * Compiled twice (kernel/Makefile.L2): with TRANS
 * (DGEMVTKERNEL: y[j] += alpha * sum_i A[i,j] x[i]) and without
 * (DGEMVNKERNEL: y[i] += alpha * sum_j A[i,j] x[j]). A is column-major with
 * leading dimension lda. The unit-stride cases are vectorized over the
 * column (T: two columns at once, two accumulators each; N: four columns
 * per pass over y); a strided x (T) of up to 2048 elements is first copied
 * into the buffer OpenBLAS passes, a strided y (N) is summed there and then
 * added. Loops handle 4+
 * elements per iteration because python.wasm's loop guard counts every
 * iteration.
 */
#include "common.h"
#include <wasm_simd128.h>

/* OpenBLAS's x86_64 DGEMV kernels use the buffer for up to 2048 elements of
 * x (T) or y (N), so every caller provides at least that many (interface/
 * gemv.c: m + n). */
#define PYBOX_NBMAX 2048

static inline double hsum(v128_t v) {
  return wasm_f64x2_extract_lane(v, 0) + wasm_f64x2_extract_lane(v, 1);
}

int CNAME(BLASLONG m, BLASLONG n, BLASLONG dummy1, FLOAT alpha, FLOAT *a,
          BLASLONG lda, FLOAT *x, BLASLONG inc_x, FLOAT *y, BLASLONG inc_y,
          FLOAT *buffer) {
  (void)dummy1;
#ifdef TRANS
  if (inc_x != 1 && buffer != NULL && m <= PYBOX_NBMAX) {
    for (BLASLONG i = 0; i < m; i++) buffer[i] = x[i * inc_x];
    x = buffer;
    inc_x = 1;
  }
  if (inc_x == 1) {
    BLASLONG j = 0, iy = 0;
    for (; j + 2 <= n; j += 2) {
      const FLOAT *a0 = a + j * lda, *a1 = a0 + lda;
      v128_t s0 = wasm_f64x2_splat(0), s1 = s0, t0 = s0, t1 = s0;
      BLASLONG i = 0;
      for (; i + 4 <= m; i += 4) {
        v128_t x0 = wasm_v128_load(x + i), x1 = wasm_v128_load(x + i + 2);
        s0 = wasm_f64x2_add(s0, wasm_f64x2_mul(wasm_v128_load(a0 + i), x0));
        s1 = wasm_f64x2_add(s1, wasm_f64x2_mul(wasm_v128_load(a0 + i + 2), x1));
        t0 = wasm_f64x2_add(t0, wasm_f64x2_mul(wasm_v128_load(a1 + i), x0));
        t1 = wasm_f64x2_add(t1, wasm_f64x2_mul(wasm_v128_load(a1 + i + 2), x1));
      }
      FLOAT d0 = hsum(wasm_f64x2_add(s0, s1)), d1 = hsum(wasm_f64x2_add(t0, t1));
      for (; i < m; i++) {
        d0 += a0[i] * x[i];
        d1 += a1[i] * x[i];
      }
      y[iy] += alpha * d0;
      y[iy + inc_y] += alpha * d1;
      iy += 2 * inc_y;
    }
    for (; j < n; j++) {
      const FLOAT *a0 = a + j * lda;
      FLOAT d = 0;
      for (BLASLONG i = 0; i < m; i++) d += a0[i] * x[i];
      y[iy] += alpha * d;
      iy += inc_y;
    }
    return 0;
  }
  BLASLONG iy = 0;
  for (BLASLONG j = 0; j < n; j++) {
    const FLOAT *a0 = a + j * lda;
    FLOAT d = 0;
    BLASLONG ix = 0;
    for (BLASLONG i = 0; i < m; i++) {
      d += a0[i] * x[ix];
      ix += inc_x;
    }
    y[iy] += alpha * d;
    iy += inc_y;
  }
  return 0;
#else
  FLOAT *y_out = NULL;
  BLASLONG inc_out = inc_y;
  if (inc_y != 1 && buffer != NULL && m <= PYBOX_NBMAX) {
    /* sum into the buffer, then add it to y */
    for (BLASLONG i = 0; i < m; i++) buffer[i] = 0;
    y_out = y;
    y = buffer;
    inc_y = 1;
  }
  if (inc_y == 1) {
    BLASLONG j = 0, ix = 0;
    for (; j + 4 <= n; j += 4) {
      const FLOAT *a0 = a + j * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
      FLOAT t0 = alpha * x[ix], t1 = alpha * x[ix + inc_x];
      FLOAT t2 = alpha * x[ix + 2 * inc_x], t3 = alpha * x[ix + 3 * inc_x];
      v128_t v0 = wasm_f64x2_splat(t0), v1 = wasm_f64x2_splat(t1);
      v128_t v2 = wasm_f64x2_splat(t2), v3 = wasm_f64x2_splat(t3);
      BLASLONG i = 0;
      for (; i + 4 <= m; i += 4) {
        v128_t y0 = wasm_v128_load(y + i), y1 = wasm_v128_load(y + i + 2);
        y0 = wasm_f64x2_add(y0, wasm_f64x2_mul(wasm_v128_load(a0 + i), v0));
        y1 = wasm_f64x2_add(y1, wasm_f64x2_mul(wasm_v128_load(a0 + i + 2), v0));
        y0 = wasm_f64x2_add(y0, wasm_f64x2_mul(wasm_v128_load(a1 + i), v1));
        y1 = wasm_f64x2_add(y1, wasm_f64x2_mul(wasm_v128_load(a1 + i + 2), v1));
        y0 = wasm_f64x2_add(y0, wasm_f64x2_mul(wasm_v128_load(a2 + i), v2));
        y1 = wasm_f64x2_add(y1, wasm_f64x2_mul(wasm_v128_load(a2 + i + 2), v2));
        y0 = wasm_f64x2_add(y0, wasm_f64x2_mul(wasm_v128_load(a3 + i), v3));
        y1 = wasm_f64x2_add(y1, wasm_f64x2_mul(wasm_v128_load(a3 + i + 2), v3));
        wasm_v128_store(y + i, y0);
        wasm_v128_store(y + i + 2, y1);
      }
      for (; i < m; i++) y[i] += t0 * a0[i] + t1 * a1[i] + t2 * a2[i] + t3 * a3[i];
      ix += 4 * inc_x;
    }
    for (; j < n; j++) {
      const FLOAT *a0 = a + j * lda;
      FLOAT t = alpha * x[ix];
      for (BLASLONG i = 0; i < m; i++) y[i] += t * a0[i];
      ix += inc_x;
    }
    if (y_out != NULL)
      for (BLASLONG i = 0; i < m; i++) y_out[i * inc_out] += y[i];
    return 0;
  }
  BLASLONG ix = 0;
  for (BLASLONG j = 0; j < n; j++) {
    const FLOAT *a0 = a + j * lda;
    FLOAT t = alpha * x[ix];
    BLASLONG iy = 0;
    for (BLASLONG i = 0; i < m; i++) {
      y[iy] += t * a0[i];
      iy += inc_y;
    }
    ix += inc_x;
  }
  return 0;
#endif
}
