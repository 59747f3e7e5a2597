package ssa

// definitions maps a (basic block, variable) pair to the variable's last
// definition in that block, for all the blocks of the function being built:
// an open-addressing hash table with linear probing.
//
// pybox patch 0021: this replaces a Go map per basic block
// (basicBlock.lastDefinitions), which cost a map lookup per read of a
// variable and, since blocks are reused from a pool, a clear of a map sized
// for the largest block ever built at each block's allocation. Here a slot
// belongs to the current function only if its generation is the table's,
// so starting a new function is one increment.
type definitions struct {
	slots []definitionSlot
	// gen is the current function's generation; slots of another one are
	// empty. Never 0 once reset has run (0 is what fresh slots hold).
	gen   uint32
	count int // slots of the current generation
	shift uint8
}

type definitionSlot struct {
	key   uint64 // block ID << 32 | variable
	gen   uint32
	value Value
}

func definitionKey(blk BasicBlockID, variable Variable) uint64 {
	return uint64(blk)<<32 | uint64(variable)
}

// reset empties the table for the next function.
func (d *definitions) reset() {
	d.gen++
	d.count = 0
	if d.gen == 0 { // Wrapped around: slots of old generations would look current.
		clear(d.slots)
		d.gen = 1
	}
}

// index is the first slot to probe for key.
func (d *definitions) index(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> d.shift)
}

// get returns the value recorded for key, if any.
func (d *definitions) get(key uint64) (Value, bool) {
	if d.count == 0 {
		return ValueInvalid, false
	}
	mask := len(d.slots) - 1
	for i := d.index(key); ; i = (i + 1) & mask {
		s := &d.slots[i]
		if s.gen != d.gen {
			return ValueInvalid, false
		}
		if s.key == key {
			return s.value, true
		}
	}
}

// set records value for key.
func (d *definitions) set(key uint64, value Value) {
	if 2*(d.count+1) > len(d.slots) {
		d.grow()
	}
	mask := len(d.slots) - 1
	for i := d.index(key); ; i = (i + 1) & mask {
		s := &d.slots[i]
		if s.gen != d.gen {
			*s = definitionSlot{key: key, gen: d.gen, value: value}
			d.count++
			return
		}
		if s.key == key {
			s.value = value
			return
		}
	}
}

// grow doubles the table (at least 64 slots) and moves the current
// generation's entries into it.
func (d *definitions) grow() {
	old := d.slots
	n := max(64, 2*len(old))
	d.slots = make([]definitionSlot, n)
	shift := uint8(64)
	for m := n; m > 1; m >>= 1 {
		shift--
	}
	d.shift = shift
	if d.gen == 0 {
		d.gen = 1
	}
	gen := d.gen
	for i := range old {
		if old[i].gen == gen {
			d.count--
			d.set(old[i].key, old[i].value)
		}
	}
}
