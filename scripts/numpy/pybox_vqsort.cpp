/*
 * pybox: numpy's quicksort and argsort on Highway's VQSort, compiled
 * statically for wasm SIMD128 (HWY_WASM). numpy ships Highway and uses the
 * same VQSortStatic for sort on Arm through CPU dispatch; this build has no
 * dispatch (no wasm target), so quicksort.cpp calls these directly when
 * compiled with -msimd128 (scripts/numpy/vqsort.patch).
 *
 * Sort: VQSortStatic on the keys. NaN go last (Highway moves them there
 * and writes its canonical NaN, as x86-simd-sort does for native numpy).
 * Equal keys: no order promised (quicksort is not stable in numpy either).
 *
 * ArgSort: each (key, index) pair is packed into one uint64 whose order is
 * the key's order, then the index's (for 64-bit keys a prefix of the key,
 * see ArgSort64). Floats map through their sign to an
 * unsigned order; every NaN maps to the largest code and -0.0 to +0.0's, so
 * NaN go last and equal keys (incl. -0.0 == 0.0, NaN among NaN) keep index
 * order: the result is the stable argsort, though numpy only promises that
 * for kind='stable'. The pairs need a temporary buffer; without memory (or
 * below the sizes where it pays, see kArgMin) the caller falls back to
 * numpy's scalar introsort.
 */
#define _WASI_EMULATED_PROCESS_CLOCKS 1 /* clock(): Highway's sort seed */
#define VQSORT_ONLY_STATIC 1
#include "hwy/highway.h"
#include "hwy/contrib/sort/vqsort-inl.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "pybox_vqsort.hpp"

#if !VQSORT_ENABLED || HWY_TARGET != HWY_WASM
#error "pybox_vqsort.cpp expects Highway's VQSort for HWY_WASM (-msimd128)"
#endif

namespace hn = hwy::HWY_NAMESPACE;

namespace np::pybox_vqsort {

namespace {

/* Below these sizes numpy's scalar introsort was faster in pybox
 * (docs/runtime-bundle.md has the size sweep): VQSort's fixed costs on
 * 2- and 4-lane vectors, and the scalar code's data still in cache. */
constexpr intptr_t kSortMin32 = 1024;   /* 16- and 32-bit keys */
constexpr intptr_t kSortMin64 = 16384;  /* 64-bit keys */
constexpr intptr_t kArgMin = 32768;     /* argsort, any key size */

/* Order-preserving unsigned code of a key (see the comment at the top). */
template <typename T>
inline auto OrderCode(T x)
{
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
        if (x != x) {
            return static_cast<U>(~U(0));
        }
        if (x == 0) {
            x = 0;  /* -0.0 sorts with +0.0 */
        }
        U b;
        std::memcpy(&b, &x, sizeof b);
        return (b & sign) ? static_cast<U>(~b) : static_cast<U>(b | sign);
    }
    else if constexpr (std::is_signed_v<T>) {
        using U = std::make_unsigned_t<T>;
        constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
        return static_cast<U>(static_cast<U>(x) ^ sign);
    }
    else {
        return x;
    }
}

}  // namespace

template <typename T>
bool Sort(T *keys, intptr_t n)
{
    if (n < (sizeof(T) == 8 ? kSortMin64 : kSortMin32)) {
        return false;
    }
    hn::VQSortStatic(keys, static_cast<size_t>(n), hwy::SortAscending());
    return true;
}

/* 64-bit keys: sorting (key, index) as 128-bit lanes measured slower than
 * numpy's scalar argsort (Highway compares 128-bit keys lane pair by lane
 * pair). Instead the pair is one uint64: a 31-bit prefix of the key's
 * offset from the smallest key (exact when all keys lie within 2^31 of
 * each other, e.g. most integer data) and the index. Runs of equal
 * prefixes whose keys may differ are then sorted by (key, index). NaN get
 * the prefix 0xFFFFFFFF, above every other. */
template <typename T>
static void ArgSort64(const T *v, intptr_t *tosort, intptr_t n,
                      uint64_t *pairs)
{
    using U = uint64_t;
    constexpr U kNaN = ~U(0);
    U lo = kNaN, hi = 0;
    for (intptr_t i = 0; i < n; i++) {
        U c = OrderCode(v[tosort[i]]);
        if (c != kNaN) {
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
    }
    int shift = 0;
    if (lo <= hi) {
        U span = hi - lo;
        int bits = span ? 64 - __builtin_clzll(span) : 0;
        shift = bits > 31 ? bits - 31 : 0;
    }
    for (intptr_t i = 0; i < n; i++) {
        uint32_t j = static_cast<uint32_t>(tosort[i]);
        U c = OrderCode(v[j]);
        U prefix = c == kNaN ? 0xFFFFFFFFu : (c - lo) >> shift;
        pairs[i] = (prefix << 32) | j;
    }
    hn::VQSortStatic(pairs, static_cast<size_t>(n), hwy::SortAscending());
    if (shift != 0) {
        auto less = [v](uint64_t a, uint64_t b) {
            U ca = OrderCode(v[static_cast<uint32_t>(a)]);
            U cb = OrderCode(v[static_cast<uint32_t>(b)]);
            return ca != cb ? ca < cb : a < b;
        };
        for (intptr_t s = 0; s < n;) {
            intptr_t e = s + 1;
            while (e < n && (pairs[e] >> 32) == (pairs[s] >> 32)) {
                e++;
            }
            if (e - s > 1 && (pairs[s] >> 32) != 0xFFFFFFFFu) {
                std::sort(pairs + s, pairs + e, less);
            }
            s = e;
        }
    }
}

template <typename T>
bool ArgSort(const T *v, intptr_t *tosort, intptr_t n)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit keys");
    static_assert(sizeof(intptr_t) == 4, "indices packed in 32 bits");
    if (n < kArgMin) {
        return false;
    }
    uint64_t *pairs =
            static_cast<uint64_t *>(std::malloc(sizeof(uint64_t) * n));
    if (pairs == nullptr) {
        return false;
    }
    if constexpr (sizeof(T) == 4) {
        for (intptr_t i = 0; i < n; i++) {
            uint32_t j = static_cast<uint32_t>(tosort[i]);
            pairs[i] = (static_cast<uint64_t>(OrderCode(v[j])) << 32) | j;
        }
        hn::VQSortStatic(pairs, static_cast<size_t>(n), hwy::SortAscending());
    }
    else {
        ArgSort64(v, tosort, n, pairs);
    }
    for (intptr_t i = 0; i < n; i++) {
        tosort[i] = static_cast<intptr_t>(static_cast<uint32_t>(pairs[i]));
    }
    std::free(pairs);
    return true;
}

template bool Sort<int16_t>(int16_t *, intptr_t);
template bool Sort<uint16_t>(uint16_t *, intptr_t);
template bool Sort<int32_t>(int32_t *, intptr_t);
template bool Sort<uint32_t>(uint32_t *, intptr_t);
template bool Sort<int64_t>(int64_t *, intptr_t);
template bool Sort<uint64_t>(uint64_t *, intptr_t);
template bool Sort<float>(float *, intptr_t);
template bool Sort<double>(double *, intptr_t);

template bool ArgSort<int32_t>(const int32_t *, intptr_t *, intptr_t);
template bool ArgSort<uint32_t>(const uint32_t *, intptr_t *, intptr_t);
template bool ArgSort<int64_t>(const int64_t *, intptr_t *, intptr_t);
template bool ArgSort<uint64_t>(const uint64_t *, intptr_t *, intptr_t);
template bool ArgSort<float>(const float *, intptr_t *, intptr_t);
template bool ArgSort<double>(const double *, intptr_t *, intptr_t);

}  // namespace np::pybox_vqsort
