package amd64

import (
	"fmt"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/backend/regalloc"
	"github.com/tetratelabs/wazero/internal/engine/wazevo/ssa"
	"github.com/tetratelabs/wazero/internal/platform"
)

// vexOpcode is a VEX-encoded (AVX) instruction of the xmmRmRVex kind (pybox
// patch: relaxed SIMD's fused multiply-adds). They need
// platform.CpuFeatureAmd64FMA.
type vexOpcode byte

const (
	vexOpcodeInvalid vexOpcode = iota
	// vexOpcodeVfmadd231ps is VFMADD231PS xmm1, xmm2, xmm3: xmm1 = xmm2*xmm3 + xmm1 on f32x4, one rounding.
	vexOpcodeVfmadd231ps
	// vexOpcodeVfmadd231pd is VFMADD231PD xmm1, xmm2, xmm3: xmm1 = xmm2*xmm3 + xmm1 on f64x2, one rounding.
	vexOpcodeVfmadd231pd
	// vexOpcodeVfnmadd231ps is VFNMADD231PS xmm1, xmm2, xmm3: xmm1 = -(xmm2*xmm3) + xmm1 on f32x4, one rounding.
	vexOpcodeVfnmadd231ps
	// vexOpcodeVfnmadd231pd is VFNMADD231PD xmm1, xmm2, xmm3: xmm1 = -(xmm2*xmm3) + xmm1 on f64x2, one rounding.
	vexOpcodeVfnmadd231pd
)

// String implements fmt.Stringer.
func (o vexOpcode) String() string {
	switch o {
	case vexOpcodeVfmadd231ps:
		return "vfmadd231ps"
	case vexOpcodeVfmadd231pd:
		return "vfmadd231pd"
	case vexOpcodeVfnmadd231ps:
		return "vfnmadd231ps"
	case vexOpcodeVfnmadd231pd:
		return "vfnmadd231pd"
	}
	return fmt.Sprintf("vexOpcode(%d)", byte(o))
}

// asXmmRmRVex makes i the VEX instruction op with the operands in AT&T
// order: rm, src, rd (for vfmadd231pd: rd = src*rm + rd). All three are
// registers.
func (i *instruction) asXmmRmRVex(op vexOpcode, rm operand, src, rd regalloc.VReg) *instruction {
	if rm.kind != operandKindReg {
		panic("BUG")
	}
	i.kind = xmmRmRVex
	i.op1 = rm
	i.op2 = newOperandReg(rd)
	i.u1 = uint64(op)
	i.u2 = uint64(src)
	return i
}

// encodeXmmRmRVex emits the VEX.128 instruction op with ModRM.reg = reg
// (the destination), VEX.vvvv = vvvv (the first source) and ModRM.rm = rm
// (the second source, a register). Intel SDM vol. 2, 2.3.5 (the three-byte
// VEX prefix): 0xC4; then R̄ X̄ B̄ m-mmmm, where R̄ and B̄ are the inverted
// fourth bits of reg and rm, X̄ is 1 (no index) and m-mmmm is 00010 (the
// 0F 38 opcode map); then W v̄v̄v̄v̄ L pp, where v̄v̄v̄v̄ is the inverted vvvv,
// L is 0 (128 bits) and pp is 01 (the implied 66 prefix). Then the opcode
// byte and ModRM with mod 11 (register-direct).
//
// VFMADD231PS/PD: VEX.128.66.0F38.W0/W1 B8 /r; VFNMADD231PS/PD:
// VEX.128.66.0F38.W0/W1 BC /r (Intel SDM vol. 2, "VFMADD132PD/..." and
// "VFNMADD132PD/...").
func encodeXmmRmRVex(c backend.Compiler, op vexOpcode, reg, vvvv, rm regEnc) {
	var opcode, w byte
	switch op {
	case vexOpcodeVfmadd231ps:
		opcode, w = 0xb8, 0
	case vexOpcodeVfmadd231pd:
		opcode, w = 0xb8, 1
	case vexOpcodeVfnmadd231ps:
		opcode, w = 0xbc, 0
	case vexOpcodeVfnmadd231pd:
		opcode, w = 0xbc, 1
	default:
		panic(fmt.Sprintf("BUG: invalid VEX opcode %d", op))
	}
	const mapOF38, pp66 = 0b00010, 0b01
	c.EmitByte(0xc4)
	c.EmitByte((^reg.rexBit()&1)<<7 | 1<<6 | (^rm.rexBit()&1)<<5 | mapOF38)
	c.EmitByte(w<<7 | (^byte(vvvv)&0xf)<<3 | pp66)
	c.EmitByte(opcode)
	c.EmitByte(encodeModRM(3, reg.encoding(), rm.encoding()))
}

// lowerVFmadd lowers ssa.OpcodeVFmadd and ssa.OpcodeVFnmadd: x*y+z (or
// -(x*y)+z) as VFMADD231 (VFNMADD231) on a copy of z where the CPU has FMA,
// otherwise as MULPS/MULPD then ADDPS/ADDPD (SUBPS/SUBPD from z), which
// rounds twice, as relaxed SIMD allows.
func (m *machine) lowerVFmadd(instr *ssa.Instruction) {
	x, y, z, lane := instr.Arg3WithLane()
	negate := instr.Opcode() == ssa.OpcodeVFnmadd
	rd := m.c.VRegOf(instr.Return())
	xReg := m.getOperand_Reg(m.c.ValueDefinition(x))
	yReg := m.getOperand_Reg(m.c.ValueDefinition(y))
	zReg := m.getOperand_Reg(m.c.ValueDefinition(z))

	if m.cpuFeatures.Has(platform.CpuFeatureAmd64FMA) {
		var op vexOpcode
		switch {
		case lane == ssa.VecLaneF32x4 && !negate:
			op = vexOpcodeVfmadd231ps
		case lane == ssa.VecLaneF64x2 && !negate:
			op = vexOpcodeVfmadd231pd
		case lane == ssa.VecLaneF32x4:
			op = vexOpcodeVfnmadd231ps
		default:
			op = vexOpcodeVfnmadd231pd
		}
		acc := m.copyToTmp(zReg.reg())
		m.insert(m.allocateInstr().asXmmRmRVex(op, yReg, xReg.reg(), acc))
		m.copyTo(acc, rd)
		return
	}

	mul, add, sub := sseOpcodeMulps, sseOpcodeAddps, sseOpcodeSubps
	if lane == ssa.VecLaneF64x2 {
		mul, add, sub = sseOpcodeMulpd, sseOpcodeAddpd, sseOpcodeSubpd
	}
	// The sum goes to a copy of z, as wasm's f64x2.add(z, f64x2.mul(x, y))
	// is lowered: an accumulator stays in its register across a loop.
	prod := m.copyToTmp(xReg.reg())
	m.insert(m.allocateInstr().asXmmRmR(mul, yReg, prod))
	op := add
	if negate {
		op = sub
	}
	acc := m.copyToTmp(zReg.reg())
	m.insert(m.allocateInstr().asXmmRmR(op, newOperandReg(prod), acc))
	m.copyTo(acc, rd)
}
