package amd64

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/frontend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
	"github.com/tetratelabs/wazero/internal/testing/require"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// TestSelectOnIcmpComparesOnce compiles `select(a, b, x OP y)` for integer
// compares at both widths and checks that the compare is emitted once, for
// the cmov, and not a second time with a setcc for a result nobody reads:
// the select lowering folds the compare into its flags and must mark it
// lowered (pybox patch 0070; it called the Lowered query instead).
func TestSelectOnIcmpComparesOnce(t *testing.T) {
	i32, i64 := wasm.ValueTypeI32, wasm.ValueTypeI64
	ops := []struct {
		name string
		typ  wasm.ValueType
		op   wasm.Opcode
	}{
		{"i32.eq", i32, wasm.OpcodeI32Eq}, {"i32.lt_s", i32, wasm.OpcodeI32LtS}, {"i32.gt_u", i32, wasm.OpcodeI32GtU},
		{"i64.ne", i64, wasm.OpcodeI64Ne}, {"i64.le_s", i64, wasm.OpcodeI64LeS}, {"i64.ge_u", i64, wasm.OpcodeI64GeU},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			// (a, b, x, y) -> select(a, b, x OP y), a and b i64.
			m := &wasm.Module{
				TypeSection:     []wasm.FunctionType{{Params: []wasm.ValueType{i64, i64, op.typ, op.typ}, Results: []wasm.ValueType{i64}}},
				FunctionSection: []wasm.Index{0},
				CodeSection: []wasm.Code{{Body: []byte{
					wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1,
					wasm.OpcodeLocalGet, 2, wasm.OpcodeLocalGet, 3, op.op,
					wasm.OpcodeSelect, wasm.OpcodeEnd,
				}}},
			}
			require.NoError(t, m.Validate(api.CoreFeaturesV2))
			offset := wazevoapi.NewModuleContextOffsetData(m, false)
			ssab := ssa.NewBuilder()
			fc := frontend.NewFrontendCompiler(m, ssab, &offset, false, false, false)
			mach := NewBackend().(*machine)
			mach.DisableStackCheck()
			be := backend.NewCompiler(context.Background(), mach, ssab)
			fc.Init(0, 0, &m.TypeSection[0], nil, m.CodeSection[0].Body, false, 0)
			fc.LowerToSSA()
			ssab.RunPasses()
			be.Lower()
			be.RegAlloc()
			out := be.Format()
			require.NoError(t, be.Finalize(context.Background()))
			var cmps, setccs, cmovs int
			for _, line := range strings.Split(out, "\n") {
				f := strings.Fields(line)
				if len(f) == 0 {
					continue
				}
				switch {
				case strings.HasPrefix(f[0], "cmp"):
					cmps++
				case strings.HasPrefix(f[0], "set"):
					setccs++
				case strings.HasPrefix(f[0], "cmov"):
					cmovs++
				}
			}
			require.Equal(t, "1 0 1", fmt.Sprintf("%d %d %d", cmps, setccs, cmovs), "compares, setccs, cmovs\n%s", out)
		})
	}
}
