//go:build !amd64

package frontend

// memclrSupported reports whether memory.fill calls Go's
// memclrNoHeapPointers to write zeros (pybox patch 0061): only on amd64.
const memclrSupported = false
