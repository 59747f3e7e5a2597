// Command perfsym names the guest functions in a perf profile of pybox.
//
// pybox runs python.wasm's machine code mapped from wazero's compilation
// cache entry, so perf reports guest samples as offsets into that file,
// with no symbols. perfsym reads the entry's function offset table and the
// function names of the unstripped python.wasm (the build's
// cpython/builddir/wasi/python.wasm: the loop guard and strip keep function
// indices) and sums perf's per-address percentages by function:
//
//	perf record -F 999 -o /tmp/p.perf pybox run script.py
//	perf report -i /tmp/p.perf --no-children --sort dso,sym --stdio -g none \
//	  | go run ./scripts/bench/perfsym -wasm BUILD/cpython/builddir/wasi/python.wasm \
//	      -entry ~/.cache/pybox/wazero/*/<hash>
//
// Host (Go) symbols pass through under their own names, so the output is
// one flat table of guest and host functions.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	wasmPath := flag.String("wasm", "", "unstripped python.wasm (for function names)")
	entryPath := flag.String("entry", "", "wazero compilation cache entry the profile ran from")
	top := flag.Int("top", 40, "rows to print")
	rangeOf := flag.String("range", "", "print the named function's start and end offsets in the entry file (for objdump --start-address/--stop-address) and exit")
	flag.Parse()
	if *wasmPath == "" || *entryPath == "" {
		log.Fatal("perfsym: -wasm and -entry are required")
	}
	names, imported, err := functionNames(*wasmPath)
	if err != nil {
		log.Fatalf("perfsym: %v", err)
	}
	codeStart, offsets, err := entryLayout(*entryPath)
	if err != nil {
		log.Fatalf("perfsym: %v", err)
	}
	if *rangeOf != "" {
		start, end, err := functionRange(*rangeOf, codeStart, offsets, names, imported, *entryPath)
		if err != nil {
			log.Fatalf("perfsym: %v", err)
		}
		fmt.Printf("0x%x 0x%x\n", start, end)
		return
	}
	dso := filepath.Base(*entryPath)
	sums := map[string]float64{}
	var total float64
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasSuffix(f[0], "%") || strings.HasPrefix(f[0], "#") {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
		if err != nil {
			continue
		}
		total += pct
		sym := strings.Join(f[3:], " ")
		if f[1] == dso && strings.HasPrefix(sym, "0x") {
			off, err := strconv.ParseUint(sym[2:], 16, 64)
			if err == nil {
				sym = guestName(off, codeStart, offsets, names, imported)
			}
		} else {
			sym = f[1] + " " + sym
			if i := strings.LastIndex(sym, "/"); i >= 0 && i < len(f[1]) {
				sym = sym[i+1:]
			}
		}
		sums[sym] += pct
	}
	if err := sc.Err(); err != nil {
		log.Fatalf("perfsym: read perf report: %v", err)
	}
	type row struct {
		name string
		pct  float64
	}
	rows := make([]row, 0, len(sums))
	for n, p := range sums {
		rows = append(rows, row{n, p})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].pct > rows[j].pct })
	fmt.Printf("%7.2f%%  total\n", total)
	for i, r := range rows {
		if i == *top {
			break
		}
		fmt.Printf("%7.2f%%  %s\n", r.pct, r.name)
	}
}

// guestName maps an offset into the cache entry to the wasm function whose
// code holds it.
func guestName(off uint64, codeStart uint64, offsets []uint64, names map[uint32]string, imported uint32) string {
	if off < codeStart {
		return "[cache entry header]"
	}
	pos := off - codeStart
	i := sort.Search(len(offsets), func(i int) bool { return offsets[i] > pos }) - 1
	if i < 0 {
		return "[before first function]"
	}
	idx := imported + uint32(i)
	if n, ok := names[idx]; ok {
		return n
	}
	return fmt.Sprintf("func[%d]", idx)
}

// functionRange finds the named function's code in the cache entry file:
// from its offset to the next function's, or to the end of the file for
// the last one.
func functionRange(name string, codeStart uint64, offsets []uint64, names map[uint32]string, imported uint32, entry string) (uint64, uint64, error) {
	for i := range offsets {
		idx := imported + uint32(i)
		if names[idx] != name && fmt.Sprintf("func[%d]", idx) != name {
			continue
		}
		if i+1 < len(offsets) {
			return codeStart + offsets[i], codeStart + offsets[i+1], nil
		}
		st, err := os.Stat(entry)
		if err != nil {
			return 0, 0, err
		}
		return codeStart + offsets[i], uint64(st.Size()), nil
	}
	return 0, 0, fmt.Errorf("no function named %q", name)
}

// entryLayout reads a wazevo cache entry's function offsets and where its
// code starts (pybox fork: 64 KiB-aligned, patch 0005).
func entryLayout(path string) (uint64, []uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	head := make([]byte, 7)
	if _, err := io.ReadFull(r, head); err != nil {
		return 0, nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if string(head[:6]) != "WAZEVO" {
		return 0, nil, fmt.Errorf("%s: not a wazevo cache entry", path)
	}
	if _, err := r.Discard(int(head[6])); err != nil {
		return 0, nil, err
	}
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return 0, nil, err
	}
	offsets := make([]uint64, n)
	if err := binary.Read(r, binary.LittleEndian, offsets); err != nil {
		return 0, nil, fmt.Errorf("%s: function offsets: %w", path, err)
	}
	const align = 64 << 10
	start := uint64(7+int(head[6])+4) + 8*uint64(n) + 8
	start = (start + align - 1) / align * align
	return start, offsets, nil
}

// functionNames reads the "name" custom section's function names.
func functionNames(path string) (map[uint32]string, uint32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, 0, fmt.Errorf("%s: not a wasm module", path)
	}
	var imported uint32
	var names map[uint32]string
	for p := b[8:]; len(p) > 0; {
		id := p[0]
		size, n := uleb(p[1:])
		body := p[1+n : 1+n+int(size)]
		p = p[1+n+int(size):]
		switch id {
		case 2:
			imported = countFuncImports(body)
		case 0:
			l, n := uleb(body)
			if string(body[n:n+int(l)]) != "name" {
				continue
			}
			names = parseNames(body[n+int(l):])
		}
	}
	if names == nil {
		// A stripped module: guest functions are named func[N].
		log.Printf("perfsym: %s has no name section; naming functions by index", path)
	}
	return names, imported, nil
}

func countFuncImports(p []byte) uint32 {
	count, n := uleb(p)
	p = p[n:]
	var funcs uint32
	skipName := func() {
		l, n := uleb(p)
		p = p[n+int(l):]
	}
	limits := func() {
		flags := p[0]
		p = p[1:]
		_, n := uleb(p)
		p = p[n:]
		if flags&1 != 0 {
			_, n = uleb(p)
			p = p[n:]
		}
	}
	for i := uint64(0); i < count; i++ {
		skipName()
		skipName()
		kind := p[0]
		p = p[1:]
		switch kind {
		case 0:
			_, n := uleb(p)
			p = p[n:]
			funcs++
		case 1:
			p = p[1:]
			limits()
		case 2:
			limits()
		case 3:
			p = p[2:]
		case 4:
			p = p[1:]
			_, n := uleb(p)
			p = p[n:]
		}
	}
	return funcs
}

func parseNames(p []byte) map[uint32]string {
	names := map[uint32]string{}
	for len(p) > 0 {
		id := p[0]
		size, n := uleb(p[1:])
		sub := p[1+n : 1+n+int(size)]
		p = p[1+n+int(size):]
		if id != 1 {
			continue
		}
		count, n := uleb(sub)
		sub = sub[n:]
		for i := uint64(0); i < count; i++ {
			idx, n := uleb(sub)
			sub = sub[n:]
			l, n := uleb(sub)
			names[uint32(idx)] = string(sub[n : n+int(l)])
			sub = sub[n+int(l):]
		}
	}
	return names
}

func uleb(p []byte) (uint64, int) {
	var v uint64
	var s uint
	for i, c := range p {
		v |= uint64(c&0x7f) << s
		if c < 0x80 {
			return v, i + 1
		}
		s += 7
	}
	return v, len(p)
}
