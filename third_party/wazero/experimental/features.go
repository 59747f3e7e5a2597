package experimental

import "github.com/tetratelabs/wazero/api"

// CoreFeaturesThreads enables threads instructions ("threads").
//
// # Notes
//
//   - The instruction list is too long to enumerate in godoc.
//     See https://github.com/WebAssembly/threads/blob/main/proposals/threads/Overview.md
//   - Atomic operations are guest-only until api.Memory or otherwise expose them to host functions.
//   - On systems without mmap available, the memory will pre-allocate to the maximum size. Many
//     binaries will use a theroetical maximum like 4GB, so if using such a binary on a system
//     without mmap, consider editing the binary to reduce the max size setting of memory.
const CoreFeaturesThreads = api.CoreFeatureSIMD << 1

// CoreFeaturesTailCall enables tail call instructions ("tail-call").
const CoreFeaturesTailCall = api.CoreFeatureSIMD << 2

// CoreFeaturesExtendedConst enables extended constant expressions.
//
// # Notes
//
//   - Enables i32.add/sub/mul and i64.add/sub/mul in constant expressions.
//   - Enables references to any previous global index in constant expressions,
//     instead of just imported globals.
//
// See https://github.com/WebAssembly/extended-const for further details.
const CoreFeaturesExtendedConst = api.CoreFeatureSIMD << 3

// CoreFeaturesExceptionHandling enables exception handling instructions.
//
// See https://github.com/WebAssembly/exception-handling for further details.
const CoreFeaturesExceptionHandling = api.CoreFeatureSIMD << 4

// CoreFeaturesTypedFunctionReferences enables typed function references.
//
// See https://github.com/WebAssembly/function-references for further details.
const CoreFeaturesTypedFunctionReferences = api.CoreFeatureSIMD << 5

// CoreFeaturesRelaxedSIMD enables the relaxed SIMD instructions
// ("relaxed-simd", part of WebAssembly 3.0): opcodes 0xfd 0x100 to 0x113,
// such as f64x2.relaxed_madd. It requires api.CoreFeatureSIMD.
//
// # Notes
//
//   - Only the compiler engine implements it; the interpreter rejects a
//     module that uses a relaxed SIMD instruction.
//   - The results of these instructions may differ between hosts, as the
//     proposal allows: on amd64 with FMA and on arm64, relaxed_madd and
//     relaxed_nmadd are fused (one rounding), elsewhere a multiplication
//     and an addition (two roundings). The other instructions behave as
//     their deterministic SIMD counterparts (relaxed_swizzle as swizzle,
//     relaxed_trunc as trunc_sat, relaxed_laneselect as bitselect,
//     relaxed_min/max as min/max, relaxed_q15mulr_s as q15mulr_sat_s).
//
// See https://github.com/WebAssembly/relaxed-simd for further details.
const CoreFeaturesRelaxedSIMD = api.CoreFeatureSIMD << 6
