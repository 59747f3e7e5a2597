/*
 * pybox_simd.h — WebAssembly SIMD128 inner loops for numpy in pybox.
 *
 * numpy's own SIMD layer (universal intrinsics, Highway) has no wasm target,
 * so in pybox's wasm32 build every float ufunc runs its scalar fallback: a
 * strided char* loop that clang cannot vectorize, and float64 sin/cos call
 * libm once per element. This header gives those fallbacks unit-stride
 * SIMD128 versions, hooked in by scripts/numpy/simd-loops.patch:
 *
 *   - add, subtract, multiply, divide (float32, float64): array op array,
 *     scalar op array, array op scalar;
 *   - rint, floor, ceil, trunc, sqrt, absolute, square, reciprocal;
 *   - the pairwise-sum block behind np.sum / np.add.reduce;
 *   - float64 sin and cos.
 *
 * Every result is bit for bit what the scalar loop gives: the arithmetic
 * and rounding operations are IEEE-exact in wasm, the pairwise sum keeps
 * numpy's eight accumulators (two lanes each), and sin/cos evaluate the
 * same operations as wasi-libc's scalar sin/cos (musl's, from FreeBSD msun)
 * two lanes at a time, so np.sin(x) == math.sin(x) still holds for every
 * element. Lanes with |x| >= 2^20*pi/2, Inf or NaN take libm's scalar path.
 *
 * A loop helper returns how many elements it handled (a multiple of the
 * vector width); the caller's scalar loop does the rest. Operands that
 * overlap other than exactly (in place) are left to the scalar loop.
 *
 * The sin/cos kernels follow msun's e_rem_pio2.c, k_sin.c, k_cos.c,
 * s_sin.c and s_cos.c (as shipped in musl), whose notice is:
 *
 *   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *   Developed at SunSoft, a Sun Microsystems, Inc. business.
 *   Permission to use, copy, modify, and distribute this
 *   software is freely granted, provided that this notice
 *   is preserved.
 */
#ifndef PYBOX_SIMD_H
#define PYBOX_SIMD_H

#if defined(__wasm_simd128__)
#define PYBOX_SIMD 1

#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <wasm_simd128.h>

/* pybox instruments every loop of python.wasm with a countdown that lets
 * the host interrupt and preempt C code (scripts/loopguard): a few
 * instructions per iteration, which in these short loop bodies cost up to
 * half the time. Unrolled four times, they pay it once per four vectors. */
#define PYBOX_UNROLL _Pragma("clang loop unroll_count(4)")

/* True if the strided ranges [a, a+n*as) and [b, b+n*bs) share a byte,
 * unless they are the same range with the same step (in place). */
static inline int
pybox_overlap(const char *a, ptrdiff_t as, const char *b, ptrdiff_t bs, ptrdiff_t n)
{
    const char *a0 = a, *a1 = a + as * (n - 1), *b0 = b, *b1 = b + bs * (n - 1);
    if (as < 0) { const char *t = a0; a0 = a1; a1 = t; }
    if (bs < 0) { const char *t = b0; b0 = b1; b1 = t; }
    if (a0 == b0 && a1 == b1 && as == bs) {
        return 0;
    }
    return !(a0 > b1 || b0 > a1);
}

/* ---- binary arithmetic ------------------------------------------------ */

#define PYBOX_BINARY(NAME, T, VOP, SPLAT)                                     \
static inline ptrdiff_t                                                       \
NAME(char *s0, ptrdiff_t ss0, char *s1, ptrdiff_t ss1, char *d, ptrdiff_t sd, \
     ptrdiff_t n)                                                             \
{                                                                             \
    const ptrdiff_t W = 16 / sizeof(T);                                       \
    ptrdiff_t i = 0, m = n - n % W;                                           \
    if (n < W || sd != (ptrdiff_t)sizeof(T) ||                                \
        (ss0 != 0 && ss0 != sd) || (ss1 != 0 && ss1 != sd) ||                 \
        (ss0 == 0 && ss1 == 0) ||                                             \
        (ss0 != 0 && pybox_overlap(s0, ss0, d, sd, n)) ||                     \
        (ss1 != 0 && pybox_overlap(s1, ss1, d, sd, n)) ||                     \
        (ss0 == 0 && s0 >= d && s0 < d + n * sd) ||                           \
        (ss1 == 0 && s1 >= d && s1 < d + n * sd)) {                           \
        return 0;                                                             \
    }                                                                         \
    if (ss0 == 0) {                                                           \
        const v128_t a = SPLAT(s0);                                           \
        PYBOX_UNROLL                                                          \
        for (; i < m; i += W) {                                               \
            wasm_v128_store(d + i * sizeof(T),                                \
                VOP(a, wasm_v128_load(s1 + i * sizeof(T))));                  \
        }                                                                     \
    }                                                                         \
    else if (ss1 == 0) {                                                      \
        const v128_t b = SPLAT(s1);                                           \
        PYBOX_UNROLL                                                          \
        for (; i < m; i += W) {                                               \
            wasm_v128_store(d + i * sizeof(T),                                \
                VOP(wasm_v128_load(s0 + i * sizeof(T)), b));                  \
        }                                                                     \
    }                                                                         \
    else {                                                                    \
        PYBOX_UNROLL                                                          \
        for (; i < m; i += W) {                                               \
            wasm_v128_store(d + i * sizeof(T),                                \
                VOP(wasm_v128_load(s0 + i * sizeof(T)),                       \
                    wasm_v128_load(s1 + i * sizeof(T))));                     \
        }                                                                     \
    }                                                                         \
    return m;                                                                 \
}

PYBOX_BINARY(pybox_add_f64, double, wasm_f64x2_add, wasm_v128_load64_splat)
PYBOX_BINARY(pybox_subtract_f64, double, wasm_f64x2_sub, wasm_v128_load64_splat)
PYBOX_BINARY(pybox_multiply_f64, double, wasm_f64x2_mul, wasm_v128_load64_splat)
PYBOX_BINARY(pybox_divide_f64, double, wasm_f64x2_div, wasm_v128_load64_splat)
PYBOX_BINARY(pybox_add_f32, float, wasm_f32x4_add, wasm_v128_load32_splat)
PYBOX_BINARY(pybox_subtract_f32, float, wasm_f32x4_sub, wasm_v128_load32_splat)
PYBOX_BINARY(pybox_multiply_f32, float, wasm_f32x4_mul, wasm_v128_load32_splat)
PYBOX_BINARY(pybox_divide_f32, float, wasm_f32x4_div, wasm_v128_load32_splat)

/* ---- unary ------------------------------------------------------------ */

static inline v128_t pybox_v_square_f64(v128_t a) { return wasm_f64x2_mul(a, a); }
static inline v128_t pybox_v_square_f32(v128_t a) { return wasm_f32x4_mul(a, a); }
static inline v128_t pybox_v_reciprocal_f64(v128_t a) { return wasm_f64x2_div(wasm_f64x2_splat(1.0), a); }
static inline v128_t pybox_v_reciprocal_f32(v128_t a) { return wasm_f32x4_div(wasm_f32x4_splat(1.0f), a); }
/* numpy's scalar absolute is (a > 0 ? a : -a) + 0: the same as clearing the
 * sign bit for every number (and -0.0 -> 0.0); for NaN only the sign of the
 * NaN may differ, which no comparison or arithmetic can observe. */
#define pybox_v_absolute_f64 wasm_f64x2_abs
#define pybox_v_absolute_f32 wasm_f32x4_abs
#define pybox_v_sqrt_f64 wasm_f64x2_sqrt
#define pybox_v_sqrt_f32 wasm_f32x4_sqrt
#define pybox_v_rint_f64 wasm_f64x2_nearest
#define pybox_v_rint_f32 wasm_f32x4_nearest
#define pybox_v_floor_f64 wasm_f64x2_floor
#define pybox_v_floor_f32 wasm_f32x4_floor
#define pybox_v_ceil_f64 wasm_f64x2_ceil
#define pybox_v_ceil_f32 wasm_f32x4_ceil
#define pybox_v_trunc_f64 wasm_f64x2_trunc
#define pybox_v_trunc_f32 wasm_f32x4_trunc

/* Handles the unit-stride case of a unary loop, in place or not. */
#define PYBOX_UNARY(KIND, SFX, T)                                             \
static inline ptrdiff_t                                                       \
pybox_##KIND##_##SFX(const char *s, ptrdiff_t ss, char *d, ptrdiff_t sd,      \
                     ptrdiff_t n)                                             \
{                                                                             \
    const ptrdiff_t W = 16 / sizeof(T);                                       \
    ptrdiff_t i, m = n - n % W;                                               \
    if (n < W || ss != (ptrdiff_t)sizeof(T) || sd != ss ||                    \
        pybox_overlap(s, ss, d, sd, n)) {                                     \
        return 0;                                                             \
    }                                                                         \
    PYBOX_UNROLL                                                              \
    for (i = 0; i < m; i += W) {                                              \
        wasm_v128_store(d + i * sizeof(T),                                    \
            pybox_v_##KIND##_##SFX(wasm_v128_load(s + i * sizeof(T))));       \
    }                                                                         \
    return m;                                                                 \
}

#define PYBOX_UNARY_BOTH(KIND) PYBOX_UNARY(KIND, f64, double) PYBOX_UNARY(KIND, f32, float)
PYBOX_UNARY_BOTH(rint)
PYBOX_UNARY_BOTH(floor)
PYBOX_UNARY_BOTH(ceil)
PYBOX_UNARY_BOTH(trunc)
PYBOX_UNARY_BOTH(sqrt)
PYBOX_UNARY_BOTH(absolute)
PYBOX_UNARY_BOTH(square)
PYBOX_UNARY_BOTH(reciprocal)

/* ---- pairwise-sum block ----------------------------------------------- */

/*
 * numpy's pairwise sum adds a block of n (8 <= n <= 128) elements into
 * eight accumulators r[j] += a[i + j] and combines them as
 * ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then adds the n % 8
 * rest one by one. These do the same additions, an accumulator per lane.
 */
static inline double
pybox_pairwise_block_f64(const double *a, ptrdiff_t n)
{
    v128_t r01 = wasm_v128_load(a), r23 = wasm_v128_load(a + 2);
    v128_t r45 = wasm_v128_load(a + 4), r67 = wasm_v128_load(a + 6);
    ptrdiff_t i;
    double res;
    for (i = 8; i < n - (n % 8); i += 8) {
        r01 = wasm_f64x2_add(r01, wasm_v128_load(a + i));
        r23 = wasm_f64x2_add(r23, wasm_v128_load(a + i + 2));
        r45 = wasm_f64x2_add(r45, wasm_v128_load(a + i + 4));
        r67 = wasm_f64x2_add(r67, wasm_v128_load(a + i + 6));
    }
    res = ((wasm_f64x2_extract_lane(r01, 0) + wasm_f64x2_extract_lane(r01, 1)) +
           (wasm_f64x2_extract_lane(r23, 0) + wasm_f64x2_extract_lane(r23, 1))) +
          ((wasm_f64x2_extract_lane(r45, 0) + wasm_f64x2_extract_lane(r45, 1)) +
           (wasm_f64x2_extract_lane(r67, 0) + wasm_f64x2_extract_lane(r67, 1)));
    for (; i < n; i++) {
        res += a[i];
    }
    return res;
}

static inline float
pybox_pairwise_block_f32(const float *a, ptrdiff_t n)
{
    v128_t r03 = wasm_v128_load(a), r47 = wasm_v128_load(a + 4);
    ptrdiff_t i;
    float res;
    for (i = 8; i < n - (n % 8); i += 8) {
        r03 = wasm_f32x4_add(r03, wasm_v128_load(a + i));
        r47 = wasm_f32x4_add(r47, wasm_v128_load(a + i + 4));
    }
    res = ((wasm_f32x4_extract_lane(r03, 0) + wasm_f32x4_extract_lane(r03, 1)) +
           (wasm_f32x4_extract_lane(r03, 2) + wasm_f32x4_extract_lane(r03, 3))) +
          ((wasm_f32x4_extract_lane(r47, 0) + wasm_f32x4_extract_lane(r47, 1)) +
           (wasm_f32x4_extract_lane(r47, 2) + wasm_f32x4_extract_lane(r47, 3)));
    for (; i < n; i++) {
        res += a[i];
    }
    return res;
}

/* ---- float64 sin and cos ---------------------------------------------- */

#define PB_F(c) wasm_f64x2_splat(c)
#define PB_I(c) wasm_i64x2_splat(c)
#define pb_add wasm_f64x2_add
#define pb_sub wasm_f64x2_sub
#define pb_mul wasm_f64x2_mul
#define pb_sel(m, a, b) wasm_v128_bitselect((a), (b), (m)) /* m ? a : b */

/* msun k_sin.c: sin on [-pi/4, pi/4] of x + y (y the tail of x). Its
 * polynomial r = S2 + z*(S3 + z*S4) + z*w*(S5 + z*S6), z = x*x, w = z*z. */
static inline v128_t
pb_ksin_poly(v128_t z)
{
    const v128_t w = pb_mul(z, z);
    return pb_add(
        pb_add(PB_F(8.33333333332248946124e-03),
               pb_mul(z, pb_add(PB_F(-1.98412698298579493134e-04),
                                pb_mul(z, PB_F(2.75573137070700676789e-06))))),
        pb_mul(pb_mul(z, w), pb_add(PB_F(-2.50507602534068634195e-08),
                                    pb_mul(z, PB_F(1.58969099521155010221e-10)))));
}

/* iy == 0 form (y is 0, no reduction happened): x + v*(S1 + z*r). */
static inline v128_t
pb_ksin0(v128_t x)
{
    const v128_t z = pb_mul(x, x);
    const v128_t r = pb_ksin_poly(z);
    const v128_t v = pb_mul(z, x);
    return pb_add(x, pb_mul(v, pb_add(PB_F(-1.66666666666666324348e-01), pb_mul(z, r))));
}

/* iy == 1 form: x - ((z*(0.5*y - v*r) - y) - v*S1). */
static inline v128_t
pb_ksin1(v128_t x, v128_t y)
{
    const v128_t z = pb_mul(x, x);
    const v128_t r = pb_ksin_poly(z);
    const v128_t v = pb_mul(z, x);
    const v128_t inner = pb_sub(pb_mul(z, pb_sub(pb_mul(PB_F(0.5), y), pb_mul(v, r))), y);
    return pb_sub(x, pb_sub(inner, pb_mul(v, PB_F(-1.66666666666666324348e-01))));
}

/* msun k_cos.c: cos on [-pi/4, pi/4] of x + y. */
static inline v128_t
pb_kcos(v128_t x, v128_t y)
{
    const v128_t z = pb_mul(x, x), w = pb_mul(z, z);
    const v128_t r = pb_add(
        pb_mul(z, pb_add(PB_F(4.16666666666666019037e-02),
                         pb_mul(z, pb_add(PB_F(-1.38888888888741095749e-03),
                                          pb_mul(z, PB_F(2.48015872894767294178e-05)))))),
        pb_mul(pb_mul(w, w),
               pb_add(PB_F(-2.75573143513906633035e-07),
                      pb_mul(z, pb_add(PB_F(2.08757232129817482790e-09),
                                       pb_mul(z, PB_F(-1.13596475577881948265e-11)))))));
    const v128_t hz = pb_mul(PB_F(0.5), z);
    const v128_t ww = pb_sub(PB_F(1.0), hz);
    return pb_add(ww, pb_add(pb_sub(pb_sub(PB_F(1.0), ww), hz),
                             pb_sub(pb_mul(z, r), pb_mul(x, y))));
}

/* Biased exponent of each lane, as i64. */
static inline v128_t
pb_exponent(v128_t x)
{
    return wasm_v128_and(wasm_u64x2_shr(x, 52), PB_I(0x7ff));
}

/*
 * msun e_rem_pio2.c for |x| in (pi/4, 2^20*pi/2): x = n*pi/2 + y0 + y1.
 * ix is the high word of |x| per lane (as i64). Returns n's low bits in
 * *q (i64 lanes). The "small" branches (|x| <= 9pi/4 away from multiples of
 * pi/2) use a fixed n and one reduction round; the medium branch rounds
 * x*2/pi and refines when cancellation took more than 16 (then 49) bits.
 */
static inline void
pb_rem_pio2(v128_t x, v128_t ix, v128_t *y0, v128_t *y1, v128_t *q)
{
    const v128_t neg = wasm_i64x2_lt(x, PB_I(0)); /* sign bit set */
    /* k for the small branches; 0 where the medium branch applies */
    const v128_t le_5pio4 = wasm_i64x2_le(ix, PB_I(0x400f6a7a));
    const v128_t le_3pio4 = wasm_i64x2_le(ix, PB_I(0x4002d97c));
    const v128_t le_9pio4 = wasm_i64x2_le(ix, PB_I(0x401c463b));
    const v128_t le_7pio4 = wasm_i64x2_le(ix, PB_I(0x4015fdbc));
    const v128_t near_pio2 = wasm_i64x2_eq(wasm_v128_and(ix, PB_I(0xfffff)), PB_I(0x921fb));
    const v128_t near_3pio2 = wasm_i64x2_eq(ix, PB_I(0x4012d97c));
    const v128_t near_4pio2 = wasm_i64x2_eq(ix, PB_I(0x401921fb));
    v128_t k = pb_sel(le_3pio4, PB_F(1.0), PB_F(2.0));
    k = pb_sel(le_5pio4, k, pb_sel(le_7pio4, PB_F(3.0), PB_F(4.0)));
    v128_t small = wasm_v128_or(
        wasm_v128_andnot(le_5pio4, near_pio2),
        wasm_v128_andnot(wasm_v128_andnot(le_9pio4, le_5pio4),
                         pb_sel(le_7pio4, near_3pio2, near_4pio2)));
    const v128_t fn_small = pb_sel(neg, wasm_f64x2_neg(k), k);
    const v128_t fn_med = wasm_f64x2_nearest(pb_mul(x, PB_F(6.36619772367581382433e-01)));
    const v128_t fn = pb_sel(small, fn_small, fn_med);

    v128_t r = pb_sub(x, pb_mul(fn, PB_F(1.57079632673412561417e+00)));
    v128_t w = pb_mul(fn, PB_F(6.07710050650619224932e-11));
    v128_t y = pb_sub(r, w);

    const v128_t ex = wasm_i64x2_shr(ix, 20);
    const v128_t round2 = wasm_v128_andnot(
        wasm_i64x2_gt(wasm_i64x2_sub(ex, pb_exponent(y)), PB_I(16)), small);
    if (wasm_v128_any_true(round2)) {
        v128_t t = r;
        v128_t w2 = pb_mul(fn, PB_F(6.07710050630396597660e-11));
        v128_t r2 = pb_sub(t, w2);
        w2 = pb_sub(pb_mul(fn, PB_F(2.02226624879595063154e-21)), pb_sub(pb_sub(t, r2), w2));
        v128_t y2 = pb_sub(r2, w2);
        const v128_t round3 = wasm_v128_and(
            round2, wasm_i64x2_gt(wasm_i64x2_sub(ex, pb_exponent(y2)), PB_I(49)));
        if (wasm_v128_any_true(round3)) {
            t = r2;
            v128_t w3 = pb_mul(fn, PB_F(2.02226624871116645580e-21));
            v128_t r3 = pb_sub(t, w3);
            w3 = pb_sub(pb_mul(fn, PB_F(8.47842766036889956997e-32)), pb_sub(pb_sub(t, r3), w3));
            v128_t y3 = pb_sub(r3, w3);
            r2 = pb_sel(round3, r3, r2);
            w2 = pb_sel(round3, w3, w2);
            y2 = pb_sel(round3, y3, y2);
        }
        r = pb_sel(round2, r2, r);
        w = pb_sel(round2, w2, w);
        y = pb_sel(round2, y2, y);
    }
    *y0 = y;
    *y1 = pb_sub(pb_sub(r, y), w);
    /* n's low bits: fn + 1.5*2^52 holds n in its low mantissa bits */
    *q = wasm_v128_and(pb_add(fn, PB_F(6755399441055744.0)), PB_I(3));
}

/* Lanes with |x| >= 2^20*pi/2 (or Inf/NaN): libm, one lane at a time. */
static __attribute__((noinline)) v128_t
pb_sincos_libm(v128_t x, v128_t res, v128_t large, int is_cos)
{
    double l0 = wasm_f64x2_extract_lane(x, 0), l1 = wasm_f64x2_extract_lane(x, 1);
    double r0 = wasm_f64x2_extract_lane(res, 0), r1 = wasm_f64x2_extract_lane(res, 1);
    if (wasm_i64x2_extract_lane(large, 0)) {
        r0 = is_cos ? cos(l0) : sin(l0);
    }
    if (wasm_i64x2_extract_lane(large, 1)) {
        r1 = is_cos ? cos(l1) : sin(l1);
    }
    return wasm_f64x2_make(r0, r1);
}

/* The lanes of res with |x| > pi/4 replaced by their reduced evaluation.
 * Kept out of line: inlined, its size makes the common |x| <= pi/4 loop
 * several times slower under wazero. */
static __attribute__((noinline)) v128_t
pb_sincos_reduced(v128_t x, v128_t ix, v128_t res, v128_t unreduced, int is_cos)
{
    v128_t y0, y1, q, s, c, odd, flip, red, large;
    pb_rem_pio2(x, ix, &y0, &y1, &q);
    s = pb_ksin1(y0, y1);
    c = pb_kcos(y0, y1);
    odd = wasm_i64x2_eq(wasm_v128_and(q, PB_I(1)), PB_I(1));
    if (is_cos) {
        /* n&3: 0 cos, 1 -sin, 2 -cos, 3 sin */
        red = pb_sel(odd, s, c);
        flip = wasm_i64x2_eq(wasm_v128_and(wasm_i64x2_add(q, PB_I(1)), PB_I(2)), PB_I(2));
    }
    else {
        /* n&3: 0 sin, 1 cos, 2 -sin, 3 -cos */
        red = pb_sel(odd, c, s);
        flip = wasm_i64x2_eq(wasm_v128_and(q, PB_I(2)), PB_I(2));
    }
    red = pb_sel(flip, wasm_f64x2_neg(red), red);
    res = pb_sel(unreduced, res, red);
    large = wasm_i64x2_ge(ix, PB_I(0x413921fb));
    if (wasm_v128_any_true(large)) {
        res = pb_sincos_libm(x, res, large, is_cos);
    }
    return res;
}

/* The double whose bits are hi:00000000 (hi a high word). */
static inline double
pb_hi(uint32_t hi)
{
    union { uint64_t i; double f; } u = { (uint64_t)hi << 32 };
    return u.f;
}

/*
 * pi/4 < |x| <= 3pi/4 away from pi/2's high word (e_rem_pio2.c's first
 * small branch): n = +-1, one round of reduction, and one kernel: sin(x) =
 * +-cos(y), cos(x) = -+sin(y). Lanes with |x| <= pi/4 keep res.
 */
static inline v128_t
pb_sincos_near(v128_t x, v128_t res, v128_t unreduced, int is_cos)
{
    const v128_t sign = wasm_v128_and(x, PB_I((int64_t)0x8000000000000000ULL));
    const v128_t fn = wasm_v128_or(PB_F(1.0), sign); /* copysign(1, x) */
    const v128_t z = pb_sub(x, pb_mul(fn, PB_F(1.57079632673412561417e+00)));
    const v128_t w = pb_mul(fn, PB_F(6.07710050650619224932e-11));
    const v128_t y0 = pb_sub(z, w);
    const v128_t y1 = pb_sub(pb_sub(z, y0), w);
    v128_t red;
    if (is_cos) {
        /* n = 1: -sin(y); n = -1 (n&3 == 3): sin(y) */
        red = wasm_v128_xor(pb_ksin1(y0, y1), wasm_v128_xor(sign, PB_I((int64_t)0x8000000000000000ULL)));
    }
    else {
        /* n = 1: cos(y); n = -1: -cos(y) */
        red = wasm_v128_xor(pb_kcos(y0, y1), sign);
    }
    return pb_sel(unreduced, res, red);
}

/* sin (is_cos 0) or cos (is_cos 1) of two lanes, as msun's s_sin.c/s_cos.c. */
static inline v128_t
pb_sincos(v128_t x, int is_cos)
{
    const v128_t ax = wasm_f64x2_abs(x);
    /* high word of |x| <= H  <=>  |x| < the double with high word H+1
     * (false for NaN) */
    const v128_t tiny = wasm_f64x2_lt(ax, PB_F(pb_hi(is_cos ? 0x3e46a09e : 0x3e500000)));
    const v128_t unreduced = wasm_f64x2_lt(ax, PB_F(pb_hi(0x3fe921fb + 1)));
    const v128_t ix = wasm_u64x2_shr(ax, 32);
    const v128_t near = wasm_v128_andnot(
        wasm_f64x2_lt(ax, PB_F(pb_hi(0x4002d97c + 1))),
        wasm_i64x2_eq(wasm_v128_and(ix, PB_I(0xfffff)), PB_I(0x921fb)));
    /* |x| <= pi/4: no reduction */
    v128_t res = is_cos ? pb_sel(tiny, PB_F(1.0), pb_kcos(x, PB_F(0.0)))
                        : pb_sel(tiny, x, pb_ksin0(x));
    if (wasm_i64x2_all_true(unreduced)) {
        return res;
    }
    if (wasm_i64x2_all_true(near)) {
        /* |x| <= 3pi/4 (the common case for data around 0): no branch
         * on which lanes need reduction */
        return pb_sincos_near(x, res, unreduced, is_cos);
    }
    return pb_sincos_reduced(x, ix, res, unreduced, is_cos);
}

/* Whole strided loop: dst[i] = sin or cos of src[i], any steps. */
static inline void
pybox_sincos_f64(const char *s, ptrdiff_t ss, char *d, ptrdiff_t sd, ptrdiff_t n, int is_cos)
{
    ptrdiff_t i = 0;
    if (!pybox_overlap(s, ss, d, sd, n)) {
        if (ss == 8 && sd == 8) {
            PYBOX_UNROLL
            for (; i + 2 <= n; i += 2) {
                wasm_v128_store(d + i * 8, pb_sincos(wasm_v128_load(s + i * 8), is_cos));
            }
        }
        else {
            for (; i + 2 <= n; i += 2) {
                const v128_t x = wasm_f64x2_make(*(const double *)(s + i * ss),
                                                 *(const double *)(s + (i + 1) * ss));
                const v128_t r = pb_sincos(x, is_cos);
                *(double *)(d + i * sd) = wasm_f64x2_extract_lane(r, 0);
                *(double *)(d + (i + 1) * sd) = wasm_f64x2_extract_lane(r, 1);
            }
        }
    }
    for (; i < n; i++) {
        const v128_t r = pb_sincos(wasm_f64x2_splat(*(const double *)(s + i * ss)), is_cos);
        *(double *)(d + i * sd) = wasm_f64x2_extract_lane(r, 0);
    }
}


/* ---- float64 / float32 matmul without BLAS ---------------------------- */

/*
 * out[m][p] = sum over n of a[m][n] * b[n][p] for a dm x dn times dn x dp
 * product, where rows of b and of out are unit-stride (a may have any
 * strides; all strides in bytes). Like numpy's no-BLAS loop, every output
 * element starts at 0 and adds a[m][n]*b[n][p] for n = 0, 1, ... in order,
 * so the result is the same bit for bit; the work is tiled (4 rows x 2
 * vectors of columns held in eight registers, n in blocks that stay in
 * cache) so each loaded value is used several times.
 */
#define PYBOX_MATMUL(NAME, T, VADD, VMUL, SPLAT)                               \
static inline void                                                            \
NAME(const char *a, ptrdiff_t as_m, ptrdiff_t as_n,                           \
     const char *b, ptrdiff_t bs_n, char *out, ptrdiff_t os_m,                \
     ptrdiff_t dm, ptrdiff_t dn, ptrdiff_t dp)                                \
{                                                                             \
    enum { KC = 128, W = 16 / sizeof(T) };                                    \
    ptrdiff_t m, n0, p;                                                       \
    for (m = 0; m < dm; m++) {                                                \
        T *o = (T *)(out + m * os_m);                                         \
        for (p = 0; p < dp; p++) {                                            \
            o[p] = 0;                                                         \
        }                                                                     \
    }                                                                         \
    for (n0 = 0; n0 < dn; n0 += KC) {                                         \
        const ptrdiff_t n1 = n0 + KC < dn ? n0 + KC : dn;                     \
        for (m = 0; m + 4 <= dm; m += 4) {                                    \
            const char *a0 = a + m * as_m, *a1 = a0 + as_m;                   \
            const char *a2 = a1 + as_m, *a3 = a2 + as_m;                      \
            T *o0 = (T *)(out + m * os_m), *o1 = (T *)(out + (m + 1) * os_m); \
            T *o2 = (T *)(out + (m + 2) * os_m), *o3 = (T *)(out + (m + 3) * os_m); \
            for (p = 0; p + 2 * W <= dp; p += 2 * W) {                        \
                v128_t c00 = wasm_v128_load(o0 + p), c01 = wasm_v128_load(o0 + p + W); \
                v128_t c10 = wasm_v128_load(o1 + p), c11 = wasm_v128_load(o1 + p + W); \
                v128_t c20 = wasm_v128_load(o2 + p), c21 = wasm_v128_load(o2 + p + W); \
                v128_t c30 = wasm_v128_load(o3 + p), c31 = wasm_v128_load(o3 + p + W); \
                const char *bp = b + n0 * bs_n + p * sizeof(T);               \
                ptrdiff_t n;                                                  \
                PYBOX_UNROLL                                                  \
                for (n = n0; n < n1; n++, bp += bs_n) {                       \
                    const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 16); \
                    v128_t x = SPLAT(a0 + n * as_n);                          \
                    c00 = VADD(c00, VMUL(x, b0)); c01 = VADD(c01, VMUL(x, b1)); \
                    x = SPLAT(a1 + n * as_n);                                 \
                    c10 = VADD(c10, VMUL(x, b0)); c11 = VADD(c11, VMUL(x, b1)); \
                    x = SPLAT(a2 + n * as_n);                                 \
                    c20 = VADD(c20, VMUL(x, b0)); c21 = VADD(c21, VMUL(x, b1)); \
                    x = SPLAT(a3 + n * as_n);                                 \
                    c30 = VADD(c30, VMUL(x, b0)); c31 = VADD(c31, VMUL(x, b1)); \
                }                                                             \
                wasm_v128_store(o0 + p, c00); wasm_v128_store(o0 + p + W, c01); \
                wasm_v128_store(o1 + p, c10); wasm_v128_store(o1 + p + W, c11); \
                wasm_v128_store(o2 + p, c20); wasm_v128_store(o2 + p + W, c21); \
                wasm_v128_store(o3 + p, c30); wasm_v128_store(o3 + p + W, c31); \
            }                                                                 \
            for (; p < dp; p++) {                                             \
                T s0 = o0[p], s1 = o1[p], s2 = o2[p], s3 = o3[p];             \
                const char *bp = b + n0 * bs_n + p * sizeof(T);               \
                ptrdiff_t n;                                                  \
                for (n = n0; n < n1; n++, bp += bs_n) {                       \
                    const T bv = *(const T *)bp;                              \
                    s0 += *(const T *)(a0 + n * as_n) * bv;                   \
                    s1 += *(const T *)(a1 + n * as_n) * bv;                   \
                    s2 += *(const T *)(a2 + n * as_n) * bv;                   \
                    s3 += *(const T *)(a3 + n * as_n) * bv;                   \
                }                                                             \
                o0[p] = s0; o1[p] = s1; o2[p] = s2; o3[p] = s3;               \
            }                                                                 \
        }                                                                     \
        for (; m < dm; m++) {                                                 \
            const char *a0 = a + m * as_m;                                    \
            T *o0 = (T *)(out + m * os_m);                                    \
            for (p = 0; p + W <= dp; p += W) {                                \
                v128_t c0 = wasm_v128_load(o0 + p);                           \
                const char *bp = b + n0 * bs_n + p * sizeof(T);               \
                ptrdiff_t n;                                                  \
                for (n = n0; n < n1; n++, bp += bs_n) {                       \
                    c0 = VADD(c0, VMUL(SPLAT(a0 + n * as_n), wasm_v128_load(bp))); \
                }                                                             \
                wasm_v128_store(o0 + p, c0);                                  \
            }                                                                 \
            for (; p < dp; p++) {                                             \
                T s0 = o0[p];                                                 \
                const char *bp = b + n0 * bs_n + p * sizeof(T);               \
                ptrdiff_t n;                                                  \
                for (n = n0; n < n1; n++, bp += bs_n) {                       \
                    s0 += *(const T *)(a0 + n * as_n) * *(const T *)bp;       \
                }                                                             \
                o0[p] = s0;                                                   \
            }                                                                 \
        }                                                                     \
    }                                                                         \
}

PYBOX_MATMUL(pybox_matmul_f64, double, wasm_f64x2_add, wasm_f64x2_mul, wasm_v128_load64_splat)
PYBOX_MATMUL(pybox_matmul_f32, float, wasm_f32x4_add, wasm_f32x4_mul, wasm_v128_load32_splat)

#undef PB_F
#undef PB_I
#undef pb_add
#undef pb_sub
#undef pb_mul
#undef pb_sel

#endif /* __wasm_simd128__ */
#endif /* PYBOX_SIMD_H */
