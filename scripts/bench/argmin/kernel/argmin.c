// argmin.c: the nearest-centre step of scikit-learn's KMeans (Lloyd) as
// _k_means_lloyd.pyx's _update_chunk_dense writes it, on a chunk of 256
// samples x 8 centres of random distances, in two forms:
//   run_select: `if (d < min) { min = d; label = j; }`, which clang turns
//               into two wasm `select`s (f64 and i32);
//   run_fmin:   the label by an i32 select on the comparison and the
//               minimum by wasm's f64.min (__builtin_wasm_min_f64: NaN
//               propagates, unlike C's fmin), so no f64 select.
// Both return the sum of the labels (they must agree).
#include <math.h>
#include <stdint.h>

#define NS 256
#define NC 8
static double D[NS * NC];
static int L[NS];

__attribute__((export_name("setup"))) int setup(int seed) {
  uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)seed;
  for (int i = 0; i < NS * NC; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    D[i] = (double)(x >> 11) * 0x1.0p-53;
  }
  return 0;
}

static long checksum(void) {
  long s = 0;
  for (int i = 0; i < NS; i++) s += L[i];
  return s;
}

__attribute__((export_name("run_select"))) long run_select(int reps) {
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < NS; i++) {
      double min = D[i * NC];
      int label = 0;
      for (int j = 1; j < NC; j++) {
        double d = D[i * NC + j];
        if (d < min) {
          min = d;
          label = j;
        }
      }
      L[i] = label;
    }
    __asm__ volatile("" ::: "memory");
  }
  return checksum();
}

__attribute__((export_name("run_fmin"))) long run_fmin(int reps) {
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < NS; i++) {
      double min = D[i * NC];
      int label = 0;
      for (int j = 1; j < NC; j++) {
        double d = D[i * NC + j];
        int lt = d < min;
        label = lt ? j : label;
        min = __builtin_wasm_min_f64(d, min);
      }
      L[i] = label;
    }
    __asm__ volatile("" ::: "memory");
  }
  return checksum();
}
