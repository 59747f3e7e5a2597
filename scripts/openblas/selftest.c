/*
 * selftest.c — checks the wasm32 libopenblas.a against naive loops: DGEMM
 * and SGEMM over shapes that exercise every remainder panel of the
 * micro-kernels, both transpositions, alpha and beta; DGEMV (both
 * transpositions, unit and non-unit strides) and DDOT; DGESV (LU solve) and
 * DPOTRF + DPOTRS on well-conditioned systems. Exits non-zero on a mismatch.
 *
 *   scripts/openblas/selftest.sh     # compiles it for wasm32-wasi and runs it
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef int blasint;
int dgemm_(char *ta, char *tb, blasint *m, blasint *n, blasint *k, double *alpha,
           double *a, blasint *lda, double *b, blasint *ldb, double *beta,
           double *c, blasint *ldc);
int sgemm_(char *ta, char *tb, blasint *m, blasint *n, blasint *k, float *alpha,
           float *a, blasint *lda, float *b, blasint *ldb, float *beta,
           float *c, blasint *ldc);
int dgemv_(char *t, blasint *m, blasint *n, double *alpha, double *a, blasint *lda,
           double *x, blasint *incx, double *beta, double *y, blasint *incy);
double ddot_(blasint *n, double *x, blasint *incx, double *y, blasint *incy);
int dgesv_(blasint *n, blasint *nrhs, double *a, blasint *lda, blasint *ipiv,
           double *b, blasint *ldb, blasint *info);
int dpotrf_(char *uplo, blasint *n, double *a, blasint *lda, blasint *info);
int dpotrs_(char *uplo, blasint *n, blasint *nrhs, double *a, blasint *lda,
            double *b, blasint *ldb, blasint *info);

static unsigned long long state = 88172645463325252ULL;
static double rnd(void) {
  state ^= state << 13; state ^= state >> 7; state ^= state << 17;
  return (double)(state >> 11) / 9007199254740992.0 - 0.5;
}

static int failures;

static void check(const char *what, double err, double tol) {
  if (!(err <= tol)) {
    printf("FAIL %s: error %g > %g\n", what, err, tol);
    failures++;
  }
}

/* element (i, j) of a column-major op(X) with leading dimension ld */
#define AT(x, ld, t, i, j) ((t) == 'N' ? (x)[(j) * (ld) + (i)] : (x)[(i) * (ld) + (j)])

static void test_gemm(int m, int n, int k, char ta, char tb) {
  int lda = (ta == 'N' ? m : k) + 1, ldb = (tb == 'N' ? k : n) + 2, ldc = m + 3;
  int acols = ta == 'N' ? k : m, bcols = tb == 'N' ? n : k;
  double *a = malloc(sizeof(double) * lda * acols), *b = malloc(sizeof(double) * ldb * bcols);
  double *c = malloc(sizeof(double) * ldc * n), *r = malloc(sizeof(double) * ldc * n);
  float *af = malloc(sizeof(float) * lda * acols), *bf = malloc(sizeof(float) * ldb * bcols);
  float *cf = malloc(sizeof(float) * ldc * n);
  for (int i = 0; i < lda * acols; i++) af[i] = (float)(a[i] = rnd());
  for (int i = 0; i < ldb * bcols; i++) bf[i] = (float)(b[i] = rnd());
  for (int i = 0; i < ldc * n; i++) { cf[i] = (float)(c[i] = r[i] = rnd()); }
  double alpha = 1.5, beta = -0.5;
  float alphaf = 1.5f, betaf = -0.5f;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int p = 0; p < k; p++) s += AT(a, lda, ta, i, p) * AT(b, ldb, tb, p, j);
      r[j * ldc + i] = alpha * s + beta * r[j * ldc + i];
    }
  dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
  sgemm_(&ta, &tb, &m, &n, &k, &alphaf, af, &lda, bf, &ldb, &betaf, cf, &ldc);
  double err = 0, errf = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      err = fmax(err, fabs(c[j * ldc + i] - r[j * ldc + i]));
      errf = fmax(errf, fabs(cf[j * ldc + i] - r[j * ldc + i]));
    }
  char what[64];
  snprintf(what, sizeof what, "dgemm %c%c m=%d n=%d k=%d", ta, tb, m, n, k);
  check(what, err, 1e-12 * (k + 1));
  what[0] = 's';
  check(what, errf, 1e-5 * (k + 1));
  free(a); free(b); free(c); free(r); free(af); free(bf); free(cf);
}

static void test_gemv_dot(int m, int n, char t, int inc) {
  int lda = m + 1, xl = (t == 'N' ? n : m), yl = (t == 'N' ? m : n);
  double *a = malloc(sizeof(double) * lda * n), *x = malloc(sizeof(double) * xl * inc);
  double *y = malloc(sizeof(double) * yl * inc), *r = malloc(sizeof(double) * yl);
  for (int i = 0; i < lda * n; i++) a[i] = rnd();
  for (int i = 0; i < xl * inc; i++) x[i] = rnd();
  for (int i = 0; i < yl * inc; i++) y[i] = rnd();
  double alpha = 0.75, beta = 1.25;
  for (int i = 0; i < yl; i++) {
    double s = 0;
    for (int p = 0; p < xl; p++) s += (t == 'N' ? a[p * lda + i] : a[i * lda + p]) * x[p * inc];
    r[i] = alpha * s + beta * y[i * inc];
  }
  dgemv_(&t, &m, &n, &alpha, a, &lda, x, &inc, &beta, y, &inc);
  double err = 0;
  for (int i = 0; i < yl; i++) err = fmax(err, fabs(y[i * inc] - r[i]));
  char what[64];
  snprintf(what, sizeof what, "dgemv %c m=%d n=%d inc=%d", t, m, n, inc);
  check(what, err, 1e-12 * (xl + 1));
  /* ddot of x with the first xl strided elements of a */
  double d = 0;
  for (int i = 0; i < xl && i * inc < lda * n; i++) d += x[i * inc] * a[i * inc];
  int dn = xl;
  while (dn > 0 && (dn - 1) * inc >= lda * n) dn--;
  double got = ddot_(&dn, x, &inc, a, &inc);
  snprintf(what, sizeof what, "ddot n=%d inc=%d", dn, inc);
  check(what, fabs(got - d), 1e-12 * (xl + 1));
  free(a); free(x); free(y); free(r);
}

static void test_solvers(int n) {
  int nrhs = 3, info = 0;
  double *a = malloc(sizeof(double) * n * n), *lu = malloc(sizeof(double) * n * n);
  double *x = malloc(sizeof(double) * n * nrhs), *b = malloc(sizeof(double) * n * nrhs);
  int *ipiv = malloc(sizeof(int) * n);
  for (int i = 0; i < n * n; i++) a[i] = rnd();
  for (int i = 0; i < n; i++) a[i * n + i] += n; /* diagonally dominant */
  for (int i = 0; i < n * nrhs; i++) x[i] = b[i] = rnd();
  for (int i = 0; i < n * n; i++) lu[i] = a[i];
  dgesv_(&n, &nrhs, lu, &n, ipiv, x, &n, &info);
  double err = 0;
  for (int r = 0; r < nrhs; r++)
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j < n; j++) s += a[j * n + i] * x[r * n + j];
      err = fmax(err, fabs(s - b[r * n + i]));
    }
  char what[64];
  snprintf(what, sizeof what, "dgesv n=%d (info %d)", n, info);
  check(what, info == 0 ? err : INFINITY, 1e-10);
  /* SPD: A^T A + n I */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = i == j ? n : 0;
      for (int p = 0; p < n; p++) s += a[i * n + p] * a[j * n + p];
      lu[j * n + i] = s;
    }
  double *spd = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; i++) spd[i] = lu[i];
  for (int i = 0; i < n * nrhs; i++) x[i] = b[i];
  char uplo = 'L';
  dpotrf_(&uplo, &n, lu, &n, &info);
  int info2 = 0;
  dpotrs_(&uplo, &n, &nrhs, lu, &n, x, &n, &info2);
  err = 0;
  for (int r = 0; r < nrhs; r++)
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j < n; j++) s += spd[j * n + i] * x[r * n + j];
      err = fmax(err, fabs(s - b[r * n + i]));
    }
  snprintf(what, sizeof what, "dpotrf/dpotrs n=%d (info %d %d)", n, info, info2);
  check(what, info == 0 && info2 == 0 ? err : INFINITY, 1e-9 * n);
  free(a); free(lu); free(x); free(b); free(ipiv); free(spd);
}

int main(void) {
  int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 31, 64, 130};
  int ns = sizeof sizes / sizeof sizes[0], count = 0;
  const char *tr = "NT";
  for (int x = 0; x < ns; x++)
    for (int y = 0; y < ns; y += 2)
      for (int z = 0; z < ns; z += 3)
        for (int t = 0; t < 4; t++) {
          test_gemm(sizes[x], sizes[y], sizes[z], tr[t & 1], tr[t >> 1]);
          count++;
        }
  for (int x = 0; x < ns; x++)
    for (int y = 0; y < ns; y++)
      for (int t = 0; t < 4; t++) {
        test_gemv_dot(sizes[x], sizes[y], tr[t & 1], 1 + (t >> 1));
        count++;
      }
  test_gemm(300, 257, 301, 'N', 'N');
  test_gemm(129, 300, 250, 'T', 'N');
  int solver_sizes[] = {1, 3, 4, 17, 64, 200};
  for (int i = 0; i < 6; i++) test_solvers(solver_sizes[i]);
  printf("%d gemm/gemv/dot shapes, 6 solver sizes: %d failures\n", count + 2, failures);
  return failures != 0;
}
