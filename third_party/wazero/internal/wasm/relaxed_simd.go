package wasm

import (
	"fmt"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// OpcodeVecRelaxed is a relaxed SIMD instruction (the "relaxed-simd"
// proposal, part of WebAssembly 3.0) as its opcode minus 0x100: after
// OpcodeVecPrefix, the instruction 0x105 (f32x4.relaxed_madd) is encoded as
// the LEB128 bytes 0x85 0x02 and is OpcodeVecRelaxedF32x4Madd (0x05).
//
// The other vector instructions are read as one byte after the prefix; the
// ones from 0x80 to 0xff are followed by 0x01 (the second LEB128 byte),
// which the validator and compilers read as a nop. A relaxed instruction is
// a byte from 0x80 followed by 0x02: see RelaxedVecOpcode.
type OpcodeVecRelaxed = byte

// The relaxed SIMD instructions, as OpcodeVecRelaxed.
const (
	OpcodeVecRelaxedI8x16Swizzle           OpcodeVecRelaxed = 0x00
	OpcodeVecRelaxedI32x4TruncF32x4S       OpcodeVecRelaxed = 0x01
	OpcodeVecRelaxedI32x4TruncF32x4U       OpcodeVecRelaxed = 0x02
	OpcodeVecRelaxedI32x4TruncF64x2SZero   OpcodeVecRelaxed = 0x03
	OpcodeVecRelaxedI32x4TruncF64x2UZero   OpcodeVecRelaxed = 0x04
	OpcodeVecRelaxedF32x4Madd              OpcodeVecRelaxed = 0x05
	OpcodeVecRelaxedF32x4Nmadd             OpcodeVecRelaxed = 0x06
	OpcodeVecRelaxedF64x2Madd              OpcodeVecRelaxed = 0x07
	OpcodeVecRelaxedF64x2Nmadd             OpcodeVecRelaxed = 0x08
	OpcodeVecRelaxedI8x16Laneselect        OpcodeVecRelaxed = 0x09
	OpcodeVecRelaxedI16x8Laneselect        OpcodeVecRelaxed = 0x0a
	OpcodeVecRelaxedI32x4Laneselect        OpcodeVecRelaxed = 0x0b
	OpcodeVecRelaxedI64x2Laneselect        OpcodeVecRelaxed = 0x0c
	OpcodeVecRelaxedF32x4Min               OpcodeVecRelaxed = 0x0d
	OpcodeVecRelaxedF32x4Max               OpcodeVecRelaxed = 0x0e
	OpcodeVecRelaxedF64x2Min               OpcodeVecRelaxed = 0x0f
	OpcodeVecRelaxedF64x2Max               OpcodeVecRelaxed = 0x10
	OpcodeVecRelaxedI16x8Q15mulrS          OpcodeVecRelaxed = 0x11
	OpcodeVecRelaxedI16x8DotI8x16I7x16S    OpcodeVecRelaxed = 0x12
	OpcodeVecRelaxedI32x4DotI8x16I7x16AddS OpcodeVecRelaxed = 0x13
	opcodeVecRelaxedEnd                    OpcodeVecRelaxed = 0x14
)

var relaxedVecInstructionNames = [opcodeVecRelaxedEnd]string{
	OpcodeVecRelaxedI8x16Swizzle:           "i8x16.relaxed_swizzle",
	OpcodeVecRelaxedI32x4TruncF32x4S:       "i32x4.relaxed_trunc_f32x4_s",
	OpcodeVecRelaxedI32x4TruncF32x4U:       "i32x4.relaxed_trunc_f32x4_u",
	OpcodeVecRelaxedI32x4TruncF64x2SZero:   "i32x4.relaxed_trunc_f64x2_s_zero",
	OpcodeVecRelaxedI32x4TruncF64x2UZero:   "i32x4.relaxed_trunc_f64x2_u_zero",
	OpcodeVecRelaxedF32x4Madd:              "f32x4.relaxed_madd",
	OpcodeVecRelaxedF32x4Nmadd:             "f32x4.relaxed_nmadd",
	OpcodeVecRelaxedF64x2Madd:              "f64x2.relaxed_madd",
	OpcodeVecRelaxedF64x2Nmadd:             "f64x2.relaxed_nmadd",
	OpcodeVecRelaxedI8x16Laneselect:        "i8x16.relaxed_laneselect",
	OpcodeVecRelaxedI16x8Laneselect:        "i16x8.relaxed_laneselect",
	OpcodeVecRelaxedI32x4Laneselect:        "i32x4.relaxed_laneselect",
	OpcodeVecRelaxedI64x2Laneselect:        "i64x2.relaxed_laneselect",
	OpcodeVecRelaxedF32x4Min:               "f32x4.relaxed_min",
	OpcodeVecRelaxedF32x4Max:               "f32x4.relaxed_max",
	OpcodeVecRelaxedF64x2Min:               "f64x2.relaxed_min",
	OpcodeVecRelaxedF64x2Max:               "f64x2.relaxed_max",
	OpcodeVecRelaxedI16x8Q15mulrS:          "i16x8.relaxed_q15mulr_s",
	OpcodeVecRelaxedI16x8DotI8x16I7x16S:    "i16x8.relaxed_dot_i8x16_i7x16_s",
	OpcodeVecRelaxedI32x4DotI8x16I7x16AddS: "i32x4.relaxed_dot_i8x16_i7x16_add_s",
}

// RelaxedVecOpcode reports whether the vector instruction whose opcode
// starts at code[0] (the byte after OpcodeVecPrefix) is a relaxed SIMD
// instruction, and which. A relaxed instruction's opcode takes two bytes,
// code[0] and code[1] (always 0x02).
func RelaxedVecOpcode(code []byte) (op OpcodeVecRelaxed, ok bool) {
	if len(code) < 2 || code[0] < 0x80 || code[1] != 0x02 {
		return 0, false
	}
	return code[0] & 0x7f, true
}

// RelaxedVectorInstructionName returns the name of the relaxed SIMD
// instruction, or its opcode in hexadecimal if there is no such instruction.
func RelaxedVectorInstructionName(oc OpcodeVecRelaxed) string {
	if oc < opcodeVecRelaxedEnd {
		return relaxedVecInstructionNames[oc]
	}
	return fmt.Sprintf("relaxed SIMD opcode %#x", 0x100+int(oc))
}

// RelaxedVecOperands returns how many v128 operands the relaxed SIMD
// instruction pops (each pushes one v128), or 0 if there is no such
// instruction.
func RelaxedVecOperands(oc OpcodeVecRelaxed) int {
	switch oc {
	case OpcodeVecRelaxedI32x4TruncF32x4S, OpcodeVecRelaxedI32x4TruncF32x4U,
		OpcodeVecRelaxedI32x4TruncF64x2SZero, OpcodeVecRelaxedI32x4TruncF64x2UZero:
		return 1
	case OpcodeVecRelaxedI8x16Swizzle,
		OpcodeVecRelaxedF32x4Min, OpcodeVecRelaxedF32x4Max, OpcodeVecRelaxedF64x2Min, OpcodeVecRelaxedF64x2Max,
		OpcodeVecRelaxedI16x8Q15mulrS, OpcodeVecRelaxedI16x8DotI8x16I7x16S:
		return 2
	case OpcodeVecRelaxedF32x4Madd, OpcodeVecRelaxedF32x4Nmadd, OpcodeVecRelaxedF64x2Madd, OpcodeVecRelaxedF64x2Nmadd,
		OpcodeVecRelaxedI8x16Laneselect, OpcodeVecRelaxedI16x8Laneselect,
		OpcodeVecRelaxedI32x4Laneselect, OpcodeVecRelaxedI64x2Laneselect,
		OpcodeVecRelaxedI32x4DotI8x16I7x16AddS:
		return 3
	}
	return 0
}

// validateRelaxedVecInstruction checks that the relaxed SIMD instruction
// exists and is enabled, and pops and pushes its operands and result.
func validateRelaxedVecInstruction(op OpcodeVecRelaxed, enabledFeatures api.CoreFeatures, vs *valueTypeStack) error {
	n := RelaxedVecOperands(op)
	name := RelaxedVectorInstructionName(op)
	if n == 0 {
		return fmt.Errorf("unknown SIMD instruction: %s", name)
	}
	if err := enabledFeatures.RequireEnabled(api.CoreFeatureSIMD); err != nil {
		return fmt.Errorf("%s invalid as %v", name, err)
	}
	if err := enabledFeatures.RequireEnabled(experimental.CoreFeaturesRelaxedSIMD); err != nil {
		return fmt.Errorf("%s invalid as %v", name, err)
	}
	for ; n > 0; n-- {
		if err := vs.popAndVerifyType(ValueTypeV128); err != nil {
			return fmt.Errorf("cannot pop the operand for %s: %v", name, err)
		}
	}
	vs.push(ValueTypeV128)
	return nil
}
