/*
 * pybox: OpenBLAS DDOT kernel for wasm32 with SIMD128.
 *
 * Unit strides: four f64x2 accumulators (8 partial sums), 8 elements per
 * iteration (python.wasm's loop guard counts every iteration), then the
 * partial sums and the tail in order. Other strides: the plain loop.
 * build-openblas.sh copies it into kernel/riscv64/; the patch selects it as
 * DDOTKERNEL in KERNEL.RISCV64_GENERIC.
 */
#include "common.h"
#include <wasm_simd128.h>

FLOAT CNAME(BLASLONG n, FLOAT *x, BLASLONG inc_x, FLOAT *y, BLASLONG inc_y) {
  FLOAT dot = 0.0;
  if (n < 1) return dot;
  if (inc_x == 1 && inc_y == 1) {
    v128_t s0 = wasm_f64x2_splat(0), s1 = s0, s2 = s0, s3 = s0;
    BLASLONG i = 0;
    for (; i + 8 <= n; i += 8) {
      s0 = wasm_f64x2_add(s0, wasm_f64x2_mul(wasm_v128_load(x + i), wasm_v128_load(y + i)));
      s1 = wasm_f64x2_add(s1, wasm_f64x2_mul(wasm_v128_load(x + i + 2), wasm_v128_load(y + i + 2)));
      s2 = wasm_f64x2_add(s2, wasm_f64x2_mul(wasm_v128_load(x + i + 4), wasm_v128_load(y + i + 4)));
      s3 = wasm_f64x2_add(s3, wasm_f64x2_mul(wasm_v128_load(x + i + 6), wasm_v128_load(y + i + 6)));
    }
    v128_t s = wasm_f64x2_add(wasm_f64x2_add(s0, s1), wasm_f64x2_add(s2, s3));
    dot = wasm_f64x2_extract_lane(s, 0) + wasm_f64x2_extract_lane(s, 1);
    for (; i < n; i++) dot += x[i] * y[i];
    return dot;
  }
  BLASLONG ix = 0, iy = 0;
  for (BLASLONG i = 0; i < n; i++) {
    dot += y[iy] * x[ix];
    ix += inc_x;
    iy += inc_y;
  }
  return dot;
}
