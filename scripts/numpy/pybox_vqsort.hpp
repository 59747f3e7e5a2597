/*
 * pybox: Highway's VQSort for numpy's quicksort/argsort on wasm SIMD128
 * (pybox_vqsort.cpp; hooked into quicksort.cpp by scripts/numpy/vqsort.patch).
 */
#ifndef PYBOX_VQSORT_HPP
#define PYBOX_VQSORT_HPP

#include <cstdint>

namespace np::pybox_vqsort {

/* Sorts keys[0..n) ascending, NaN last. Instantiated for 16-, 32- and
 * 64-bit integers, float and double. Returns false (keys untouched) for
 * sizes where numpy's scalar sort is faster: then the caller sorts. */
template <typename T>
bool Sort(T *keys, intptr_t n);

/* Reorders tosort[0..n) (indices into v) so that v[tosort] is ascending,
 * NaN last, equal keys in index order. Instantiated for 32- and 64-bit
 * integers, float and double. Returns false (tosort untouched) when it
 * does not handle the input: then the caller sorts. */
template <typename T>
bool ArgSort(const T *v, intptr_t *tosort, intptr_t n);

}  // namespace np::pybox_vqsort

#endif
