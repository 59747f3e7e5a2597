// Package packages loads the Python runtime bundle: the interpreter binary
// (python.wasm), the standard library as .pyc files and bundled
// site-packages, from the zstd-compressed tar embedded by package assets.
//
// The decoded files form an immutable Tree shared by every interpreter in
// the process and mounted read-only into each guest at /usr/local: in
// memory, or, once extracted into the cache folder as one file (the pack,
// pack.go), slices of that file mapped read-only. This package writes
// nothing on the host but that cache folder.
package packages
