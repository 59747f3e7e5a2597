package wazevo_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// lazyTrapModule: main calls one through the table, one calls two
// directly, two calls three, three traps. "two" is exported too.
var lazyTrapModule = &wasm.Module{
	TypeSection:     []wasm.FunctionType{{}},
	ExportSection:   []wasm.Export{{Name: "main", Type: wasm.ExternTypeFunc, Index: 0}, {Name: "two", Type: wasm.ExternTypeFunc, Index: 2}},
	FunctionSection: []wasm.Index{0, 0, 0, 0},
	TableSection:    []wasm.Table{{Type: wasm.RefTypeFuncref, Min: 1}},
	ElementSection: []wasm.ElementSegment{{
		OffsetExpr: wasm.ConstantExpression{Data: []byte{wasm.OpcodeI32Const, 0, wasm.OpcodeEnd}},
		TableIndex: 0, Type: wasm.RefTypeFuncref, Mode: wasm.ElementModeActive,
		Init: []wasm.ConstantExpression{wasm.NewConstantExpressionFromOpcode(wasm.OpcodeRefFunc, []byte{1})},
	}},
	CodeSection: []wasm.Code{
		{Body: []byte{wasm.OpcodeI32Const, 0, wasm.OpcodeCallIndirect, 0, 0, wasm.OpcodeEnd}},
		{Body: []byte{wasm.OpcodeCall, 2, wasm.OpcodeEnd}},
		{Body: []byte{wasm.OpcodeCall, 3, wasm.OpcodeEnd}},
		{Body: []byte{wasm.OpcodeUnreachable, wasm.OpcodeEnd}},
	},
	NameSection: &wasm.NameSection{FunctionNames: wasm.NameMap{
		{Index: 0, Name: "main"}, {Index: 1, Name: "one"}, {Index: 2, Name: "two"}, {Index: 3, Name: "three"},
	}},
}

// TestLazy_stackTrace checks the trap's backtrace through lazily compiled
// frames (pybox patch 0040): on the first call, which compiles each function
// on the way down, on a second call, which compiles nothing, and after a
// callee was compiled first.
func TestLazy_stackTrace(t *testing.T) {
	const main = "wasm error: unreachable\nwasm stack trace:\n\t.three()\n\t.two()\n\t.one()\n\t.main()"
	const two = "wasm error: unreachable\nwasm stack trace:\n\t.three()\n\t.two()"
	for _, tc := range []struct {
		name  string
		calls []string
		exps  []string
	}{
		{name: "main twice", calls: []string{"main", "main"}, exps: []string{main, main}},
		{name: "callee first", calls: []string{"two", "main", "two"}, exps: []string{two, main, two}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := experimental.WithLazyCompilation(context.Background())
			r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
			defer r.Close(ctx)
			mod, err := r.Instantiate(ctx, binaryencoding.EncodeModule(lazyTrapModule))
			require.NoError(t, err)
			for i, name := range tc.calls {
				_, err = mod.ExportedFunction(name).Call(ctx)
				require.Error(t, err)
				require.Equal(t, tc.exps[i], err.Error())
			}
		})
	}
}

// lazyArgsModule has a function of 12 i64, 10 f64 and 2 v128 parameters
// (more than the ABI's argument registers, so some are on the stack), which
// returns a checksum of them, called directly by "direct" and through the
// table by "indirect"; both take one i64 and pass i+k as argument k.
func lazyArgsModule() *wasm.Module {
	var params []wasm.ValueType
	for i := 0; i < 12; i++ {
		params = append(params, wasm.ValueTypeI64)
	}
	for i := 0; i < 10; i++ {
		params = append(params, wasm.ValueTypeF64)
	}
	params = append(params, wasm.ValueTypeV128, wasm.ValueTypeV128)
	many := wasm.FunctionType{Params: params, Results: []wasm.ValueType{wasm.ValueTypeI64}}
	caller := wasm.FunctionType{Params: []wasm.ValueType{wasm.ValueTypeI64}, Results: []wasm.ValueType{wasm.ValueTypeI64}}

	// sum = sum over k of (k+1) * arg_k, with floats truncated and each
	// v128's two i64 lanes added.
	var body []byte
	body = append(body, wasm.OpcodeI64Const, 0)
	for k, p := range params {
		switch p {
		case wasm.ValueTypeI64:
			body = append(body, wasm.OpcodeLocalGet, byte(k))
		case wasm.ValueTypeF64:
			body = append(body, wasm.OpcodeLocalGet, byte(k), wasm.OpcodeI64TruncF64S)
		case wasm.ValueTypeV128:
			body = append(body, wasm.OpcodeLocalGet, byte(k), wasm.OpcodeVecPrefix, wasm.OpcodeVecI64x2ExtractLane, 0,
				wasm.OpcodeLocalGet, byte(k), wasm.OpcodeVecPrefix, wasm.OpcodeVecI64x2ExtractLane, 1, wasm.OpcodeI64Add)
		}
		body = append(body, wasm.OpcodeI64Const, byte(k+1), wasm.OpcodeI64Mul, wasm.OpcodeI64Add)
	}
	body = append(body, wasm.OpcodeEnd)

	args := func() (b []byte) {
		for k, p := range params {
			switch p {
			case wasm.ValueTypeI64:
				b = append(b, wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Const, byte(k), wasm.OpcodeI64Add)
			case wasm.ValueTypeF64:
				b = append(b, wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Const, byte(k), wasm.OpcodeI64Add, wasm.OpcodeF64ConvertI64S)
			case wasm.ValueTypeV128:
				b = append(b, wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Const, byte(k), wasm.OpcodeI64Add, wasm.OpcodeVecPrefix, wasm.OpcodeVecI64x2Splat)
			}
		}
		return
	}
	direct := append(args(), wasm.OpcodeCall, 0, wasm.OpcodeEnd)
	indirect := append(args(), wasm.OpcodeI32Const, 0, wasm.OpcodeCallIndirect, 0, 0, wasm.OpcodeEnd)
	return &wasm.Module{
		TypeSection:     []wasm.FunctionType{many, caller},
		FunctionSection: []wasm.Index{0, 1, 1},
		TableSection:    []wasm.Table{{Type: wasm.RefTypeFuncref, Min: 1}},
		ElementSection: []wasm.ElementSegment{{
			OffsetExpr: wasm.ConstantExpression{Data: []byte{wasm.OpcodeI32Const, 0, wasm.OpcodeEnd}},
			TableIndex: 0, Type: wasm.RefTypeFuncref, Mode: wasm.ElementModeActive,
			Init: []wasm.ConstantExpression{wasm.NewConstantExpressionFromOpcode(wasm.OpcodeRefFunc, []byte{0})},
		}},
		ExportSection: []wasm.Export{
			{Name: "direct", Type: wasm.ExternTypeFunc, Index: 1},
			{Name: "indirect", Type: wasm.ExternTypeFunc, Index: 2},
		},
		CodeSection: []wasm.Code{{Body: body}, {Body: direct}, {Body: indirect}},
	}
}

// lazyArgsSum is what lazyArgsModule's functions return for i.
func lazyArgsSum(i int64) (sum int64) {
	for k := int64(0); k < 24; k++ {
		v := i + k
		if k >= 22 {
			v *= 2
		}
		sum += (k + 1) * v
	}
	return
}

// TestLazy_arguments checks that the lazy-compile trampoline keeps every
// argument, in registers and on the stack, and that calls from many
// goroutines that race to compile the same functions all get them right
// (pybox patch 0040).
func TestLazy_arguments(t *testing.T) {
	for _, tc := range []struct{ goroutines, workers int }{{1, 1}, {16, 1}, {16, 3}} {
		goroutines := tc.goroutines
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			// With workers > 1, goroutines of the engine compile callees
			// ahead of their calls (pybox patch 0043).
			ctx := experimental.WithLazyCompilation(experimental.WithCompilationWorkers(context.Background(), tc.workers))
			r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
			defer r.Close(ctx)
			mod, err := r.Instantiate(ctx, binaryencoding.EncodeModule(lazyArgsModule()))
			require.NoError(t, err)

			type result struct {
				name     string
				i        int64
				got, exp uint64
				err      error
			}
			results := make(chan result, goroutines*8)
			var start, done sync.WaitGroup
			start.Add(1)
			for g := 0; g < goroutines; g++ {
				done.Add(1)
				go func(g int) {
					defer done.Done()
					start.Wait()
					for k := 0; k < 4; k++ {
						for _, name := range []string{"direct", "indirect"} {
							i := int64(g*100+k) - 3
							res, err := mod.ExportedFunction(name).Call(ctx, api.EncodeI64(i))
							r := result{name: name, i: i, exp: uint64(lazyArgsSum(i)), err: err}
							if err == nil {
								r.got = res[0]
							}
							results <- r
						}
					}
				}(g)
			}
			start.Done()
			done.Wait()
			close(results)
			for r := range results {
				require.NoError(t, r.err, "%s(%d)", r.name, r.i)
				require.Equal(t, r.exp, r.got, "%s(%d)", r.name, r.i)
			}
		})
	}
}

// TestLazy_validation: a lazily compiled module's function bodies are
// validated when first called (pybox patch 0041). A body that does not
// validate fails CompileModule without lazy compilation; with it, the
// module compiles and runs until that function is called, and that call
// fails with the validation error.
func TestLazy_validation(t *testing.T) {
	if goruntime.GOOS != "linux" || goruntime.GOARCH != "amd64" {
		t.Skip("compiled whole here: the module fails to compile")
	}
	m := &wasm.Module{
		TypeSection:     []wasm.FunctionType{{Results: []wasm.ValueType{wasm.ValueTypeI32}}},
		FunctionSection: []wasm.Index{0, 0},
		ExportSection: []wasm.Export{
			{Name: "good", Type: wasm.ExternTypeFunc, Index: 0},
			{Name: "bad", Type: wasm.ExternTypeFunc, Index: 1},
		},
		CodeSection: []wasm.Code{
			{Body: []byte{wasm.OpcodeI32Const, 7, wasm.OpcodeEnd}},
			// An i64 where an i32 result is due.
			{Body: []byte{wasm.OpcodeI64Const, 7, wasm.OpcodeEnd}},
		},
	}
	bin := binaryencoding.EncodeModule(m)
	const invalid = `invalid function[1] export["bad"]: cannot use i64 as result[0] type i32`

	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	_, err := r.CompileModule(ctx, bin)
	require.Error(t, err)
	require.Contains(t, err.Error(), invalid)

	lctx := experimental.WithLazyCompilation(ctx)
	lr := wazero.NewRuntimeWithConfig(lctx, wazero.NewRuntimeConfigCompiler())
	defer lr.Close(lctx)
	mod, err := lr.Instantiate(lctx, bin)
	require.NoError(t, err)
	res, err := mod.ExportedFunction("good").Call(lctx)
	require.NoError(t, err)
	require.Equal(t, []uint64{7}, res)
	for i := 0; i < 2; i++ { // The same error every time.
		_, err = mod.ExportedFunction("bad").Call(lctx)
		require.Error(t, err)
		require.Contains(t, err.Error(), invalid)
	}
}
