package runtime

import (
	"bytes"
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
)

// An interpreter booted from the module without data segments, plus
// applyData, starts from the same memory as one instantiated from the
// original module.
func TestSplitDataSameMemory(t *testing.T) {
	ctx := context.Background()
	e, err := NewEngine(ctx, Config{NoSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	if len(e.data) == 0 {
		t.Fatal("python.wasm's data segments were not split off")
	}
	inst, err := e.instantiate(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.mod.Close(ctx)
	if err := e.applyData(inst); err != nil {
		t.Fatal(err)
	}
	orig, err := e.rt.CompileModule(ctx, e.bundle.Wasm)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := e.rt.InstantiateModule(ctx, orig, wazero.NewModuleConfig().WithName("orig").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close(ctx)
	a, _ := inst.mod.Memory().Read(0, inst.mod.Memory().Size())
	b, _ := mod.Memory().Read(0, mod.Memory().Size())
	if !bytes.Equal(a, b) {
		t.Fatal("memory differs from the original module's after instantiation")
	}
}
