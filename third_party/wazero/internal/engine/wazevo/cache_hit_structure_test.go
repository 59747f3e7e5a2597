package wazevo_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/leb128"
	"github.com/tetratelabs/wazero/internal/platform"
	"github.com/tetratelabs/wazero/internal/testing/binaryencoding"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// tableModule returns a module of n functions () -> i32, function i
// returning i, and a function "pick" (i32) -> i32 returning what the
// function at that index of its table returns (call_indirect). The table
// holds functions 0 to entries-1 in reverse order from index 0, as an active
// element segment of ref.func entries; with passive, the same entries are a
// passive segment that "pick" first copies into the table (table.init).
func tableModule(n, entries int, passive bool) []byte {
	v := wasm.ValueTypeI32
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Results: []wasm.ValueType{v}},
			{Params: []wasm.ValueType{v}, Results: []wasm.ValueType{v}},
		},
		TableSection:  []wasm.Table{{Min: uint32(entries), Type: wasm.RefTypeFuncref}},
		ExportSection: []wasm.Export{{Name: "pick", Type: wasm.ExternTypeFunc, Index: uint32(n)}},
	}
	for i := 0; i < n; i++ {
		m.FunctionSection = append(m.FunctionSection, 0)
		body := append([]byte{wasm.OpcodeI32Const}, leb128.EncodeInt32(int32(i))...)
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: append(body, wasm.OpcodeEnd)})
	}
	elem := wasm.ElementSegment{
		OffsetExpr: wasm.NewConstantExpressionFromI32(0),
		Type:       wasm.RefTypeFuncref,
	}
	for i := entries - 1; i >= 0; i-- {
		elem.FuncIndexes = append(elem.FuncIndexes, uint32(i))
	}
	var pick []byte
	if passive {
		elem.Mode = wasm.ElementModePassive
		// table.init 0 0 (dst 0, src 0, len entries)
		pick = append(pick, wasm.OpcodeI32Const, 0, wasm.OpcodeI32Const, 0, wasm.OpcodeI32Const)
		pick = append(pick, leb128.EncodeInt32(int32(entries))...)
		pick = append(pick, wasm.OpcodeMiscPrefix, wasm.OpcodeMiscTableInit, 0, 0)
	}
	m.ElementSection = []wasm.ElementSegment{elem}
	pick = append(pick, wasm.OpcodeLocalGet, 0, wasm.OpcodeCallIndirect, 0, 0, wasm.OpcodeEnd)
	m.FunctionSection = append(m.FunctionSection, 1)
	m.CodeSection = append(m.CodeSection, wasm.Code{Body: pick})
	return binaryencoding.EncodeModule(m)
}

// stubBodies returns bin with every function body replaced by one that only
// ends, as a caller that loads compiled code by digest may pass it.
func stubBodies(t *testing.T, bin []byte, n int) []byte {
	// The code section is the last one tableModule writes.
	i := len(bin)
	for pos := 8; pos < len(bin); {
		size, k, err := leb128.LoadUint32(bin[pos+1:])
		require.NoError(t, err)
		if bin[pos] == wasm.SectionIDCode {
			i = pos
			break
		}
		pos += 1 + int(k) + int(size)
	}
	require.True(t, i < len(bin))
	var code []byte
	code = append(code, leb128.EncodeUint32(uint32(n))...)
	for j := 0; j < n; j++ {
		code = append(code, 2, 0, wasm.OpcodeEnd)
	}
	out := append(bin[:i:i], wasm.SectionIDCode)
	out = append(out, leb128.EncodeUint32(uint32(len(code)))...)
	return append(out, code...)
}

// TestCachedOnlyLoadDecodesNoBodies checks that a module loaded by digest
// with WithCachedModuleOnly is decoded without its function bodies (pybox
// patch 0044): the allocations of a load do not grow with the number of
// functions (each decoded body allocates), and the loaded module still has
// its function definitions and runs.
func TestCachedOnlyLoadDecodesNoBodies(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	const n = 4000
	bin := tableModule(n, 3, false)
	stub := stubBodies(t, bin, n+1)
	bg := context.Background()
	withDigest := experimental.WithModuleDigest(bg, [32]byte{44})
	cachedOnly := experimental.WithCachedModuleOnly(withDigest)

	dir := t.TempDir()
	cc, err := wazero.NewCompilationCacheWithDir(dir)
	require.NoError(t, err)
	r := wazero.NewRuntimeWithConfig(bg, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cc))
	_, err = r.CompileModule(withDigest, bin)
	require.NoError(t, err)
	require.NoError(t, r.Close(bg))

	cc, err = wazero.NewCompilationCacheWithDir(dir)
	require.NoError(t, err)
	r = wazero.NewRuntimeWithConfig(bg, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cc))
	defer r.Close(bg)
	compiled, err := r.CompileModule(cachedOnly, stub)
	require.NoError(t, err)
	pick := compiled.ExportedFunctions()["pick"]
	require.Equal(t, []api.ValueType{api.ValueTypeI32}, pick.ParamTypes())
	require.Equal(t, uint32(n), pick.Index())

	allocs := testing.AllocsPerRun(3, func() {
		if _, err := r.CompileModule(cachedOnly, stub); err != nil {
			panic(err)
		}
	})
	require.True(t, allocs < n/4, "%.0f allocations to load a module of %d functions", allocs, n)

	mod, err := r.InstantiateModule(bg, compiled, wazero.NewModuleConfig())
	require.NoError(t, err)
	for i := uint64(0); i < 3; i++ {
		res, err := mod.ExportedFunction("pick").Call(bg, i)
		require.NoError(t, err)
		require.Equal(t, 2-i, res[0])
	}
}

// TestElementsWithoutExpressions checks that element segments given as
// vectors of function indexes are decoded and instantiated without an
// allocation per element (pybox patch 0045), and that such tables, active
// and passive (table.init), call the right functions, compiled and loaded
// from the cache.
func TestElementsWithoutExpressions(t *testing.T) {
	if !platform.CompilerSupported() {
		t.Skip()
	}
	const n = 4000
	bg := context.Background()
	for _, passive := range []bool{false, true} {
		name := "active"
		if passive {
			name = "passive"
		}
		t.Run(name, func(t *testing.T) {
			bin := tableModule(n, n, passive)
			stub := stubBodies(t, bin, n+1)
			withDigest := experimental.WithModuleDigest(bg, [32]byte{45})
			cachedOnly := experimental.WithCachedModuleOnly(withDigest)
			dir := t.TempDir()
			for round := 0; round < 2; round++ { // compiled, then loaded
				cc, err := wazero.NewCompilationCacheWithDir(dir)
				require.NoError(t, err)
				r := wazero.NewRuntimeWithConfig(bg, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cc))
				ctx, b := withDigest, bin
				if round == 1 {
					ctx, b = cachedOnly, stub
				}
				compiled, err := r.CompileModule(ctx, b)
				require.NoError(t, err)
				mod, err := r.InstantiateModule(bg, compiled, wazero.NewModuleConfig())
				require.NoError(t, err)
				for _, i := range []uint64{0, 1, n / 2, n - 1} {
					res, err := mod.ExportedFunction("pick").Call(bg, i)
					require.NoError(t, err)
					require.Equal(t, n-1-i, res[0])
				}
				if round == 1 {
					allocs := testing.AllocsPerRun(3, func() {
						if _, err := r.CompileModule(cachedOnly, stub); err != nil {
							panic(err)
						}
					})
					require.True(t, allocs < n/4, "%.0f allocations to decode %d elements", allocs, n)
					seq := 0
					allocs = testing.AllocsPerRun(3, func() {
						seq++
						m, err := r.InstantiateModule(bg, compiled, wazero.NewModuleConfig().WithName(fmt.Sprint(seq)))
						if err != nil {
							panic(err)
						}
						m.Close(bg)
					})
					require.True(t, allocs < n/4, "%.0f allocations to instantiate %d elements", allocs, n)
				}
				require.NoError(t, r.Close(bg))
			}
		})
	}
}
