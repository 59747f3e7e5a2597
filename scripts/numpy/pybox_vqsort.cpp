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
 * ArgSort: each (key, index) pair is packed into one unsigned integer whose
 * order is the key's order, then the index's: 64-bit lanes for 32-bit keys,
 * Highway's uint128_t for 64-bit keys. Floats map through their sign to an
 * unsigned order; every NaN maps to the largest code and -0.0 to +0.0's, so
 * NaN go last and equal keys (incl. -0.0 == 0.0, NaN among NaN) keep index
 * order: the result is the stable argsort, though numpy only promises that
 * for kind='stable'. The pairs need a temporary buffer; without memory (or
 * for tiny inputs) the caller falls back to numpy's scalar introsort.
 */
#define _WASI_EMULATED_PROCESS_CLOCKS 1 /* clock(): Highway's sort seed */
#define VQSORT_ONLY_STATIC 1
#include "hwy/highway.h"
#include "hwy/contrib/sort/vqsort-inl.h"

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

/* Below this many elements the scalar argsort is as fast and needs no
 * buffer. */
constexpr intptr_t kArgMin = 16;

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
void Sort(T *keys, intptr_t n)
{
    if (n > 1) {
        hn::VQSortStatic(keys, static_cast<size_t>(n), hwy::SortAscending());
    }
}

template <typename T>
bool ArgSort(const T *v, intptr_t *tosort, intptr_t n)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit keys");
    if (n < kArgMin) {
        return false;
    }
    using Idx = std::make_unsigned_t<intptr_t>;
    if constexpr (sizeof(T) == 4 && sizeof(intptr_t) == 4) {
        uint64_t *pairs =
                static_cast<uint64_t *>(std::malloc(sizeof(uint64_t) * n));
        if (pairs == nullptr) {
            return false;
        }
        for (intptr_t i = 0; i < n; i++) {
            Idx j = static_cast<Idx>(tosort[i]);
            pairs[i] = (static_cast<uint64_t>(OrderCode(v[j])) << 32) | j;
        }
        hn::VQSortStatic(pairs, static_cast<size_t>(n), hwy::SortAscending());
        for (intptr_t i = 0; i < n; i++) {
            tosort[i] = static_cast<intptr_t>(static_cast<Idx>(pairs[i]));
        }
        std::free(pairs);
    }
    else {
        hwy::uint128_t *pairs = static_cast<hwy::uint128_t *>(
                std::malloc(sizeof(hwy::uint128_t) * n));
        if (pairs == nullptr) {
            return false;
        }
        for (intptr_t i = 0; i < n; i++) {
            Idx j = static_cast<Idx>(tosort[i]);
            pairs[i].hi = static_cast<uint64_t>(OrderCode(v[j]));
            pairs[i].lo = j;
        }
        hn::VQSortStatic(pairs, static_cast<size_t>(n), hwy::SortAscending());
        for (intptr_t i = 0; i < n; i++) {
            tosort[i] = static_cast<intptr_t>(static_cast<Idx>(pairs[i].lo));
        }
        std::free(pairs);
    }
    return true;
}

template void Sort<int16_t>(int16_t *, intptr_t);
template void Sort<uint16_t>(uint16_t *, intptr_t);
template void Sort<int32_t>(int32_t *, intptr_t);
template void Sort<uint32_t>(uint32_t *, intptr_t);
template void Sort<int64_t>(int64_t *, intptr_t);
template void Sort<uint64_t>(uint64_t *, intptr_t);
template void Sort<float>(float *, intptr_t);
template void Sort<double>(double *, intptr_t);

template bool ArgSort<int32_t>(const int32_t *, intptr_t *, intptr_t);
template bool ArgSort<uint32_t>(const uint32_t *, intptr_t *, intptr_t);
template bool ArgSort<int64_t>(const int64_t *, intptr_t *, intptr_t);
template bool ArgSort<uint64_t>(const uint64_t *, intptr_t *, intptr_t);
template bool ArgSort<float>(const float *, intptr_t *, intptr_t);
template bool ArgSort<double>(const double *, intptr_t *, intptr_t);

}  // namespace np::pybox_vqsort
