package ssa

import (
	"testing"

	"github.com/tetratelabs/wazero/internal/testing/require"
)

func TestDefinitions(t *testing.T) {
	var d definitions
	d.reset()
	_, ok := d.get(definitionKey(0, 0))
	require.False(t, ok)

	// Enough entries to grow the table several times, with keys that share
	// blocks and variables.
	const blocks, vars = 40, 30
	want := func(blk, v int) Value { return Value(blk*1000 + v + 1) }
	for blk := 0; blk < blocks; blk++ {
		for v := 0; v < vars; v++ {
			d.set(definitionKey(BasicBlockID(blk), Variable(v)), want(blk, v)+7)
			d.set(definitionKey(BasicBlockID(blk), Variable(v)), want(blk, v)) // Overwrites.
		}
	}
	require.Equal(t, blocks*vars, d.count)
	for blk := 0; blk < blocks; blk++ {
		for v := 0; v < vars; v++ {
			got, ok := d.get(definitionKey(BasicBlockID(blk), Variable(v)))
			require.True(t, ok)
			require.Equal(t, want(blk, v), got)
		}
		_, ok := d.get(definitionKey(BasicBlockID(blk), Variable(vars)))
		require.False(t, ok)
	}
	_, ok = d.get(definitionKey(basicBlockIDReturnBlock, 0))
	require.False(t, ok)

	// The next function sees none of them.
	d.reset()
	require.Equal(t, 0, d.count)
	_, ok = d.get(definitionKey(3, 4))
	require.False(t, ok)
	d.set(definitionKey(3, 4), 5)
	got, ok := d.get(definitionKey(3, 4))
	require.True(t, ok)
	require.Equal(t, Value(5), got)
	_, ok = d.get(definitionKey(3, 5))
	require.False(t, ok)

	// A generation that wraps around clears the slots.
	d.gen = ^uint32(0)
	d.reset()
	require.Equal(t, uint32(1), d.gen)
	_, ok = d.get(definitionKey(3, 4))
	require.False(t, ok)
	for i := range d.slots {
		require.Equal(t, uint32(0), d.slots[i].gen)
	}
}

// TestBuilder_definitionsPerFunction checks that a variable's definitions in
// one function's blocks are not found in the next function's blocks of the
// same IDs.
func TestBuilder_definitionsPerFunction(t *testing.T) {
	b := NewBuilder().(*builder)
	b.Init(&Signature{})
	blk := b.AllocateBasicBlock()
	b.SetCurrentBlock(blk)
	v := b.DeclareVariable(TypeI32)
	val := b.allocateValue(TypeI32)
	b.DefineVariableInCurrentBB(v, val)
	require.Equal(t, val, b.MustFindValue(v))
	require.Equal(t, val, b.findValueInLinearPath(v, blk.(*basicBlock)))

	// Init resets the info of every value allocated; the passes that size
	// valuesInfo did not run here.
	b.valuesInfo = make([]ValueInfo, b.nextValueID)
	b.Init(&Signature{})
	blk2 := b.AllocateBasicBlock()
	require.Equal(t, blk.ID(), blk2.ID())
	b.SetCurrentBlock(blk2)
	v2 := b.DeclareVariable(TypeI32)
	require.Equal(t, v, v2)
	require.Equal(t, ValueInvalid, b.findValueInLinearPath(v2, blk2.(*basicBlock)))
	// Unsealed and undefined: a placeholder, recorded as unknown.
	b.MustFindValue(v2)
	require.Equal(t, 1, len(blk2.(*basicBlock).unknownValues))
}
