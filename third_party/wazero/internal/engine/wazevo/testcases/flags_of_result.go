package testcases

import (
	"fmt"

	"github.com/tetratelabs/wazero/internal/wasm"
)

// FlagsOfResultCase is one function of FlagsOfResultModule: an add, sub,
// and, or or xor of its two parameters, whose result is compared with
// zero and branched on (or selected on). The amd64 backend leaves out
// such a compare where the arithmetic's own flags answer it (pybox patch
// 0068); these functions check that it does so only where that is exact.
type FlagsOfResultCase struct {
	// Name says what the function computes, e.g. "i32.sub lt_s br_if".
	Name string
	// Want is what the function returns for its parameters a and b.
	Want func(a, b uint64) uint64
}

// flagsOfResultOps are the arithmetic operations, by width.
var flagsOfResultOps = []struct {
	name     string
	i32, i64 wasm.Opcode
	eval     func(a, b uint64) uint64
}{
	{"add", wasm.OpcodeI32Add, wasm.OpcodeI64Add, func(a, b uint64) uint64 { return a + b }},
	{"sub", wasm.OpcodeI32Sub, wasm.OpcodeI64Sub, func(a, b uint64) uint64 { return a - b }},
	{"and", wasm.OpcodeI32And, wasm.OpcodeI64And, func(a, b uint64) uint64 { return a & b }},
	{"or", wasm.OpcodeI32Or, wasm.OpcodeI64Or, func(a, b uint64) uint64 { return a | b }},
	{"xor", wasm.OpcodeI32Xor, wasm.OpcodeI64Xor, func(a, b uint64) uint64 { return a ^ b }},
}

// flagsOfResultConds are the comparisons of the result with zero. nz is
// the value itself as a condition (br_if and select take an i32).
var flagsOfResultConds = []struct {
	name     string
	i32, i64 wasm.Opcode // 0: none (nz)
	eval     func(x int64, ux uint64) bool
}{
	{"nz", 0, wasm.OpcodeI64Ne, func(x int64, _ uint64) bool { return x != 0 }},
	{"eqz", wasm.OpcodeI32Eqz, wasm.OpcodeI64Eqz, func(x int64, _ uint64) bool { return x == 0 }},
	{"eq", wasm.OpcodeI32Eq, wasm.OpcodeI64Eq, func(x int64, _ uint64) bool { return x == 0 }},
	{"ne", wasm.OpcodeI32Ne, wasm.OpcodeI64Ne, func(x int64, _ uint64) bool { return x != 0 }},
	{"lt_s", wasm.OpcodeI32LtS, wasm.OpcodeI64LtS, func(x int64, _ uint64) bool { return x < 0 }},
	{"le_s", wasm.OpcodeI32LeS, wasm.OpcodeI64LeS, func(x int64, _ uint64) bool { return x <= 0 }},
	{"gt_s", wasm.OpcodeI32GtS, wasm.OpcodeI64GtS, func(x int64, _ uint64) bool { return x > 0 }},
	{"ge_s", wasm.OpcodeI32GeS, wasm.OpcodeI64GeS, func(x int64, _ uint64) bool { return x >= 0 }},
	{"lt_u", wasm.OpcodeI32LtU, wasm.OpcodeI64LtU, func(_ int64, ux uint64) bool { return false }},
	{"le_u", wasm.OpcodeI32LeU, wasm.OpcodeI64LeU, func(_ int64, ux uint64) bool { return ux == 0 }},
	{"gt_u", wasm.OpcodeI32GtU, wasm.OpcodeI64GtU, func(_ int64, ux uint64) bool { return ux != 0 }},
	{"ge_u", wasm.OpcodeI32GeU, wasm.OpcodeI64GeU, func(_ int64, ux uint64) bool { return true }},
}

// FlagsOfResultModule returns a module whose functions, exported as "f0",
// "f1", ..., each take two i64 parameters a and b and return an i64, and
// the cases that say what each computes. Every operation of add, sub,
// and, or and xor, at 32 and 64 bits, is compared with zero by every
// comparison wasm has (and used as a condition itself), and the result
// branched on with br_if and selected on with select; the last function
// counts down a loop with `sub 1; br_if` (the loop guard's shape). The
// 32-bit functions work on the low halves of a and b and return their
// result sign-extended.
func FlagsOfResultModule() (*wasm.Module, []FlagsOfResultCase) {
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{{
			Params:  []wasm.ValueType{i64, i64},
			Results: []wasm.ValueType{i64},
		}},
	}
	var cases []FlagsOfResultCase
	add := func(c FlagsOfResultCase, body []byte, locals []wasm.ValueType) {
		idx := wasm.Index(len(m.FunctionSection))
		m.FunctionSection = append(m.FunctionSection, 0)
		m.CodeSection = append(m.CodeSection, wasm.Code{LocalTypes: locals, Body: body})
		m.ExportSection = append(m.ExportSection, wasm.Export{Name: fmt.Sprintf("f%d", idx), Type: wasm.ExternTypeFunc, Index: idx})
		cases = append(cases, c)
	}
	for _, w32 := range []bool{true, false} {
		width, vt := "i64", i64
		if w32 {
			width, vt = "i32", i32
		}
		// operands pushes op(a, b) at the function's width.
		operands := func(op wasm.Opcode) []byte {
			if w32 {
				return []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeLocalGet, 1, wasm.OpcodeI32WrapI64, op}
			}
			return []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1, op}
		}
		// widen turns the width's value on the stack into an i64.
		widen := func() []byte {
			if w32 {
				return []byte{wasm.OpcodeI64ExtendI32S}
			}
			return nil
		}
		for _, op := range flagsOfResultOps {
			for _, cnd := range flagsOfResultConds {
				// condition pushes the i32 condition for the value on the stack.
				condition := func() []byte {
					switch {
					case w32 && cnd.i32 == 0:
						return nil
					case w32 && cnd.i32 == wasm.OpcodeI32Eqz:
						return []byte{cnd.i32}
					case w32:
						return []byte{wasm.OpcodeI32Const, 0, cnd.i32}
					case cnd.i64 == wasm.OpcodeI64Eqz:
						return []byte{cnd.i64}
					default:
						return []byte{wasm.OpcodeI64Const, 0, cnd.i64}
					}
				}
				opc := op.i64
				if w32 {
					opc = op.i32
				}
				eval, holds := op.eval, cnd.eval
				value := func(a, b uint64) (int64, uint64) {
					x := eval(a, b)
					if w32 {
						return int64(int32(uint32(x))), uint64(uint32(x))
					}
					return int64(x), x
				}

				// br_if: the taken branch returns x, the other x+1000.
				body := operands(opc)
				body = append(body, wasm.OpcodeLocalTee, 2)
				body = append(body, condition()...)
				body = append(body, wasm.OpcodeBrIf, 0)
				body = append([]byte{wasm.OpcodeBlock, blockSignature_vv}, body...)
				body = append(body, wasm.OpcodeLocalGet, 2)
				body = append(body, widen()...)
				body = append(body, wasm.OpcodeI64Const, 0xe8, 0x07, wasm.OpcodeI64Add, wasm.OpcodeReturn, wasm.OpcodeEnd)
				body = append(body, wasm.OpcodeLocalGet, 2)
				body = append(body, widen()...)
				body = append(body, wasm.OpcodeEnd)
				add(FlagsOfResultCase{
					Name: fmt.Sprintf("%s.%s %s br_if", width, op.name, cnd.name),
					Want: func(a, b uint64) uint64 {
						x, ux := value(a, b)
						if holds(x, ux) {
							return uint64(x)
						}
						return uint64(x + 1000)
					},
				}, body, []wasm.ValueType{vt})

				// select: x plus 1 where the condition holds, 2 where not.
				body = []byte{wasm.OpcodeI64Const, 1, wasm.OpcodeI64Const, 2}
				body = append(body, operands(opc)...)
				body = append(body, wasm.OpcodeLocalTee, 2)
				body = append(body, condition()...)
				body = append(body, wasm.OpcodeSelect, wasm.OpcodeLocalGet, 2)
				body = append(body, widen()...)
				body = append(body, wasm.OpcodeI64Add, wasm.OpcodeEnd)
				add(FlagsOfResultCase{
					Name: fmt.Sprintf("%s.%s %s select", width, op.name, cnd.name),
					Want: func(a, b uint64) uint64 {
						x, ux := value(a, b)
						if holds(x, ux) {
							return uint64(x + 1)
						}
						return uint64(x + 2)
					},
				}, body, []wasm.ValueType{vt})
			}
		}
	}

	// A countdown from (a & 0xfff) + 1 to zero, adding 3 per iteration.
	body := []byte{
		wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeI32Const, 0xff, 0x1f, wasm.OpcodeI32And,
		wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeLocalSet, 2,
		wasm.OpcodeLoop, blockSignature_vv,
		wasm.OpcodeLocalGet, 3, wasm.OpcodeI64Const, 3, wasm.OpcodeI64Add, wasm.OpcodeLocalSet, 3,
		wasm.OpcodeLocalGet, 2, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Sub, wasm.OpcodeLocalTee, 2,
		wasm.OpcodeBrIf, 0,
		wasm.OpcodeEnd,
		wasm.OpcodeLocalGet, 3,
		wasm.OpcodeEnd,
	}
	add(FlagsOfResultCase{
		Name: "countdown loop",
		Want: func(a, _ uint64) uint64 { return 3 * (a&0xfff + 1) },
	}, body, []wasm.ValueType{i32, i64})
	return m, cases
}
