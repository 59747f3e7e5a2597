package frontend

import (
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// lowerRelaxedVec lowers the relaxed SIMD instruction op (the
// experimental.CoreFeaturesRelaxedSIMD feature). Relaxed multiply-adds
// become ssa.OpcodeVFmadd and ssa.OpcodeVFnmadd, which a backend may fuse;
// the dot products are composed from deterministic instructions; for every
// other instruction lowered is false and same is the deterministic vector
// instruction to lower in its place, one of the results the proposal allows
// (https://github.com/WebAssembly/relaxed-simd, Overview.md):
//
//   - relaxed_swizzle: swizzle (an index from 16 selects 0);
//   - relaxed_trunc: trunc_sat (NaN is 0, out of range saturates);
//   - relaxed_laneselect: bitselect;
//   - relaxed_min and relaxed_max: min and max;
//   - relaxed_q15mulr_s: q15mulr_sat_s (INT16_MIN*INT16_MIN is INT16_MAX).
func (c *Compiler) lowerRelaxedVec(op wasm.OpcodeVecRelaxed) (same wasm.OpcodeVec, lowered bool) {
	switch op {
	case wasm.OpcodeVecRelaxedI8x16Swizzle:
		return wasm.OpcodeVecI8x16Swizzle, false
	case wasm.OpcodeVecRelaxedI32x4TruncF32x4S:
		return wasm.OpcodeVecI32x4TruncSatF32x4S, false
	case wasm.OpcodeVecRelaxedI32x4TruncF32x4U:
		return wasm.OpcodeVecI32x4TruncSatF32x4U, false
	case wasm.OpcodeVecRelaxedI32x4TruncF64x2SZero:
		return wasm.OpcodeVecI32x4TruncSatF64x2SZero, false
	case wasm.OpcodeVecRelaxedI32x4TruncF64x2UZero:
		return wasm.OpcodeVecI32x4TruncSatF64x2UZero, false
	case wasm.OpcodeVecRelaxedI8x16Laneselect, wasm.OpcodeVecRelaxedI16x8Laneselect,
		wasm.OpcodeVecRelaxedI32x4Laneselect, wasm.OpcodeVecRelaxedI64x2Laneselect:
		return wasm.OpcodeVecV128Bitselect, false
	case wasm.OpcodeVecRelaxedF32x4Min:
		return wasm.OpcodeVecF32x4Min, false
	case wasm.OpcodeVecRelaxedF32x4Max:
		return wasm.OpcodeVecF32x4Max, false
	case wasm.OpcodeVecRelaxedF64x2Min:
		return wasm.OpcodeVecF64x2Min, false
	case wasm.OpcodeVecRelaxedF64x2Max:
		return wasm.OpcodeVecF64x2Max, false
	case wasm.OpcodeVecRelaxedI16x8Q15mulrS:
		return wasm.OpcodeVecI16x8Q15mulrSatS, false
	}

	state := c.state()
	if state.unreachable {
		return 0, true
	}
	builder := c.ssaBuilder
	switch op {
	case wasm.OpcodeVecRelaxedF32x4Madd, wasm.OpcodeVecRelaxedF32x4Nmadd,
		wasm.OpcodeVecRelaxedF64x2Madd, wasm.OpcodeVecRelaxedF64x2Nmadd:
		lane := ssa.VecLaneF32x4
		if op == wasm.OpcodeVecRelaxedF64x2Madd || op == wasm.OpcodeVecRelaxedF64x2Nmadd {
			lane = ssa.VecLaneF64x2
		}
		negate := op == wasm.OpcodeVecRelaxedF32x4Nmadd || op == wasm.OpcodeVecRelaxedF64x2Nmadd
		z := state.pop()
		y := state.pop()
		x := state.pop()
		state.push(builder.AllocateInstruction().AsVFmadd(x, y, z, lane, negate).Insert(builder).Return())
	case wasm.OpcodeVecRelaxedI16x8DotI8x16I7x16S:
		y := state.pop()
		x := state.pop()
		state.push(c.relaxedDotI8x16(x, y))
	case wasm.OpcodeVecRelaxedI32x4DotI8x16I7x16AddS:
		z := state.pop()
		y := state.pop()
		x := state.pop()
		dot := c.relaxedDotI8x16(x, y)
		sums := builder.AllocateInstruction().AsExtIaddPairwise(dot, ssa.VecLaneI16x8, true).Insert(builder).Return()
		state.push(builder.AllocateInstruction().AsVIadd(sums, z, ssa.VecLaneI32x4).Insert(builder).Return())
	default:
		panic("BUG: unknown relaxed SIMD instruction " + wasm.RelaxedVectorInstructionName(op))
	}
	return 0, true
}

// relaxedDotI8x16 returns i16x8.relaxed_dot_i8x16_i7x16_s(x, y): lane i is
// x[2i]*y[2i] + x[2i+1]*y[2i+1], the bytes taken as signed (the choice the
// proposal allows for a y byte from 128), wrapped to 16 bits. The bytes are
// widened to i16, multiplied and summed in pairs to i32 by i32x4.dot_i16x8_s,
// and the low halves of the eight sums are shuffled together.
func (c *Compiler) relaxedDotI8x16(x, y ssa.Value) ssa.Value {
	builder := c.ssaBuilder
	widen := func(v ssa.Value, low bool) ssa.Value {
		return builder.AllocateInstruction().AsWiden(v, ssa.VecLaneI8x16, true, low).Insert(builder).Return()
	}
	lo := builder.AllocateInstruction().AsWideningPairwiseDotProductS(widen(x, true), widen(y, true)).Insert(builder).Return()
	hi := builder.AllocateInstruction().AsWideningPairwiseDotProductS(widen(x, false), widen(y, false)).Insert(builder).Return()
	return builder.AllocateInstruction().AsShuffle(lo, hi, relaxedDotLowHalves[:]).Insert(builder).Return()
}

// relaxedDotLowHalves selects the low 16 bits of each i32 lane of two
// vectors: bytes 0, 1, 4, 5, 8, 9, 12, 13 of the first and the same of the
// second (16 and up).
var relaxedDotLowHalves = [16]byte{0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29}
