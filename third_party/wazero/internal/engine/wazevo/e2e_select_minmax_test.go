package wazevo_test

import (
	"context"
	"math"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/testcases"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestE2E_selectMinMax: float selects on a < or > comparison of their own
// operands (which amd64 compiles to MINSD/MAXSD, MINSS/MAXSS) give exactly
// the select's result, bit for bit, for zeros of both signs, infinities and
// NaNs (quiet, signalling, with payloads) in either operand.
func TestE2E_selectMinMax(t *testing.T) {
	// (x f64, y f64, a f32, b f32) -> eight selects: for (x, y) and (a, b),
	// select(p, q, p < q), select(p, q, p > q), select(p, q, q < p),
	// select(p, q, q > p).
	var body []byte
	for _, fl := range []struct {
		p, q     byte
		lt, gt   wasm.Opcode
		typeKind byte
	}{{0, 1, wasm.OpcodeF64Lt, wasm.OpcodeF64Gt, wasm.ValueTypeF64.Kind()}, {2, 3, wasm.OpcodeF32Lt, wasm.OpcodeF32Gt, wasm.ValueTypeF32.Kind()}} {
		for _, c := range []struct {
			first, second byte
			op            wasm.Opcode
		}{{fl.p, fl.q, fl.lt}, {fl.p, fl.q, fl.gt}, {fl.q, fl.p, fl.lt}, {fl.q, fl.p, fl.gt}} {
			body = append(body,
				wasm.OpcodeLocalGet, fl.p, wasm.OpcodeLocalGet, fl.q,
				wasm.OpcodeLocalGet, c.first, wasm.OpcodeLocalGet, c.second, c.op,
				wasm.OpcodeTypedSelect, 1, fl.typeKind)
		}
	}
	body = append(body, wasm.OpcodeEnd)
	typ := wasm.FunctionType{
		Params:  []wasm.ValueType{f64, f64, f32, f32},
		Results: []wasm.ValueType{f64, f64, f64, f64, f32, f32, f32, f32},
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	inst, err := r.Instantiate(ctx, binaryencoding.EncodeModule(testcases.SingleFunctionModule(typ, body, nil)))
	require.NoError(t, err)
	f := inst.ExportedFunction(testcases.ExportedFunctionName)

	f64s := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, math.Inf(1), math.Inf(-1), 5e-324,
		math.NaN(), math.Float64frombits(0xfff8000000000001), math.Float64frombits(0x7ff0000000000001)}
	f32s := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2.5, -2.5, float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(1), float32(math.NaN()), math.Float32frombits(0xffc00001), math.Float32frombits(0x7f800001)}
	sel64 := func(c bool, p, q float64) uint64 {
		if c {
			return math.Float64bits(p)
		}
		return math.Float64bits(q)
	}
	sel32 := func(c bool, p, q float32) uint64 {
		if c {
			return uint64(math.Float32bits(p))
		}
		return uint64(math.Float32bits(q))
	}
	for i, x := range f64s {
		for j, y := range f64s {
			a, b := f32s[i], f32s[j]
			res, err := f.Call(ctx, math.Float64bits(x), math.Float64bits(y),
				uint64(math.Float32bits(a)), uint64(math.Float32bits(b)))
			require.NoError(t, err)
			exp := []uint64{
				sel64(x < y, x, y), sel64(x > y, x, y), sel64(y < x, x, y), sel64(y > x, x, y),
				sel32(a < b, a, b), sel32(a > b, a, b), sel32(b < a, a, b), sel32(b > a, a, b),
			}
			for k := range exp {
				if k >= 4 {
					res[k] &= 0xffffffff
				}
				if res[k] != exp[k] {
					t.Errorf("x=%v y=%v a=%v b=%v: result %d = %#x, want %#x", x, y, a, b, k, res[k], exp[k])
				}
			}
		}
	}
}
