package tools

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// DefaultResultBudget is how many bytes of program output (stdout, stderr
// and the final value together) an execute_python result carries by
// default: about 6,000 tokens, which leaves room in a 32k-token context.
const DefaultResultBudget = 24 << 10

// minSectionBudget is the least a cut section keeps, however small the
// budget: a head and a tail worth reading.
const minSectionBudget = 512

// CutMiddle shortens text to about max bytes by keeping its head (two
// thirds) and its tail (one third), cut at line ends where one is near,
// with a marker between them that says how much was cut and, if where is
// not empty, where the whole text can be read. Text within max is returned
// unchanged, so CutMiddle can be applied again with a smaller max.
func CutMiddle(text string, max int, where string) string {
	if max < minSectionBudget {
		max = minSectionBudget
	}
	if len(text) <= max {
		return text
	}
	headLen := max * 2 / 3
	tailLen := max - headLen
	for headLen > 0 && !utf8.RuneStart(text[headLen]) {
		headLen-- // never split a character
	}
	head := text[:headLen]
	if i := strings.LastIndexByte(head, '\n'); i >= headLen/2 {
		head = head[:i+1]
	}
	start := len(text) - tailLen
	for start < len(text) && !utf8.RuneStart(text[start]) {
		start++
	}
	tail := text[start:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
		tail = tail[i+1:]
	}
	cut := text[len(head) : len(text)-len(tail)]
	firstLine := strings.Count(head, "\n") + 1
	lastLine := firstLine + strings.Count(cut, "\n")
	if !strings.HasSuffix(cut, "\n") && strings.Contains(cut, "\n") {
		lastLine-- // the cut ends inside a line that the tail finishes
	}
	var b strings.Builder
	b.WriteString(head)
	if !strings.HasSuffix(head, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %d of %d bytes cut here (about lines %d-%d) to keep this result short", len(cut), len(text), firstLine, lastLine)
	if where != "" {
		fmt.Fprintf(&b, "; the whole text is in %s: read it with read_file (offset, limit)", where)
	}
	b.WriteString(" ...]\n")
	b.WriteString(tail)
	return b.String()
}

// shareBudget divides budget bytes among sections of the given sizes so
// that short sections are kept whole and long ones share the rest equally
// (max-min fairness). It returns each section's allowance.
func shareBudget(sizes []int, budget int) []int {
	allow := make([]int, len(sizes))
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	left := budget
	for k, i := range order {
		fair := left / (len(order) - k)
		allow[i] = min(sizes[i], fair)
		left -= allow[i]
	}
	return allow
}
