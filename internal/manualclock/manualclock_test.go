package manualclock_test

import (
	"fmt"
	"time"

	"github.com/pybox-dev/pybox/internal/manualclock"
)

func ExampleClock() {
	start := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	c := manualclock.New(start)
	c.Advance(90 * time.Second)
	fmt.Println(c.Now().Sub(start))
	// Output: 1m30s
}
