package wazevo

import (
	"context"
	"sync"
	"testing"
	"unsafe"

	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestEntryPreamblesCompiledOnDemand checks that a module's entry
// preambles are compiled when first asked for, not when the module is
// compiled or loaded (pybox patch 0046): one at a time up to
// lazyEntryPreamblesMax, then all the others at once; from many goroutines,
// each type gets one preamble, 16-byte aligned.
func TestEntryPreamblesCompiledOnDemand(t *testing.T) {
	ctx := context.Background()
	e := NewEngine(ctx, 0, nil).(*engine)

	const types = lazyEntryPreamblesMax + 5
	m := &wasm.Module{ID: wasm.ModuleID{46}}
	for k := 0; k < types; k++ {
		params := make([]wasm.ValueType, k)
		for i := range params {
			params[i] = wasm.ValueTypeI64
		}
		m.TypeSection = append(m.TypeSection, wasm.FunctionType{Params: params, Results: []wasm.ValueType{wasm.ValueTypeI32}})
		m.FunctionSection = append(m.FunctionSection, wasm.Index(k))
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: []byte{wasm.OpcodeI32Const, byte(k), wasm.OpcodeEnd}})
	}
	for i := range m.TypeSection {
		m.TypeSection[i].CacheNumInUint64()
	}
	require.NoError(t, e.CompileModule(ctx, m, nil, false))
	cm, ok := e.getCompiledModuleFromMemory(m, false)
	require.True(t, ok)

	compiled := func() (n int) {
		for i := range cm.entryPreamblesPtrs {
			if cm.entryPreamblesPtrs[i].Load() != nil {
				n++
			}
		}
		return n
	}
	require.Equal(t, 0, compiled())

	first := cm.entryPreamble(3)
	require.True(t, first != nil && uintptr(unsafe.Pointer(first))&15 == 0)
	require.Equal(t, 1, compiled())
	require.Equal(t, first, cm.entryPreamble(3))

	got := make([][types]*byte, 16)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < types; k++ {
				i := (k + g) % types
				got[g][i] = cm.entryPreamble(wasm.Index(i))
			}
		}()
	}
	wg.Wait()
	require.Equal(t, types, compiled())
	require.Equal(t, lazyEntryPreamblesMax, len(cm.lazyPreambles))
	require.True(t, len(cm.entryPreambles) > 0)
	seen := map[*byte]bool{}
	for i := 0; i < types; i++ {
		p := got[0][i]
		require.True(t, p != nil && uintptr(unsafe.Pointer(p))&15 == 0)
		require.False(t, seen[p])
		seen[p] = true
		for g := range got {
			require.Equal(t, p, got[g][i])
		}
	}
	require.Equal(t, first, got[0][3])
}
