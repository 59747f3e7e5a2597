package wazevo

import (
	"reflect"
	"unsafe"
)

//go:linkname memmove runtime.memmove
func memmove(_, _ unsafe.Pointer, _ uintptr)

var memmovPtr = reflect.ValueOf(memmove).Pointer()

// memclrNoHeapPointers is what memory.fill calls to write zeros on amd64
// (pybox patch 0061). Like memmove it takes its arguments in registers
// (Go's internal ABI) and needs no stack frame; it expects X15 to be zero,
// as the internal ABI keeps it, which the compiled call sets up.
//
//go:linkname memclrNoHeapPointers runtime.memclrNoHeapPointers
func memclrNoHeapPointers(_ unsafe.Pointer, _ uintptr)

var memclrPtr = reflect.ValueOf(memclrNoHeapPointers).Pointer()
