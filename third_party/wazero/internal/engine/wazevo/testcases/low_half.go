package testcases

import (
	"fmt"
	"math/bits"

	"github.com/tetratelabs/wazero/internal/leb128"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// LowHalfCase is one function of LowHalfModule.
type LowHalfCase struct {
	// Name says what the function computes, e.g. "add" or "wrap used twice".
	Name string
	// Want is what the function returns for its parameters a and b.
	Want func(a, b uint64) uint64
}

// LowHalfModule returns a module whose functions, exported as "f0", "f1",
// ..., take two i64 parameters a and b and return an i64. Each wraps a
// (and often b) to i32 and hands the wrap to one consumer: 32-bit
// arithmetic, shifts, compares in a select or a branch, stores of 4, 2 and
// 1 bytes, the extensions from 32 bits or fewer, and the zero-extension of
// an i32 back to i64; others keep the wrap in use twice, pass it through a
// block result, or use it as a memory address. The amd64 lowering gives a
// consumer that reads only the low 32 bits the wrap's 64-bit argument, and
// lowers the zero-extension of an i32 register as a copy (pybox patch
// 0071): results are right only if every i32 in a register still has its
// upper half zero, which the functions check by returning their i32
// results zero-extended (or using them as addresses) for operands whose
// upper halves are not zero. The module has one page of memory; the store
// functions write at addresses 8, 16 and 24 and read 8 bytes back there.
func LowHalfModule() (*wasm.Module, []LowHalfCase) {
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{{
			Params:  []wasm.ValueType{i64, i64},
			Results: []wasm.ValueType{i64},
		}},
		MemorySection: &wasm.Memory{Min: 1, Max: 1, IsMaxEncoded: true},
	}
	var cases []LowHalfCase
	add := func(c LowHalfCase, body ...byte) {
		idx := wasm.Index(len(m.FunctionSection))
		m.FunctionSection = append(m.FunctionSection, 0)
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: append(body, wasm.OpcodeEnd)})
		m.ExportSection = append(m.ExportSection, wasm.Export{Name: fmt.Sprintf("f%d", idx), Type: wasm.ExternTypeFunc, Index: idx})
		cases = append(cases, c)
	}
	wrapA := []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64}
	wrapB := []byte{wasm.OpcodeLocalGet, 1, wasm.OpcodeI32WrapI64}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	ext := []byte{wasm.OpcodeI64ExtendI32U}

	// Two wraps into one 32-bit operation.
	binops := []struct {
		name string
		op   wasm.Opcode
		f    func(x, y uint32) uint32
	}{
		{"add", wasm.OpcodeI32Add, func(x, y uint32) uint32 { return x + y }},
		{"sub", wasm.OpcodeI32Sub, func(x, y uint32) uint32 { return x - y }},
		{"mul", wasm.OpcodeI32Mul, func(x, y uint32) uint32 { return x * y }},
		{"and", wasm.OpcodeI32And, func(x, y uint32) uint32 { return x & y }},
		{"or", wasm.OpcodeI32Or, func(x, y uint32) uint32 { return x | y }},
		{"xor", wasm.OpcodeI32Xor, func(x, y uint32) uint32 { return x ^ y }},
		{"shl", wasm.OpcodeI32Shl, func(x, y uint32) uint32 { return x << (y & 31) }},
		{"shr_u", wasm.OpcodeI32ShrU, func(x, y uint32) uint32 { return x >> (y & 31) }},
		{"shr_s", wasm.OpcodeI32ShrS, func(x, y uint32) uint32 { return uint32(int32(x) >> (y & 31)) }},
		{"rotl", wasm.OpcodeI32Rotl, func(x, y uint32) uint32 { return bits.RotateLeft32(x, int(y&31)) }},
		{"rotr", wasm.OpcodeI32Rotr, func(x, y uint32) uint32 { return bits.RotateLeft32(x, -int(y&31)) }},
	}
	for _, op := range binops {
		f := op.f
		add(LowHalfCase{Name: op.name, Want: func(a, b uint64) uint64 { return uint64(f(uint32(a), uint32(b))) }},
			cat(wrapA, wrapB, []byte{op.op}, ext)...)
	}
	// A wrap and a constant; the constant first, so the wrap is the
	// operand that may come from memory or be an immediate.
	add(LowHalfCase{Name: "0x7fff0000 and", Want: func(a, _ uint64) uint64 { return a & 0x7fff0000 }},
		cat([]byte{wasm.OpcodeI32Const}, leb128.EncodeInt32(0x7fff0000), wrapA, []byte{wasm.OpcodeI32And}, ext)...)
	add(LowHalfCase{Name: "add 5", Want: func(a, _ uint64) uint64 { return uint64(uint32(a) + 5) }},
		cat(wrapA, []byte{wasm.OpcodeI32Const, 5, wasm.OpcodeI32Add}, ext)...)

	// Compares, their result zero-extended, selected on and branched on.
	cmps := []struct {
		name string
		op   wasm.Opcode
		f    func(x, y uint32) bool
	}{
		{"eq", wasm.OpcodeI32Eq, func(x, y uint32) bool { return x == y }},
		{"lt_s", wasm.OpcodeI32LtS, func(x, y uint32) bool { return int32(x) < int32(y) }},
		{"lt_u", wasm.OpcodeI32LtU, func(x, y uint32) bool { return x < y }},
		{"ge_s", wasm.OpcodeI32GeS, func(x, y uint32) bool { return int32(x) >= int32(y) }},
	}
	b2u := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	for _, c := range cmps {
		f := c.f
		add(LowHalfCase{Name: c.name, Want: func(a, b uint64) uint64 { return b2u(f(uint32(a), uint32(b))) }},
			cat(wrapA, wrapB, []byte{c.op}, ext)...)
		add(LowHalfCase{Name: c.name + " select", Want: func(a, b uint64) uint64 {
			if f(uint32(a), uint32(b)) {
				return a
			}
			return b
		}}, cat([]byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1}, wrapA, wrapB, []byte{c.op, wasm.OpcodeSelect})...)
		add(LowHalfCase{Name: c.name + " br_if", Want: func(a, b uint64) uint64 {
			if f(uint32(a), uint32(b)) {
				return 7
			}
			return 9
		}}, cat([]byte{wasm.OpcodeBlock, 0x40}, wrapA, wrapB, []byte{c.op, wasm.OpcodeBrIf, 0,
			wasm.OpcodeI64Const, 9, wasm.OpcodeReturn, wasm.OpcodeEnd, wasm.OpcodeI64Const, 7})...)
	}

	// Stores of the low 4, 2 and 1 bytes, read back as 8.
	stores := []struct {
		name string
		op   wasm.Opcode
		addr byte
		mask uint64
	}{
		{"store32", wasm.OpcodeI32Store, 8, 0xffffffff},
		{"store16", wasm.OpcodeI32Store16, 16, 0xffff},
		{"store8", wasm.OpcodeI32Store8, 24, 0xff},
	}
	for _, s := range stores {
		mask := s.mask
		add(LowHalfCase{Name: s.name, Want: func(a, _ uint64) uint64 { return a & mask }},
			cat([]byte{wasm.OpcodeI32Const, s.addr}, wrapA, []byte{s.op, 0, 0,
				wasm.OpcodeI32Const, s.addr, wasm.OpcodeI64Load, 0, 0})...)
	}

	// Extensions of a wrap.
	add(LowHalfCase{Name: "extend_i32_s", Want: func(a, _ uint64) uint64 { return uint64(int64(int32(a))) }},
		cat(wrapA, []byte{wasm.OpcodeI64ExtendI32S})...)
	add(LowHalfCase{Name: "extend_i32_u", Want: func(a, _ uint64) uint64 { return uint64(uint32(a)) }},
		cat(wrapA, ext)...)
	add(LowHalfCase{Name: "extend8_s", Want: func(a, _ uint64) uint64 { return uint64(uint32(int32(int8(a)))) }},
		cat(wrapA, []byte{wasm.OpcodeI32Extend8S}, ext)...)
	add(LowHalfCase{Name: "extend16_s", Want: func(a, _ uint64) uint64 { return uint64(uint32(int32(int16(a)))) }},
		cat(wrapA, []byte{wasm.OpcodeI32Extend16S}, ext)...)

	// Wraps that must stay: used twice, passed through a block result,
	// used as an address.
	add(LowHalfCase{Name: "wrap used twice", Want: func(a, _ uint64) uint64 { x := uint32(a); return uint64(x*x + x) }},
		cat(wrapA, []byte{wasm.OpcodeLocalTee, 2, wasm.OpcodeLocalGet, 2, wasm.OpcodeI32Mul, wasm.OpcodeLocalGet, 2, wasm.OpcodeI32Add}, ext)...)
	m.CodeSection[len(m.CodeSection)-1].LocalTypes = []wasm.ValueType{i32}
	add(LowHalfCase{Name: "wrap through a block result", Want: func(a, _ uint64) uint64 { return uint64(uint32(a)) }},
		cat([]byte{wasm.OpcodeBlock, 0x7f}, wrapA, []byte{wasm.OpcodeLocalGet, 1, wasm.OpcodeI64Eqz, wasm.OpcodeBrIf, 0,
			wasm.OpcodeI32Const, 0, wasm.OpcodeI32Add, wasm.OpcodeEnd}, ext)...)
	// The address is a with its bits 12-31 cleared, plus 32: the wrap's
	// upper half is a's, and only a zero-extended wrap is in bounds. The
	// page is zero past the store functions' bytes at 8..31.
	addr := cat([]byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Const}, leb128.EncodeInt64(-0xfffff001),
		[]byte{wasm.OpcodeI64And, wasm.OpcodeI64Const, 32, wasm.OpcodeI64Add, wasm.OpcodeI32WrapI64})
	add(LowHalfCase{Name: "wrap as an address", Want: func(a, _ uint64) uint64 { return 0 }},
		cat(addr, []byte{wasm.OpcodeI32Load8U, 0, 0}, ext)...)
	// The zero-extension of a loaded i32 stays a load (movl from memory).
	add(LowHalfCase{Name: "extend of a load", Want: func(a, _ uint64) uint64 { return 0 }},
		wasm.OpcodeI32Const, 0, wasm.OpcodeI32Load, 2, 0, wasm.OpcodeI64ExtendI32U)
	return m, cases
}
