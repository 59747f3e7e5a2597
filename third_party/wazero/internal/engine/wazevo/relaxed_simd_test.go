package wazevo_test

import (
	"context"
	"encoding/binary"
	"math"
	"runtime"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// relaxedSIMDModule exports one function per relaxed SIMD instruction (pybox
// patch: relaxed SIMD), named as the instruction, taking its v128 operands
// as parameters. extra is appended as one more function using opcode
// 0x100+extra (to test an unknown one).
func relaxedSIMDModule(t *testing.T, extra ...byte) []byte {
	v := wasm.ValueTypeV128
	types := []wasm.FunctionType{
		{Params: []wasm.ValueType{v}, Results: []wasm.ValueType{v}},
		{Params: []wasm.ValueType{v, v}, Results: []wasm.ValueType{v}},
		{Params: []wasm.ValueType{v, v, v}, Results: []wasm.ValueType{v}},
	}
	m := &wasm.Module{TypeSection: types}
	ops := []byte{}
	for op := byte(0); op < 0x14; op++ {
		ops = append(ops, op)
	}
	ops = append(ops, extra...)
	for i, op := range ops {
		n := wasm.RelaxedVecOperands(op)
		if n == 0 {
			n = 2
		}
		var body []byte
		for l := 0; l < n; l++ {
			body = append(body, wasm.OpcodeLocalGet, byte(l))
		}
		// The opcode 0x100+op as LEB128: 0x80|op, 0x02.
		body = append(body, wasm.OpcodeVecPrefix, 0x80|op, 0x02, wasm.OpcodeEnd)
		m.FunctionSection = append(m.FunctionSection, wasm.Index(n-1))
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: body})
		name := wasm.RelaxedVectorInstructionName(op)
		m.ExportSection = append(m.ExportSection, wasm.Export{Type: wasm.ExternTypeFunc, Name: name, Index: wasm.Index(i)})
	}
	return binaryencoding.EncodeModule(m)
}

func v128Bytes(b []byte) []uint64 {
	return []uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
}

func f64x2(a, b float64) []uint64 { return []uint64{math.Float64bits(a), math.Float64bits(b)} }

func f32x4(a, b, c, d float32) []uint64 {
	return []uint64{
		uint64(math.Float32bits(a)) | uint64(math.Float32bits(b))<<32,
		uint64(math.Float32bits(c)) | uint64(math.Float32bits(d))<<32,
	}
}

func i32x4(a, b, c, d int32) []uint64 {
	return []uint64{uint64(uint32(a)) | uint64(uint32(b))<<32, uint64(uint32(c)) | uint64(uint32(d))<<32}
}

func i16x8(l ...int16) []uint64 {
	var r [2]uint64
	for i, x := range l {
		r[i/4] |= uint64(uint16(x)) << (16 * (i % 4))
	}
	return r[:]
}

func i8x16(l ...int8) []uint64 {
	b := make([]byte, 16)
	for i, x := range l {
		b[i] = byte(x)
	}
	return v128Bytes(b)
}

func args(vs ...[]uint64) []uint64 {
	var r []uint64
	for _, v := range vs {
		r = append(r, v...)
	}
	return r
}

// TestRelaxedSIMD runs every relaxed SIMD instruction compiled by wazevo.
// The multiply-adds are fused on arm64 and on amd64 with FMA, and rounded
// twice on amd64 without: the inputs (1+2^-30)*(1-2^-30)-1 give -2^-60
// fused and 0 unfused. The other instructions give their deterministic
// counterparts' results.
func TestRelaxedSIMD(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip("the compiler is not supported here")
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCoreFeatures(api.CoreFeaturesV2|experimental.CoreFeaturesRelaxedSIMD))
	defer r.Close(ctx)
	mod, err := r.Instantiate(ctx, relaxedSIMDModule(t))
	require.NoError(t, err)

	fused := runtime.GOARCH == "arm64" || platform.CpuFeatures.Has(platform.CpuFeatureAmd64FMA)
	t.Logf("fused multiply-add: %v", fused)
	e60, e26 := math.Ldexp(1, -60), float32(math.Ldexp(1, -26))
	pick := func(fusedResult, unfused []uint64) []uint64 {
		if fused {
			return fusedResult
		}
		return unfused
	}
	x32, y32 := float32(1+math.Ldexp(1, -13)), float32(1-math.Ldexp(1, -13))
	x64, y64 := 1+math.Ldexp(1, -30), 1-math.Ldexp(1, -30)
	nan32 := float32(math.NaN())

	for _, tc := range []struct {
		name string
		args []uint64
		want []uint64
	}{
		// Exact either way.
		{"f64x2.relaxed_madd", args(f64x2(2, -1.5), f64x2(3, 4), f64x2(1, 0.25)), f64x2(7, -5.75)},
		{"f64x2.relaxed_nmadd", args(f64x2(2, -1.5), f64x2(3, 4), f64x2(1, 0.25)), f64x2(-5, 6.25)},
		{"f32x4.relaxed_madd", args(f32x4(2, -1.5, 0, 1e3), f32x4(3, 4, 5, 1e3), f32x4(1, 0.25, -1, 1)), f32x4(7, -5.75, -1, 1000001)},
		{"f32x4.relaxed_nmadd", args(f32x4(2, -1.5, 0, 1e3), f32x4(3, 4, 5, 1e3), f32x4(1, 0.25, -1, 1)), f32x4(-5, 6.25, -1, -999999)},
		// One rounding or two.
		{"f64x2.relaxed_madd", args(f64x2(x64, 2), f64x2(y64, 2), f64x2(-1, 1)), pick(f64x2(-e60, 5), f64x2(0, 5))},
		{"f64x2.relaxed_nmadd", args(f64x2(x64, 2), f64x2(y64, 2), f64x2(1, 1)), pick(f64x2(e60, -3), f64x2(0, -3))},
		{"f32x4.relaxed_madd", args(f32x4(x32, 1, x32, 2), f32x4(y32, 1, y32, 2), f32x4(-1, 1, -1, 1)), pick(f32x4(-e26, 2, -e26, 5), f32x4(0, 2, 0, 5))},
		{"f32x4.relaxed_nmadd", args(f32x4(x32, 1, x32, 2), f32x4(y32, 1, y32, 2), f32x4(1, 1, 1, 1)), pick(f32x4(e26, 0, e26, -3), f32x4(0, 0, 0, -3))},
		// As swizzle: an index from 16 selects 0.
		{"i8x16.relaxed_swizzle", args(i8x16(10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25), i8x16(15, 0, 16, -1, 3, 127, 2, 2, 1, 1, 0, 0, 14, 13, 12, 11)),
			i8x16(25, 10, 0, 0, 13, 0, 12, 12, 11, 11, 10, 10, 24, 23, 22, 21)},
		// As trunc_sat: NaN is 0, out of range saturates.
		{"i32x4.relaxed_trunc_f32x4_s", args(f32x4(1.5, -2.5, nan32, 3e9)), i32x4(1, -2, 0, math.MaxInt32)},
		{"i32x4.relaxed_trunc_f32x4_u", args(f32x4(1.5, -2.5, nan32, 3e9)), i32x4(1, 0, 0, -1294967296)},
		{"i32x4.relaxed_trunc_f64x2_s_zero", args(f64x2(-7.9, -1e20)), i32x4(-7, math.MinInt32, 0, 0)},
		{"i32x4.relaxed_trunc_f64x2_u_zero", args(f64x2(7.9, 1e20)), i32x4(7, -1, 0, 0)},
		// As bitselect.
		{"i8x16.relaxed_laneselect", args(i32x4(-1, -1, -1, -1), i32x4(0, 0, 0, 0), i32x4(-1, 0, 0x00ff, -1)), i32x4(-1, 0, 0x00ff, -1)},
		{"i16x8.relaxed_laneselect", args(i32x4(1, 2, 3, 4), i32x4(5, 6, 7, 8), i32x4(-1, 0, 0, -1)), i32x4(1, 6, 7, 4)},
		{"i32x4.relaxed_laneselect", args(i32x4(1, 2, 3, 4), i32x4(5, 6, 7, 8), i32x4(0, -1, -1, 0)), i32x4(5, 2, 3, 8)},
		{"i64x2.relaxed_laneselect", args(i32x4(1, 2, 3, 4), i32x4(5, 6, 7, 8), i32x4(-1, -1, 0, 0)), i32x4(1, 2, 7, 8)},
		// As min and max.
		{"f32x4.relaxed_min", args(f32x4(1, -2, 3, -4), f32x4(2, -3, 3, 4)), f32x4(1, -3, 3, -4)},
		{"f32x4.relaxed_max", args(f32x4(1, -2, 3, -4), f32x4(2, -3, 3, 4)), f32x4(2, -2, 3, 4)},
		{"f64x2.relaxed_min", args(f64x2(1, -2), f64x2(2, -3)), f64x2(1, -3)},
		{"f64x2.relaxed_max", args(f64x2(1, -2), f64x2(2, -3)), f64x2(2, -2)},
		// As q15mulr_sat_s: INT16_MIN*INT16_MIN is INT16_MAX.
		{"i16x8.relaxed_q15mulr_s", args(i16x8(0x4000, math.MinInt16, 100, -100), i16x8(0x4000, math.MinInt16, 0x7fff, 0x7fff)), i16x8(0x2000, math.MaxInt16, 100, -100)},
		// The spec test suite's cases (relaxed_dot_product.wast).
		{"i16x8.relaxed_dot_i8x16_i7x16_s", args(i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
			i16x8(1, 13, 41, 85, 145, 221, 313, 421)},
		{"i16x8.relaxed_dot_i8x16_i7x16_s", args(i8x16(-128, -128, 127, 127), i8x16(127, 127, 127, 127)), i16x8(-32512, 32258)},
		{"i16x8.relaxed_dot_i8x16_i7x16_s", args(i8x16(-128, -128), i8x16(-127, -127)), i16x8(32512)},
		{"i32x4.relaxed_dot_i8x16_i7x16_add_s", args(i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), i32x4(0, 1, 2, 3)),
			i32x4(14, 127, 368, 737)},
		{"i32x4.relaxed_dot_i8x16_i7x16_add_s", args(i8x16(-128, -128, -128, -128, 127, 127, 127, 127), i8x16(127, 127, 127, 127, 127, 127, 127, 127), i32x4(1, 2, 3, 4)),
			i32x4(-65023, 64518, 3, 4)},
		{"i32x4.relaxed_dot_i8x16_i7x16_add_s", args(i8x16(-128, -128, -128, -128), i8x16(-127, -127, -127, -127), i32x4(1, 2, 3, 4)), i32x4(65025, 2, 3, 4)},
	} {
		got, err := mod.ExportedFunction(tc.name).Call(ctx, tc.args...)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, got, "%s(%#x)", tc.name, tc.args)
	}
}

// TestRelaxedSIMDRejected checks the errors for a module using relaxed
// SIMD where it cannot run.
func TestRelaxedSIMDRejected(t *testing.T) {
	ctx := context.Background()
	bin := relaxedSIMDModule(t)

	// The feature is not enabled.
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	_, err := r.CompileModule(ctx, bin)
	require.EqualError(t, err, `invalid function[0] export["i8x16.relaxed_swizzle"]: i8x16.relaxed_swizzle invalid as feature "relaxed-simd" is disabled`)

	features := api.CoreFeaturesV2 | experimental.CoreFeaturesRelaxedSIMD
	// An opcode of the range the proposal reserved that is no instruction.
	r2 := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCoreFeatures(features))
	defer r2.Close(ctx)
	_, err = r2.CompileModule(ctx, relaxedSIMDModule(t, 0x14))
	require.EqualError(t, err, `invalid function[20] export["relaxed SIMD opcode 0x114"]: unknown SIMD instruction: relaxed SIMD opcode 0x114`)

	// The interpreter.
	r3 := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter().WithCoreFeatures(features))
	defer r3.Close(ctx)
	_, err = r3.CompileModule(ctx, bin)
	require.Error(t, err)
	require.Contains(t, err.Error(), "i8x16.relaxed_swizzle: relaxed SIMD (experimental.CoreFeaturesRelaxedSIMD) is implemented by the compiler engine only, not the interpreter")
}
