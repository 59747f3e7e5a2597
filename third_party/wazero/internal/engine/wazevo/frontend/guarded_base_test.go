package frontend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestGuardedMemoryBaseLoadedOnce checks that with a guarded memory the
// memory base is loaded from the module context once, in the entry block,
// and not again in a loop header that accesses memory (a block with two
// predecessors, where looking the base up as a variable loaded it anew on
// every iteration) nor after a call (pybox patch 0050). Without a guarded
// memory the base is still reloaded where it may have changed.
func TestGuardedMemoryBaseLoadedOnce(t *testing.T) {
	i32 := wasm.ValueTypeI32
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{
			{Params: []wasm.ValueType{i32}, Results: []wasm.ValueType{i32}},
			{},
		},
		MemorySection:   &wasm.Memory{Min: 1},
		FunctionSection: []wasm.Index{0, 1},
		CodeSection: []wasm.Code{
			{Body: []byte{
				wasm.OpcodeLoop, 0x40,
				// p = load(p); if p != 0 { callee(); continue }
				wasm.OpcodeLocalGet, 0,
				wasm.OpcodeI32Load, 0x2, 0x0,
				wasm.OpcodeLocalTee, 0,
				wasm.OpcodeIf, 0x40,
				wasm.OpcodeCall, 1,
				wasm.OpcodeBr, 1,
				wasm.OpcodeEnd,
				wasm.OpcodeEnd,
				// After the loop: one more load, after a call.
				wasm.OpcodeCall, 1,
				wasm.OpcodeLocalGet, 0,
				wasm.OpcodeI32Load, 0x2, 0x4,
				wasm.OpcodeEnd,
			}},
			{Body: []byte{wasm.OpcodeEnd}},
		},
	}
	require.NoError(t, m.Validate(api.CoreFeaturesV2))

	for _, guarded := range []bool{false, true} {
		t.Run(fmt.Sprintf("guarded=%v", guarded), func(t *testing.T) {
			b := ssa.NewBuilder()
			offset := wazevoapi.NewModuleContextOffsetData(m, false)
			fc := NewFrontendCompiler(m, b, &offset, false, false, false)
			fc.SetGuardedMemory(guarded)
			code := &m.CodeSection[0]
			fc.Init(0, 0, &m.TypeSection[0], code.LocalTypes, code.Body, false, 0)
			fc.LowerToSSA()
			b.RunPasses()
			text := fc.formatBuilder()

			// The loads of the memory base, by block.
			baseLoad := fmt.Sprintf("= Load module_ctx, %#x", offset.LocalMemoryBase().U32())
			var blocks []string
			blk := ""
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "blk") {
					blk = line[:strings.Index(line, ":")]
				}
				if strings.Contains(line, baseLoad) {
					blocks = append(blocks, blk)
				}
			}
			if guarded {
				require.Equal(t, []string{"blk0"}, blocks, text)
			} else {
				// The loop header (blk1) and the blocks after each call.
				require.True(t, len(blocks) > 1, text)
			}
		})
	}
}
