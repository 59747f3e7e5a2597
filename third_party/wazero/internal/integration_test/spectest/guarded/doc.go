// Package guarded runs wazero's released spec tests with every memory
// guarded (experimental.WithGuardedMemory; pybox patch 0012). The tests
// run on linux/amd64, where guarded memory is implemented.
package guarded
