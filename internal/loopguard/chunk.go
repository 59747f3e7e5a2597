package loopguard

// Counted innermost loops (Options.Batch).
//
// A batched loop decrements its count local in every iteration, on top of
// whatever the loop itself counts. Many innermost loops that compilers emit
// already count: LLVM's loops over arrays end in
//
//	local.get $k  i32.const -m  i32.add  local.tee $k  br_if 0       (down to zero)
//
// with m a power of two, or
//
//	local.get $n  local.get $i  i32.const s  i32.add  local.tee $i  i32.ne  br_if 0
//
// (up or down to a bound that does not change in the loop; also with the
// bound after the increment, with i32.lt_u or i32.lt_s for s > 0 and
// i32.gt_u or i32.gt_s for s < 0, and followed by a branch out of the
// loop, br N, which is then the loop's way out). Such a loop can be cut
// into chunks of Batch iterations by its own counter. On entry, the count
// local is set to where this chunk ends, and the loop's exit test compares
// with it instead. When the loop leaves by that test, the tail checks
// whether that was the real end or only the chunk's. The iteration then
// costs nothing more than the unguarded loop: the test that was there is
// the only test. A chunk that is not the last takes Batch from the global
// countdown on the yield path, exactly as a batched loop's batch does. The
// last chunk of a visit, like a batched loop's unfinished batch, is not
// counted. So the module yields and sees the kill switch after the same
// iterations as with plain batching (chunks that end early, near the top
// of the integer range, make it sooner).

// Kinds of counted loops.
const (
	chunkDown = iota + 1 // $k counts down to zero by a power of two, read and written only by the exit test
	chunkStep            // $i steps by s towards a bound it must equal (ne) or pass (lt, gt)
)

// chunkLoop describes a counted innermost loop recognised by loopScan.
type chunkLoop struct {
	kind uint8
	// v is $k (chunkDown) or $i (chunkStep).
	v uint32
	// bound is the local holding the bound (chunkStep), unless boundConst,
	// in which case boundVal is the constant.
	bound      uint32
	boundConst bool
	boundVal   int32
	step       int32 // the increment (chunkDown: -2^j; chunkStep with ne: ±2^j)
	// cmp is chunkStep's test with $i first: i32.ne, i32.lt_u or i32.lt_s
	// (step > 0), i32.gt_u or i32.gt_s (step < 0).
	cmp byte
	// brTail is set when the loop's body ends with br_if 0 and then a
	// branch out of the loop (chunkStep only): the tail test goes before
	// that branch (a pointChunkExit) instead of after the loop's end.
	brTail bool
	// nested is set for a loop inside another batched loop: its chunk
	// bound goes in a second local, since the first holds the nest's count.
	nested bool
}

// scanInstr is one instruction seen in a scanned loop body.
type scanInstr struct {
	op       byte
	at, end  int   // the instruction's bytes
	immStart int   // where its immediate starts
	imm      int64 // local index, label or i32 constant
}

// scanLocal is one local.get (write false), local.set or local.tee.
type scanLocal struct {
	idx   uint32
	write bool
}

// loopScan follows the body of the loop most recently opened, as long as
// no other loop opens inside it (that is, while it can be innermost).
type loopScan struct {
	active bool
	depth  int // walkExpr's depth inside the loop
	tail   [8]scanInstr
	n      int // instructions seen; tail holds the last min(n, 8)
	locals []scanLocal
	// cont counts branches to the loop's label, out branches to labels
	// outside it other than the function's (returns).
	cont, out int
}

func (s *loopScan) start(depth int) {
	*s = loopScan{active: true, depth: depth, locals: s.locals[:0]}
}

func (s *loopScan) add(in scanInstr) {
	s.tail[s.n%len(s.tail)] = in
	s.n++
}

// last returns the instruction k places before the most recent (0: the
// most recent), and false if there are not that many.
func (s *loopScan) last(k int) (scanInstr, bool) {
	if k >= s.n || k >= len(s.tail) {
		return scanInstr{}, false
	}
	return s.tail[(s.n-1-k)%len(s.tail)], true
}

// branch records a branch to label l taken at walker depth d.
func (s *loopScan) branch(d int, l uint32) {
	target := d - int(l)
	switch {
	case target == s.depth:
		s.cont++
	case target < s.depth && target != 1:
		s.out++
	}
}

// uses counts the reads and writes of local idx in the loop body.
func (s *loopScan) uses(idx uint32) (reads, writes int) {
	for _, l := range s.locals {
		if l.idx == idx {
			if l.write {
				writes++
			} else {
				reads++
			}
		}
	}
	return reads, writes
}

// Opcodes the recogniser looks at.
const (
	opLocalGet = 0x20
	opLocalSet = 0x21
	opLocalTee = 0x22
	opConstI32 = 0x41
	opNeI32    = 0x47
	opLtSI32   = 0x48
	opLtUI32   = 0x49
	opGtSI32   = 0x4a
	opGtUI32   = 0x4b
	opLeSI32   = 0x4c
	opLeUI32   = 0x4d
	opGeSI32   = 0x4e
	opGeUI32   = 0x4f
	opAddI32   = 0x6a
	opSubI32   = 0x6b
	opBrIf     = 0x0d
	opBr       = 0x0c
)

// match tells whether the scanned loop, whose end has just been reached,
// is a counted loop that can be chunked by batch iterations, and returns
// it with the points that rewrite its exit test.
func (s *loopScan) match(batch uint32) (chunkLoop, []point, bool) {
	if !s.active || s.cont != 1 || batch == 0 {
		return chunkLoop{}, nil, false
	}
	// A loop may also end with the exit test followed by a branch out of
	// it (br_if 0, br N): the branch is then the loop's exit, and the
	// chunk's tail test goes just before it.
	skip := 0
	if last := scanAt(s, 0); last.op == opBr && last.imm >= 1 && scanAt(s, 1).op == opBrIf {
		skip = 1
	}
	get := func(k int) scanInstr { return scanAt(s, k+skip) }
	br := get(0)
	if s.n < 5+skip || br.op != opBrIf || br.imm != 0 {
		return chunkLoop{}, nil, false
	}
	// local.get $k, i32.const -m, i32.add (or i32.const m, i32.sub),
	// local.tee $k, br_if 0, for m a power of two.
	if s.out == 0 && skip == 0 {
		g, c, a, t := get(4), get(3), get(2), get(1)
		m := int64(0)
		if c.op == opConstI32 && a.op == opAddI32 {
			m = -c.imm
		} else if c.op == opConstI32 && a.op == opSubI32 {
			m = c.imm
		}
		dec := m > 0 && m&(m-1) == 0 && uint64(m)*uint64(batch) < 1<<31
		if g.op == opLocalGet && t.op == opLocalTee && g.imm == t.imm && dec {
			k := uint32(g.imm)
			if r, w := s.uses(k); r == 1 && w == 1 {
				return chunkLoop{kind: chunkDown, v: k, step: int32(-m)}, []point{
					{at: g.immStart, kind: pointChunkLocal, end: g.end},
					{at: t.immStart, kind: pointChunkLocal, end: t.end},
				}, true
			}
		}
	}
	// [N] local.get $i i32.const s i32.add local.tee $i i32.ne br_if 0, or
	// local.get $i i32.const s i32.add local.tee $i [N] i32.ne br_if 0,
	// where [N] is local.get $n or i32.const N, and i32.ne may also be a
	// signed or unsigned less-than or greater-than.
	cmp := get(1).op
	if s.n < 7+skip || (cmp != opNeI32 && (cmp < opLtSI32 || cmp > opGtUI32)) {
		return chunkLoop{}, nil, false
	}
	var g, c, a, t, b scanInstr
	if get(2).op == opLocalTee {
		b, g, c, a, t = get(6), get(5), get(4), get(3), get(2)
		// N < i' is i' > N: the test with $i first.
		switch cmp {
		case opLtSI32, opLtUI32:
			cmp += 2
		case opGtSI32, opGtUI32:
			cmp -= 2
		}
	} else {
		g, c, a, t, b = get(6), get(5), get(4), get(3), get(2)
	}
	if g.op != opLocalGet || t.op != opLocalTee || g.imm != t.imm || c.op != opConstI32 || a.op != opAddI32 {
		return chunkLoop{}, nil, false
	}
	step := c.imm
	m := step
	if m < 0 {
		m = -m
	}
	if m == 0 || uint64(m)*uint64(batch) >= 1<<31 {
		return chunkLoop{}, nil, false
	}
	switch cmp {
	case opNeI32:
		if m&(m-1) != 0 {
			return chunkLoop{}, nil, false
		}
	case opLtSI32, opLtUI32:
		if step < 0 {
			return chunkLoop{}, nil, false
		}
	default: // greater-than
		if step > 0 {
			return chunkLoop{}, nil, false
		}
	}
	cl := chunkLoop{kind: chunkStep, v: uint32(g.imm), step: int32(step), cmp: cmp, brTail: skip == 1}
	if _, w := s.uses(cl.v); w != 1 {
		return chunkLoop{}, nil, false
	}
	switch b.op {
	case opConstI32:
		cl.boundConst, cl.boundVal = true, int32(b.imm)
	case opLocalGet:
		cl.bound = uint32(b.imm)
		if _, w := s.uses(cl.bound); w != 0 {
			return chunkLoop{}, nil, false
		}
	default:
		return chunkLoop{}, nil, false
	}
	repl := []point{{at: b.at, kind: pointChunkBound, end: b.end}}
	if cl.brTail {
		repl = append(repl, point{at: scanAt(s, 0).at, kind: pointChunkExit})
	}
	return cl, repl, true
}

// scanAt returns the instruction k places before the most recent one seen
// by s (0: the most recent), or a zero instruction.
func scanAt(s *loopScan, k int) scanInstr {
	in, _ := s.last(k)
	return in
}

// appendBound appends the instruction that pushes the loop's bound.
func (cl *chunkLoop) appendBound(c []byte) []byte {
	if cl.boundConst {
		return appendS32(append(c, opConstI32), cl.boundVal)
	}
	return appendU32(append(c, opLocalGet), cl.bound)
}

// init returns the instructions that start a chunk, in place of a batched
// loop's init (at the top of $outer, before $yield), with loc the count
// local. The common case, a visit that ends within one chunk, is tested
// first and costs a subtraction, a comparison and a branch; the rest runs
// only when a chunk is not the last.
//
// chunkDown, counting down by m (k = 0 means 2^32/m iterations; a k
// that m does not divide never reaches zero):
//
//	if k-1 <u batch*m && k%m == 0 { c = k; k = 0 } else { c = batch*m; k -= batch*m }
//
// and the loop counts c down instead of k.
//
// chunkStep with i32.ne, s = ±m:
//
//	d = s > 0 ? n - i : i - n
//	c = d-1 <u batch*m && d%m == 0 ? n : i + batch*s
//
// The loop reaches n after d/m iterations when m divides d (and never
// otherwise), and reaches i + batch*s after exactly batch iterations and
// not before; so the chunk ends at c, after at most batch iterations.
//
// chunkStep with a less-than test (s = m > 0), in the test's signedness:
//
//	c = n-i-1 <u batch*m && (m == 1 || n <= MAX+1-m) ? n
//	  : i < n ? i + batch*m
//	  : MIN
//
// c = n is the loop's own test, chosen when it ends the visit within batch
// iterations: i reaches n after at most batch steps and stops there, since
// a step from below n cannot wrap past the top. Otherwise, from below n,
// i + batch*m is reached after exactly batch steps, all below n (if the
// sum wraps, the loop leaves early, at a point where its own test still
// holds). From at or above n the test with MIN fails after one iteration.
// In every case the chunk's test holds only where the loop's does, so the
// tail, which applies the loop's own test, decides whether to go on.
// Greater-than is the mirror image.
func (cl *chunkLoop) init(loc, batch uint32) []byte {
	var c []byte
	getV := func(c []byte) []byte { return appendU32(append(c, opLocalGet), cl.v) }
	setC := func(c []byte) []byte { return appendU32(append(c, opLocalSet), loc) }
	konst := func(c []byte, v int32) []byte { return appendS32(append(c, opConstI32), v) }
	ifI32, ifEmpty, els, end := []byte{0x04, 0x7f}, []byte{0x04, 0x40}, byte(0x05), byte(0x0b)
	if cl.kind == chunkDown {
		m := -cl.step
		span := int32(batch) * m
		c = getV(c)
		c = konst(append(konst(c, -1), opAddI32), span)
		c = append(c, opLtUI32)
		if m > 1 {
			c = append(konst(getV(c), m-1), 0x71, 0x45, 0x71) // i32.and, i32.eqz, i32.and
		}
		c = append(c, ifEmpty...)
		c = setC(getV(c))
		c = appendU32(append(konst(c, 0), opLocalSet), cl.v)
		c = append(c, els)
		c = setC(konst(c, span))
		c = append(konst(getV(c), span), opSubI32)
		c = appendU32(append(c, opLocalSet), cl.v)
		return append(c, end)
	}
	m := cl.step
	if m < 0 {
		m = -m
	}
	up := cl.step > 0
	span := int32(batch) * m
	// d = distance from i to n in the direction of the step.
	if up {
		c = append(getV(cl.appendBound(c)), opSubI32)
	} else {
		c = append(cl.appendBound(getV(c)), opSubI32)
	}
	if cl.cmp == opNeI32 && m > 1 {
		c = appendU32(append(c, opLocalTee), loc)
	}
	c = append(konst(append(konst(c, -1), opAddI32), span), opLtUI32)
	if m > 1 {
		switch cl.cmp {
		case opNeI32: // d%m == 0
			c = appendU32(append(c, opLocalGet), loc)
			c = append(konst(c, m-1), 0x71, 0x45) // i32.and, i32.eqz
		case opLtUI32: // n <=u 2^32-m
			c = append(konst(cl.appendBound(c), -m), opLeUI32)
		case opLtSI32: // n <=s 2^31-m
			c = append(konst(cl.appendBound(c), int32(1<<31-int64(m))), opLeSI32)
		case opGtUI32: // n >=u m
			c = append(konst(cl.appendBound(c), m), opGeUI32)
		case opGtSI32: // n >=s -2^31+m
			c = append(konst(cl.appendBound(c), -1<<31+m), opGeSI32)
		}
		c = append(c, 0x71) // i32.and
	}
	c = append(c, ifI32...)
	c = cl.appendBound(c)
	c = append(c, els)
	// i + batch*s, the end of a full chunk.
	c = append(konst(getV(c), int32(batch)*cl.step), opAddI32)
	if cl.cmp != opNeI32 {
		var fail int32
		switch cl.cmp {
		case opLtSI32:
			fail = -1 << 31
		case opLtUI32:
			fail = 0
		case opGtSI32:
			fail = 1<<31 - 1
		case opGtUI32:
			fail = -1
		}
		c = konst(c, fail)
		c = append(cl.appendBound(getV(c)), cl.cmp, 0x1b) // i < n (or >), select
	}
	c = append(c, end)
	return setC(c)
}

// exitTest returns the instructions placed right after the loop's end,
// inside $yield, or (brTail) before the branch that ends the loop's body,
// inside the loop: when the loop left before its real end (the chunk
// ended), they branch to the yield path, which re-enters it. label is the
// depth of $yield from where they are.
func (cl *chunkLoop) exitTest(label byte) []byte {
	c := appendU32([]byte{opLocalGet}, cl.v)
	if cl.kind == chunkStep {
		c = cl.appendBound(c)
		c = append(c, cl.cmp)
	}
	return append(c, opBrIf, label) // br_if $yield
}
