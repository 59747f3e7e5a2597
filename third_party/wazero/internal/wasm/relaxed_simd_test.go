package wasm

import (
	"bytes"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/internal/testing/require"
)

func TestRelaxedVecOpcode(t *testing.T) {
	for _, tc := range []struct {
		code []byte
		op   OpcodeVecRelaxed
		ok   bool
	}{
		{code: []byte{0x85, 0x02}, op: OpcodeVecRelaxedF32x4Madd, ok: true},
		{code: []byte{0x93, 0x02, 0x0b}, op: OpcodeVecRelaxedI32x4DotI8x16I7x16AddS, ok: true},
		{code: []byte{0x80, 0x02}, op: OpcodeVecRelaxedI8x16Swizzle, ok: true},
		{code: []byte{0x80, 0x01}},       // i16x8.abs (0x80), then the nop wazero reads for its second byte
		{code: []byte{0x0e, 0x02, 0x40}}, // i8x16.swizzle, then block
		{code: []byte{0x85}},             // truncated
	} {
		op, ok := RelaxedVecOpcode(tc.code)
		require.Equal(t, tc.ok, ok, "%x", tc.code)
		require.Equal(t, tc.op, op, "%x", tc.code)
	}
}

func TestValidateRelaxedSIMD(t *testing.T) {
	v := ValueTypeV128
	enabled := api.CoreFeaturesV2 | experimental.CoreFeaturesRelaxedSIMD
	for _, tc := range []struct {
		name     string
		params   []ValueType
		body     []byte
		features api.CoreFeatures
		err      string
	}{
		{name: "madd", params: []ValueType{v, v, v}, body: []byte{0x20, 0, 0x20, 1, 0x20, 2, 0xfd, 0x87, 0x02, 0x0b}, features: enabled},
		{name: "trunc", params: []ValueType{v}, body: []byte{0x20, 0, 0xfd, 0x81, 0x02, 0x0b}, features: enabled},
		{
			name: "madd disabled", params: []ValueType{v, v, v}, body: []byte{0x20, 0, 0x20, 1, 0x20, 2, 0xfd, 0x87, 0x02, 0x0b},
			features: api.CoreFeaturesV2, err: `f64x2.relaxed_madd invalid as feature "relaxed-simd" is disabled`,
		},
		{
			name: "madd without SIMD", params: []ValueType{v, v, v}, body: []byte{0x20, 0, 0x20, 1, 0x20, 2, 0xfd, 0x87, 0x02, 0x0b},
			features: experimental.CoreFeaturesRelaxedSIMD, err: `f64x2.relaxed_madd invalid as feature "simd" is disabled`,
		},
		{
			name: "madd with two operands", params: []ValueType{v, v, v}, body: []byte{0x20, 0, 0x20, 1, 0xfd, 0x87, 0x02, 0x0b},
			features: enabled, err: "cannot pop the operand for f64x2.relaxed_madd: v128 missing",
		},
		{
			name: "0x114", params: []ValueType{v, v, v}, body: []byte{0x20, 0, 0x20, 1, 0x20, 2, 0xfd, 0x94, 0x02, 0x0b},
			features: enabled, err: "unknown SIMD instruction: relaxed SIMD opcode 0x114",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &Module{
				TypeSection:     []FunctionType{{Params: tc.params, Results: []ValueType{v}}},
				FunctionSection: []Index{0},
				CodeSection:     []Code{{Body: tc.body}},
			}
			err := m.validateFunction(&stacks{}, tc.features, 0, []Index{0}, nil, nil, nil, nil, nil, bytes.NewReader(nil))
			if tc.err == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, tc.err)
			}
		})
	}
}
