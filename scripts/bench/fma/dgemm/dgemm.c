/*
 * dgemm.c — a 500x500 DGEMM on pybox's OpenBLAS micro-kernel
 * (scripts/openblas/dgemm_kernel_4x4_wasm.c), blocked and packed as
 * OpenBLAS's level-3 driver does (k blocks of KC, row blocks of MC, panels
 * of 4 rows of A and 4 columns of B, k-major), for scripts/bench/fma.
 * Built twice by fma.sh: with -msimd128 (mul+add) and with -mrelaxed-simd
 * too (f64x2.relaxed_madd). A WASI reactor: setup(n), then run() computes
 * C = A*B and returns C's sum; maxrelerr() checks 64 entries against a
 * plain dot product.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "../../../openblas/dgemm_kernel_4x4_wasm.c"

#define KC 256
#define MC 128

static int N;
static double *A, *B, *C, *pa, *pb;

__attribute__((export_name("setup"))) int setup(int n) {
  N = n;
  A = malloc(sizeof(double) * n * n);
  B = malloc(sizeof(double) * n * n);
  C = malloc(sizeof(double) * n * n);
  pa = malloc(sizeof(double) * MC * KC);
  pb = malloc(sizeof(double) * KC * n);
  if (!A || !B || !C || !pa || !pb || n % 4 != 0) return -1;
  /* xorshift64: 53 random bits each, so that products and sums round. */
  unsigned long long s = 88172645463325252ull;
  for (int i = 0; i < 2 * n * n; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    double x = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    if (i < n * n)
      A[i] = x;
    else
      B[i - n * n] = x;
  }
  return 0;
}

__attribute__((export_name("run"))) double run(void) {
  memset(C, 0, sizeof(double) * N * N);
  for (int k0 = 0; k0 < N; k0 += KC) {
    int kc = N - k0 < KC ? N - k0 : KC;
    /* B[k0:k0+kc, :] as panels of 4 columns, k-major. */
    for (int q = 0; q < N / 4; q++)
      for (int k = 0; k < kc; k++)
        for (int c = 0; c < 4; c++)
          pb[q * 4 * kc + k * 4 + c] = B[(k0 + k) + (4 * q + c) * N];
    for (int i0 = 0; i0 < N; i0 += MC) {
      int mc = N - i0 < MC ? N - i0 : MC;
      /* A[i0:i0+mc, k0:k0+kc] as panels of 4 rows, k-major. */
      for (int p = 0; p < mc / 4; p++)
        for (int k = 0; k < kc; k++)
          for (int r = 0; r < 4; r++)
            pa[p * 4 * kc + k * 4 + r] = A[(i0 + 4 * p + r) + (k0 + k) * N];
      dgemm_kernel(mc, N, kc, 1.0, pa, pb, C + i0, N);
    }
  }
  double sum = 0;
  for (int i = 0; i < N * N; i++) sum += C[i];
  return sum;
}

__attribute__((export_name("maxrelerr"))) double maxrelerr(void) {
  double worst = 0;
  for (int t = 0; t < 64; t++) {
    int i = (t * 37) % N, j = (t * 101) % N;
    double want = 0, mag = 0;
    for (int k = 0; k < N; k++) {
      want += A[i + k * N] * B[k + j * N];
      mag += fabs(A[i + k * N] * B[k + j * N]);
    }
    double err = fabs(C[i + j * N] - want) / mag;
    if (err > worst) worst = err;
  }
  return worst;
}
