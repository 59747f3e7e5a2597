package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutMiddle(t *testing.T) {
	var lines []string
	for i := range 2000 {
		lines = append(lines, strings.Repeat("é", i%7)+"line "+strings.Repeat("x", i%13))
	}
	long := strings.Join(lines, "\n") + "\n"
	tests := []struct {
		name, text string
		max        int
		where      string
		cut        bool
	}{
		{"short text unchanged", "hello\n", 1000, "/tmp/x", false},
		{"exactly at the budget", strings.Repeat("a", 600), 600, "", false},
		{"lines", long, 4000, "/tmp/pybox-output/call-1-stdout.txt", true},
		{"one long line of multibyte text", strings.Repeat("é€😀", 5000), 3000, "", true},
		{"budget below the floor", long, 10, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CutMiddle(tc.text, tc.max, tc.where)
			if !tc.cut {
				if got != tc.text {
					t.Fatalf("changed text within the budget")
				}
				return
			}
			if !utf8.ValidString(got) {
				t.Fatal("cut inside a character")
			}
			if len(got) > max(tc.max, minSectionBudget)+300 {
				t.Errorf("%d bytes for a budget of %d", len(got), tc.max)
			}
			if !strings.Contains(got, "bytes cut here") || (tc.where != "" && !strings.Contains(got, tc.where)) {
				t.Errorf("marker missing or without the path:\n%s", got)
			}
			i := strings.Index(got, "[... ")
			j := strings.Index(got, " ...]\n")
			head, tail := got[:i], got[j+len(" ...]\n"):]
			if !strings.HasPrefix(tc.text, strings.TrimSuffix(head, "\n")) || !strings.HasSuffix(tc.text, tail) {
				t.Errorf("head or tail is not the text's own")
			}
			if again := CutMiddle(got, tc.max/2, ""); len(again) >= len(got) && tc.max/2 >= minSectionBudget {
				t.Errorf("cutting again did not shorten")
			}
		})
	}
}

func TestShareBudget(t *testing.T) {
	tests := []struct {
		sizes  []int
		budget int
		want   []int
	}{
		{[]int{100, 5000, 10}, 1000, []int{100, 890, 10}},
		{[]int{5000, 5000, 0}, 1000, []int{500, 500, 0}},
		{[]int{10, 20, 30}, 1000, []int{10, 20, 30}},
	}
	for _, tc := range tests {
		got := shareBudget(tc.sizes, tc.budget)
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("shareBudget(%v, %d) = %v, want %v", tc.sizes, tc.budget, got, tc.want)
				break
			}
		}
	}
}
