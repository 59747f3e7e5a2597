// Package packages loads the Python runtime bundle: the interpreter binary
// (python.wasm), the standard library as .pyc files and bundled
// site-packages, from the zstd-compressed tar embedded by package assets.
//
// The decoded files form an immutable in-memory Tree shared by every
// interpreter in the process and mounted read-only into each guest at
// /usr/local. This package never touches host files.
package packages
