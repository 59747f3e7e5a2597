// Package guarded runs wazero's released spec tests with every memory
// guarded (experimental.WithGuardedMemory; pybox patch 0013). The tests
// run on linux/amd64, where guarded memory is implemented.
package guarded
