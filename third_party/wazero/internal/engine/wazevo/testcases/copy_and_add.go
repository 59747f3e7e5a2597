package testcases

import (
	"fmt"
	"math"

	"github.com/tetratelabs/wazero/internal/leb128"
	"github.com/tetratelabs/wazero/internal/wasm"
)

// CopyAndAddCase is one function of CopyAndAddModule.
type CopyAndAddCase struct {
	// Name says what the function adds, e.g. "i32 x+-4".
	Name string
	// Want is what the function returns for its parameters a and b.
	Want func(a, b uint64) uint64
}

// CopyAndAddModule returns a module whose functions, exported as "f0",
// "f1", ..., take two i64 parameters a and b and return an i64: each adds
// a constant, or b, to a value x taken from a that stays in use after the
// add (returning y*3 + x for y = x + k), so that the lowering copies x
// before adding to the copy. The amd64 encoder makes such a copy and add
// one lea where nothing reads the add's flags (pybox patch 0069); the
// constants are those where a lea's displacement could go wrong: the
// limits of int32, their negations, and values that carry out of 32 bits.
// The 32-bit functions work on a's low half and return their results
// zero-extended.
func CopyAndAddModule() (*wasm.Module, []CopyAndAddCase) {
	m := &wasm.Module{
		TypeSection: []wasm.FunctionType{{
			Params:  []wasm.ValueType{i64, i64},
			Results: []wasm.ValueType{i64},
		}},
	}
	var cases []CopyAndAddCase
	add := func(c CopyAndAddCase, body []byte) {
		idx := wasm.Index(len(m.FunctionSection))
		m.FunctionSection = append(m.FunctionSection, 0)
		m.CodeSection = append(m.CodeSection, wasm.Code{Body: body})
		m.ExportSection = append(m.ExportSection, wasm.Export{Name: fmt.Sprintf("f%d", idx), Type: wasm.ExternTypeFunc, Index: idx})
		cases = append(cases, c)
	}
	// y*3 + x, both at the function's width, as an i64.
	finish32 := []byte{
		wasm.OpcodeI32Const, 3, wasm.OpcodeI32Mul, wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeI32Add,
		wasm.OpcodeI64ExtendI32U, wasm.OpcodeEnd,
	}
	finish64 := []byte{wasm.OpcodeI64Const, 3, wasm.OpcodeI64Mul, wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Add, wasm.OpcodeEnd}

	consts := []int64{1, -1, 4, -4, 127, 128, -128, -129, math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, -math.MaxInt32, 1 << 40, -(1 << 40)}
	for _, k := range consts {
		for _, sub := range []bool{false, true} {
			opName, op32, op64 := "+", wasm.OpcodeI32Add, wasm.OpcodeI64Add
			if sub {
				opName, op32, op64 = "-", wasm.OpcodeI32Sub, wasm.OpcodeI64Sub
			}
			if k >= math.MinInt32 && k <= math.MaxInt32 {
				k32 := int32(k)
				body := []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeI32Const}
				body = append(body, leb128.EncodeInt32(k32)...)
				body = append(body, op32)
				body = append(body, finish32...)
				add(CopyAndAddCase{
					Name: fmt.Sprintf("i32 x%s%d", opName, k32),
					Want: func(a, _ uint64) uint64 {
						x := uint32(a)
						y := x + uint32(k32)
						if sub {
							y = x - uint32(k32)
						}
						return uint64(y*3 + x)
					},
				}, body)
			}
			body := []byte{wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Const}
			body = append(body, leb128.EncodeInt64(k)...)
			body = append(body, op64)
			body = append(body, finish64...)
			add(CopyAndAddCase{
				Name: fmt.Sprintf("i64 x%s%d", opName, k),
				Want: func(a, _ uint64) uint64 {
					y := a + uint64(k)
					if sub {
						y = a - uint64(k)
					}
					return y*3 + a
				},
			}, body)
		}
	}
	// x + b at both widths, b also in use after the add.
	add(CopyAndAddCase{
		Name: "i32 x+b",
		Want: func(a, b uint64) uint64 {
			x, y := uint32(a), uint32(a)+uint32(b)
			return uint64(y*3+x) + b
		},
	}, []byte{
		wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeLocalGet, 1, wasm.OpcodeI32WrapI64, wasm.OpcodeI32Add,
		wasm.OpcodeI32Const, 3, wasm.OpcodeI32Mul, wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeI32Add,
		wasm.OpcodeI64ExtendI32U, wasm.OpcodeLocalGet, 1, wasm.OpcodeI64Add, wasm.OpcodeEnd,
	})
	add(CopyAndAddCase{
		Name: "i64 x+b",
		Want: func(a, b uint64) uint64 { return (a+b)*3 + a + b },
	}, []byte{
		wasm.OpcodeLocalGet, 0, wasm.OpcodeLocalGet, 1, wasm.OpcodeI64Add,
		wasm.OpcodeI64Const, 3, wasm.OpcodeI64Mul, wasm.OpcodeLocalGet, 0, wasm.OpcodeI64Add,
		wasm.OpcodeLocalGet, 1, wasm.OpcodeI64Add, wasm.OpcodeEnd,
	})
	// A load from x + 0x10000 where x = a | 0xffff0000: the 32-bit sum
	// wraps to below 0x10000, inside the memory's one page; a sum that did
	// not wrap would be far out of bounds and trap.
	m.MemorySection = &wasm.Memory{Min: 1, Max: 1, IsMaxEncoded: true}
	add(CopyAndAddCase{
		Name: "i32 load at x+0x10000",
		Want: func(a, _ uint64) uint64 { return uint64(uint32(a) | 0xffff0000) },
	}, []byte{
		wasm.OpcodeLocalGet, 0, wasm.OpcodeI32WrapI64, wasm.OpcodeI32Const, 0x80, 0x80, 0x7c, wasm.OpcodeI32Or,
		wasm.OpcodeLocalTee, 2,
		wasm.OpcodeI32Const, 0x80, 0x80, 0x04, wasm.OpcodeI32Add,
		wasm.OpcodeI32Load8U, 0, 0,
		wasm.OpcodeLocalGet, 2, wasm.OpcodeI32Add,
		wasm.OpcodeI64ExtendI32U, wasm.OpcodeEnd,
	})
	m.CodeSection[len(m.CodeSection)-1].LocalTypes = []wasm.ValueType{i32}
	return m, cases
}
