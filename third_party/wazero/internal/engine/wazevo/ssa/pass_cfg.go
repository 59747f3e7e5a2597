package ssa

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/tetratelabs/wazero/internal/engine/wazevo/wazevoapi"
)

// passCalculateImmediateDominators calculates immediate dominators for each basic block.
// The result is stored in b.dominators. This make it possible for the following passes to
// use builder.isDominatedBy to check if a block is dominated by another block.
//
// At the last of pass, this function also does the loop detection and sets the basicBlock.loop flag.
func passCalculateImmediateDominators(b *builder) {
	reversePostOrder := b.reversePostOrderedBasicBlocks[:0]

	// Store the reverse postorder from the entrypoint into reversePostOrder slice.
	// This calculation of reverse postorder is not described in the paper,
	// so we use heuristic to calculate it so that we could potentially handle arbitrary
	// complex CFGs under the assumption that success is sorted in program's natural order.
	// That means blk.success[i] always appears before blk.success[i+1] in the source program,
	// which is a reasonable assumption as long as SSA Builder is properly used.
	//
	// First we push blocks in postorder iteratively visit successors of the entry block.
	entryBlk := b.entryBlk()
	exploreStack := append(b.blkStack[:0], entryBlk)
	// These flags are used to track the state of the block in the DFS traversal.
	// We temporarily use the reversePostOrder field to store the state.
	const visitStateUnseen, visitStateSeen, visitStateDone = 0, 1, 2
	entryBlk.visited = visitStateSeen
	for len(exploreStack) > 0 {
		tail := len(exploreStack) - 1
		blk := exploreStack[tail]
		exploreStack = exploreStack[:tail]
		switch blk.visited {
		case visitStateUnseen:
			// This is likely a bug in the frontend.
			panic("BUG: unsupported CFG")
		case visitStateSeen:
			// This is the first time to pop this block, and we have to see the successors first.
			// So push this block again to the stack.
			exploreStack = append(exploreStack, blk)
			// And push the successors to the stack if necessary.
			for _, succ := range blk.success {
				if succ.ReturnBlock() || succ.invalid {
					continue
				}
				if succ.visited == visitStateUnseen {
					succ.visited = visitStateSeen
					exploreStack = append(exploreStack, succ)
				}
			}
			// Finally, we could pop this block once we pop all of its successors.
			blk.visited = visitStateDone
		case visitStateDone:
			// Note: at this point we push blk in postorder despite its name.
			reversePostOrder = append(reversePostOrder, blk)
		default:
			panic("BUG")
		}
	}
	// At this point, reversePostOrder has postorder actually, so we reverse it.
	for i := len(reversePostOrder)/2 - 1; i >= 0; i-- {
		j := len(reversePostOrder) - 1 - i
		reversePostOrder[i], reversePostOrder[j] = reversePostOrder[j], reversePostOrder[i]
	}

	for i, blk := range reversePostOrder {
		blk.reversePostOrder = int32(i)
	}

	// Reuse the dominators slice if possible from the previous computation of function.
	b.dominators = b.dominators[:cap(b.dominators)]
	if len(b.dominators) < b.basicBlocksPool.Allocated() {
		// Generously reserve space in the slice because the slice will be reused future allocation.
		b.dominators = append(b.dominators, make([]*basicBlock, b.basicBlocksPool.Allocated())...)
	}
	calculateDominators(reversePostOrder, b.dominators)

	// Reuse the slices for the future use.
	b.blkStack = exploreStack

	// For the following passes.
	b.reversePostOrderedBasicBlocks = reversePostOrder

	// Ready to detect loops!
	subPassLoopDetection(b)
}

// calculateDominators calculates the immediate dominator of each node in the CFG, and store the result in `doms`.
// The algorithm is based on the one described in the paper "A Simple, Fast Dominance Algorithm"
// https://www.cs.rice.edu/~keith/EMBED/dom.pdf which is a faster/simple alternative to the well known Lengauer-Tarjan algorithm.
//
// The following code almost matches the pseudocode in the paper with one exception (see the code comment below).
//
// The result slice `doms` must be pre-allocated with the size larger than the size of dfsBlocks.
func calculateDominators(reversePostOrderedBlks []*basicBlock, doms []*basicBlock) {
	entry, reversePostOrderedBlks := reversePostOrderedBlks[0], reversePostOrderedBlks[1: /* skips entry point */]
	for _, blk := range reversePostOrderedBlks {
		doms[blk.id] = nil
	}
	doms[entry.id] = entry

	changed := true
	for changed {
		changed = false
		for _, blk := range reversePostOrderedBlks {
			var u *basicBlock
			for i := range blk.preds {
				pred := blk.preds[i].blk
				// Skip if this pred is not reachable yet. Note that this is not described in the paper,
				// but it is necessary to handle nested loops etc.
				if doms[pred.id] == nil {
					continue
				}

				if u == nil {
					u = pred
					continue
				} else {
					u = intersect(doms, u, pred)
				}
			}
			if doms[blk.id] != u {
				doms[blk.id] = u
				changed = true
			}
		}
	}
}

// intersect returns the common dominator of blk1 and blk2.
//
// This is the `intersect` function in the paper.
func intersect(doms []*basicBlock, blk1 *basicBlock, blk2 *basicBlock) *basicBlock {
	finger1, finger2 := blk1, blk2
	for finger1 != finger2 {
		// Move the 'finger1' upwards to its immediate dominator.
		for finger1.reversePostOrder > finger2.reversePostOrder {
			finger1 = doms[finger1.id]
		}
		// Move the 'finger2' upwards to its immediate dominator.
		for finger2.reversePostOrder > finger1.reversePostOrder {
			finger2 = doms[finger2.id]
		}
	}
	return finger1
}

// subPassLoopDetection detects loops in the function using the immediate dominators.
//
// This is run at the last of passCalculateImmediateDominators.
func subPassLoopDetection(b *builder) {
	for blk := b.blockIteratorBegin(); blk != nil; blk = b.blockIteratorNext() {
		for i := range blk.preds {
			pred := blk.preds[i].blk
			if pred.invalid {
				continue
			}
			if dominatedInReversePostOrder(b.dominators, pred, blk) {
				blk.loopHeader = true
			}
		}
	}
}

// dominatedInReversePostOrder reports whether n is dominated by d, as
// builder.isDominatedBy does, right after passCalculateImmediateDominators
// numbered the blocks in reverse postorder.
//
// pybox patch 0022: a block's dominators come before it in that order, so
// going up n's dominators stops at the first one numbered below d instead of
// at the entry block. isDominatedBy walked up to the entry for every edge
// that is not a back edge, the most common answer, which made loop detection
// quadratic in the depth of the dominator tree.
func dominatedInReversePostOrder(doms []*basicBlock, n, d *basicBlock) bool {
	for n != d && n.reversePostOrder > d.reversePostOrder {
		n = doms[n.id]
	}
	return n == d
}

// buildLoopNestingForest builds the loop nesting forest for the function.
// This must be called after branch splitting since it relies on the CFG.
func passBuildLoopNestingForest(b *builder) {
	ent := b.entryBlk()
	doms := b.dominators
	// pybox patch 0022: headers[id] caches, for a block that is neither a
	// loop header nor the entry, the first block up its dominator chain that
	// is one, so that each chain is walked once instead of once per block
	// below it.
	headers := b.loopHeaderOf
	if n := b.basicBlocksPool.Allocated(); cap(headers) < n {
		headers = make([]*basicBlock, n)
	} else {
		headers = headers[:n]
		clear(headers)
	}
	stack := b.blkStack2[:0]
	for _, blk := range b.reversePostOrderedBasicBlocks {
		n := doms[blk.id]
		for !n.loopHeader && n != ent {
			if h := headers[n.id]; h != nil {
				n = h
				break
			}
			stack = append(stack, n)
			n = doms[n.id]
		}
		for _, m := range stack {
			headers[m.id] = n
		}
		stack = stack[:0]

		if n == ent && blk.loopHeader {
			b.loopNestingForestRoots = append(b.loopNestingForestRoots, blk)
		} else if n == ent {
		} else if n.loopHeader {
			n.loopNestingForestChildren = n.loopNestingForestChildren.Append(&b.varLengthBasicBlockPool, blk)
		}
	}
	b.loopHeaderOf, b.blkStack2 = headers, stack

	if wazevoapi.SSALoggingEnabled {
		for _, root := range b.loopNestingForestRoots {
			printLoopNestingForest(root.(*basicBlock), 0)
		}
	}
}

func printLoopNestingForest(root *basicBlock, depth int) {
	fmt.Println(strings.Repeat("\t", depth), "loop nesting forest root:", root.ID())
	for _, child := range root.loopNestingForestChildren.View() {
		fmt.Println(strings.Repeat("\t", depth+1), "child:", child.ID())
		if child.LoopHeader() {
			printLoopNestingForest(child.(*basicBlock), depth+2)
		}
	}
}

// dominatorSparseTree answers lowest-common-ancestor queries on the
// dominator tree: an Euler tour of the tree and a sparse table of range
// minima over the tour's depths.
//
// pybox patch 0020: the tour and the table are built on the first query,
// not by passBuildDominatorTree: only the register allocator asks (a quarter
// of python.wasm's functions never do). The table is one slice, level after
// level (level j holds, for each start i, the index of the shallowest tour
// entry in [i, i+2^j)), instead of a slice per tour entry: building it reads
// and writes memory in order.
type dominatorSparseTree struct {
	// entry is the root of the dominator tree whose child and sibling
	// links passBuildDominatorTree set; nil once the tour is built.
	entry        *basicBlock
	n            int // the number of basic blocks (IDs are below it)
	time         int32
	euler        []*basicBlock
	first, depth []int32
	table        []int32
}

// passBuildDominatorTree builds the dominator tree for the function (the child
// and sibling links of its blocks), and prepares builder.sparseTree to answer
// LCA queries on it; the sparse table itself is built on the first query.
func passBuildDominatorTree(b *builder) {
	// First we materialize the children of each node in the dominator tree.
	idoms := b.dominators
	for _, blk := range b.reversePostOrderedBasicBlocks {
		parent := idoms[blk.id]
		if parent == nil {
			panic("BUG")
		} else if parent == blk {
			// This is the entry block.
			continue
		}
		if prev := parent.child; prev == nil {
			parent.child = blk
		} else {
			parent.child = blk
			blk.sibling = prev
		}
	}

	st := &b.sparseTree
	st.entry = b.entryBlk()
	st.n = b.basicBlocksPool.Allocated()
}

// build makes the Euler tour and the sparse table of the dominator tree
// rooted at dt.entry.
func (dt *dominatorSparseTree) build() {
	n := dt.n
	dt.euler = append(dt.euler[:0], make([]*basicBlock, 2*n-1)...)
	dt.first = append(dt.first[:0], make([]int32, n)...)
	for i := range dt.first {
		dt.first[i] = -1
	}
	dt.depth = append(dt.depth[:0], make([]int32, 2*n-1)...)
	dt.time = 0

	dt.eulerTour(dt.entry, 0)
	dt.entry = nil
	dt.buildSparseTable()
}

func (dt *dominatorSparseTree) eulerTour(node *basicBlock, height int32) {
	if wazevoapi.SSALoggingEnabled {
		fmt.Println(strings.Repeat("\t", int(height)), "euler tour:", node.ID())
	}
	dt.euler[dt.time] = node
	dt.depth[dt.time] = height
	if dt.first[node.id] == -1 {
		dt.first[node.id] = dt.time
	}
	dt.time++

	for child := node.child; child != nil; child = child.sibling {
		dt.eulerTour(child, height+1)
		dt.euler[dt.time] = node // add the current node again after visiting a child
		dt.depth[dt.time] = height
		dt.time++
	}
}

// buildSparseTable builds a sparse table for RMQ queries: level j starts
// at j*n and holds, for each i with i+2^j <= n, the index of the minimum
// depth in [i, i+2^j).
func (dt *dominatorSparseTree) buildSparseTable() {
	n := len(dt.depth)
	k := bits.Len(uint(n)) // levels 0..k-1: 2^(k-1) <= n
	table := dt.table[:0]
	if cap(table) < k*n {
		table = make([]int32, k*n)
	} else {
		table = table[:k*n]
	}
	level0 := table[:n]
	for i := range level0 {
		level0[i] = int32(i)
	}
	depth := dt.depth
	for j := 1; j < k; j++ {
		prev, cur := table[(j-1)*n:j*n], table[j*n:(j+1)*n]
		half := 1 << (j - 1)
		for i := 0; i+(1<<j) <= n; i++ {
			l, r := prev[i], prev[i+half]
			if depth[l] < depth[r] {
				cur[i] = l
			} else {
				cur[i] = r
			}
		}
	}
	dt.table = table
}

// rmq performs a range minimum query on the sparse table.
func (dt *dominatorSparseTree) rmq(l, r int32) int32 {
	n := int32(len(dt.depth))
	depth := dt.depth
	j := int32(bits.Len32(uint32(r-l+1))) - 1
	a, b := dt.table[j*n+l], dt.table[j*n+r-(1<<j)+1]
	if depth[a] <= depth[b] {
		return a
	}
	return b
}

// findLCA finds the LCA using the Euler tour and RMQ.
func (dt *dominatorSparseTree) findLCA(u, v BasicBlockID) *basicBlock {
	if dt.entry != nil {
		dt.build()
	}
	first := dt.first
	if first[u] > first[v] {
		u, v = v, u
	}
	return dt.euler[dt.rmq(first[u], first[v])]
}
