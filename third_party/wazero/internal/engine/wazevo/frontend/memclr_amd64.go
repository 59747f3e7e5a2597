package frontend

// memclrSupported reports whether memory.fill calls Go's
// memclrNoHeapPointers to write zeros (pybox patch 0061): on amd64, whose
// backend zeroes X15 before such a call, as Go's internal ABI requires.
const memclrSupported = true
