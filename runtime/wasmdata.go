package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// dataSegment is an active data segment of python.wasm: bytes that
// instantiation copies into linear memory at offset (the C program's
// initialised data and constants; 4.5 MB).
type dataSegment struct {
	offset uint32
	data   []byte
}

// splitData returns wasm with the bytes of every active data segment taken
// out (each segment stays, empty) and the segments themselves. An
// interpreter restored from a snapshot gets its whole memory from the
// snapshot, so copying the data segments at instantiation would be wasted:
// measured, it was the largest cost of a restore (4.5 MB copied into fresh
// pages). Booting interpreters get the segments from applyData instead.
//
// Only the form wasm-ld emits for python.wasm is understood (active
// segments of memory 0 at an i32.const offset); anything else is an error
// and the module is then used unchanged.
func splitData(wasm []byte) ([]byte, []dataSegment, error) {
	var segs []dataSegment
	out, err := rewriteSections(wasm, func(id byte, payload []byte) ([]byte, error) {
		if id != 11 { // data
			return payload, nil
		}
		var err error
		segs, payload, err = emptySegments(payload)
		if err != nil {
			return nil, fmt.Errorf("data section: %w", err)
		}
		return payload, nil
	})
	return out, segs, err
}

// rewriteSections returns wasm with each section's payload replaced by what
// rewrite returns for it (the payload itself to keep it), section order and
// ids unchanged. It reads only the sections' headers and what rewrite reads,
// and writes the result in one allocation of its final size (growing it
// by appends copied python.wasm's ~0.5 MB structure several times, on
// every warm start).
func rewriteSections(wasm []byte, rewrite func(id byte, payload []byte) ([]byte, error)) ([]byte, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	type section struct {
		id      byte
		payload []byte
	}
	var sections []section
	size := 8
	for pos := 8; pos < len(wasm); {
		id := wasm[pos]
		n, k := binary.Uvarint(wasm[pos+1:])
		if k <= 0 || uint64(len(wasm)-pos-1-k) < n {
			return nil, fmt.Errorf("section at offset %d: bad size", pos)
		}
		start := pos + 1 + k
		end := start + int(n)
		payload, err := rewrite(id, wasm[start:end])
		if err != nil {
			return nil, err
		}
		sections = append(sections, section{id, payload})
		size += 1 + binary.MaxVarintLen32 + len(payload)
		pos = end
	}
	out := append(make([]byte, 0, size), wasm[:8]...)
	for _, s := range sections {
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(s.payload)))
		out = append(out, s.payload...)
	}
	return out, nil
}

// emptySegments parses a data section and returns its segments and the
// section rewritten with every segment empty.
func emptySegments(sec []byte) ([]dataSegment, []byte, error) {
	count, n := binary.Uvarint(sec)
	if n <= 0 || count > uint64(len(sec)) {
		return nil, nil, errors.New("bad segment count")
	}
	pos := n
	out := binary.AppendUvarint(nil, count)
	segs := make([]dataSegment, 0, count)
	for i := uint64(0); i < count; i++ {
		// flags 0 (active, memory 0), offset expression "i32.const v end".
		if pos+2 > len(sec) || sec[pos] != 0 || sec[pos+1] != 0x41 {
			return nil, nil, fmt.Errorf("segment %d: not an active segment at an i32.const offset", i)
		}
		v, m := sleb32(sec[pos+2:])
		exprEnd := pos + 2 + m
		if m <= 0 || exprEnd >= len(sec) || sec[exprEnd] != 0x0b {
			return nil, nil, fmt.Errorf("segment %d: bad offset expression", i)
		}
		size, k := binary.Uvarint(sec[exprEnd+1:])
		dataStart := exprEnd + 1 + k
		if k <= 0 || uint64(len(sec)-dataStart) < size {
			return nil, nil, fmt.Errorf("segment %d: bad size", i)
		}
		segs = append(segs, dataSegment{offset: uint32(v), data: sec[dataStart : dataStart+int(size)]})
		out = append(out, sec[pos:exprEnd+1]...) // flags and offset expression
		out = append(out, 0)                     // no bytes
		pos = dataStart + int(size)
	}
	if pos != len(sec) {
		return nil, nil, errors.New("trailing bytes")
	}
	return segs, out, nil
}

// sleb32 decodes a signed LEB128 value of at most 5 bytes; n <= 0 on error.
func sleb32(b []byte) (v int32, n int) {
	var r int64
	var shift uint
	for i := 0; i < 5 && i < len(b); i++ {
		c := b[i]
		r |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				r |= -1 << shift
			}
			return int32(r), i + 1
		}
	}
	return 0, -1
}

// applyData copies the data segments splitData took out into a freshly
// instantiated interpreter's memory, as instantiation would have.
func (e *Engine) applyData(inst *instance) error {
	mem := inst.mod.Memory()
	for _, s := range e.data {
		if !mem.Write(s.offset, s.data) {
			return fmt.Errorf("data segment at %#x (%d bytes) is out of the guest memory", s.offset, len(s.data))
		}
	}
	return nil
}

// stubBody is a function body that declares no locals and only ends: what
// moduleStub puts in place of every function's code.
var stubBody = []byte{2, 0, 0x0b}

// moduleStub returns the structure of wasm without its code: every section
// as splitData leaves it (data segments emptied), except that each function
// body is stubBody. With the module's digest, wazero loads the module's
// compiled code from the cache from the stub alone
// (experimental.WithCachedModuleOnly): python.wasm's 33 MB of code are then
// neither read nor decoded nor hashed, and the stub is about 300 KB. It
// reads only section headers, the sections before the code, and the data
// segments' headers, so the pages of a mapped module that hold code or data
// are not touched. The data segments are returned as splitData returns them.
func moduleStub(wasm []byte) ([]byte, []dataSegment, error) {
	var segs []dataSegment
	sawCode := false
	out, err := rewriteSections(wasm, func(id byte, payload []byte) ([]byte, error) {
		switch id {
		case 10: // code
			count, k := binary.Uvarint(payload)
			if k <= 0 || count > uint64(len(payload)) {
				return nil, errors.New("code section: bad function count")
			}
			stub := binary.AppendUvarint(make([]byte, 0, k+int(count)*len(stubBody)), count)
			for range count {
				stub = append(stub, stubBody...)
			}
			sawCode = true
			return stub, nil
		case 11: // data
			var err error
			if segs, payload, err = emptySegments(payload); err != nil {
				return nil, fmt.Errorf("data section: %w", err)
			}
		}
		return payload, nil
	})
	if err != nil {
		return nil, nil, err
	}
	if !sawCode {
		return nil, nil, errors.New("no code section")
	}
	return out, segs, nil
}
