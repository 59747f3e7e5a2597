package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// hostModule is the wasm import module the _pybox builtin talks to
// (scripts/cpython/_pyboxmodule.c).
const hostModule = "pybox"

// instanceKey is the context key under which the guest's *instance travels
// into host functions: wazero passes the context of the exported-function
// call (pybox_boot, pybox_serve) to every host function it reaches.
type instanceKey struct{}

func instanceFrom(ctx context.Context) *instance {
	inst, _ := ctx.Value(instanceKey{}).(*instance)
	return inst
}

// instantiateHost defines the "pybox" host module:
//
//	call(op_ptr, op_len, in_ptr, in_len i32) -> i32
//	reply(out_ptr, out_len i32)
//	yield() -> i32
//
// call returns r >= 0 with an r-byte reply, or r < 0 with a (-r-1)-byte error
// message as the reply; reply copies the pending reply into guest memory.
//
// yield is called by the guest on its own, every few thousand loop
// iterations (CPython's eval-breaker checks, and loops in C code when the
// binary carries the loop guard). Go cannot preempt a goroutine that runs
// compiled wasm, so without it one busy guest would stall the garbage
// collector, and with it every goroutine of the process, until it made a
// host call. yield lets the scheduler run and returns 1 if the instance has
// been killed, which makes the guest trap.
func instantiateHost(ctx context.Context, rt wazero.Runtime) error {
	_, err := rt.NewHostModuleBuilder(hostModule).
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostCall),
			[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32},
			[]api.ValueType{api.ValueTypeI32}).
		WithParameterNames("op_ptr", "op_len", "in_ptr", "in_len").
		Export("call").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostReply),
			[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, nil).
		WithParameterNames("out_ptr", "out_len").
		Export("reply").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostYield), nil, []api.ValueType{api.ValueTypeI32}).
		Export("yield").
		Instantiate(ctx)
	if err != nil {
		return fmt.Errorf("instantiate pybox host module: %w", err)
	}
	return nil
}

func hostCall(ctx context.Context, mod api.Module, stack []uint64) {
	inst := instanceFrom(ctx)
	mem := mod.Memory()
	opPtr, opLen := uint32(stack[0]), uint32(stack[1])
	inPtr, inLen := uint32(stack[2]), uint32(stack[3])
	op, ok1 := mem.Read(opPtr, opLen)
	in, ok2 := mem.Read(inPtr, inLen)
	if inst == nil {
		stack[0] = fail(nil, "pybox host: no instance bound to this call")
		return
	}
	if !ok1 || !ok2 {
		stack[0] = fail(inst, "pybox host: arguments out of guest memory bounds")
		return
	}
	// Copy: the guest may reuse this memory while the host still holds it.
	reply, err := inst.handle(string(op), append([]byte(nil), in...))
	if err != nil {
		stack[0] = fail(inst, err.Error())
		return
	}
	inst.reply = reply
	stack[0] = uint64(uint32(int32(len(reply))))
}

// fail stores msg as the pending reply and returns the encoded error result.
func fail(inst *instance, msg string) uint64 {
	if inst != nil {
		inst.reply = []byte(msg)
	}
	return uint64(uint32(int32(-len(msg) - 1)))
}

func hostReply(ctx context.Context, mod api.Module, stack []uint64) {
	inst := instanceFrom(ctx)
	if inst == nil {
		return
	}
	ptr, n := uint32(stack[0]), uint32(stack[1])
	if int(n) > len(inst.reply) {
		n = uint32(len(inst.reply))
	}
	mod.Memory().Write(ptr, inst.reply[:n])
	inst.reply = nil
}

func hostYield(ctx context.Context, _ api.Module, stack []uint64) {
	goruntime.Gosched()
	if inst := instanceFrom(ctx); inst != nil && inst.killed.Load() {
		stack[0] = 1
		return
	}
	stack[0] = 0
}
