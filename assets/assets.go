// Package assets holds the built runtime bundle embedded into every pybox
// binary: the CPython interpreter compiled to wasm32-wasi, its standard library
// as .pyc files and bundled site-packages, in one zstd-compressed tar.
//
// The bundle is produced by scripts/build-runtime.sh from Debian source
// packages and committed here so that users and CI never rebuild it.
// runtime-manifest.json records versions, flags, sizes and checksums.
//
// This package only carries bytes; packages.Load decodes them.
package assets

import (
	_ "embed"
	"strings"
)

// Runtime is the zstd-compressed tar of the runtime bundle.
//
//go:embed runtime.tar.zst
var Runtime []byte

// RuntimeSHA256 is the hex SHA-256 of Runtime, written next to it by
// scripts/build-runtime.sh (TestRuntimeSHA256 keeps them in step): every
// pybox process keys the extracted bundle by it, and hashing 31 MB in each
// one cost about 25 ms of its start.
var RuntimeSHA256 = strings.TrimSpace(runtimeSHA256)

//go:embed runtime.tar.zst.sha256
var runtimeSHA256 string

// Manifest is the JSON manifest written by scripts/build-runtime.sh; the same
// document is also inside the bundle as manifest.json.
//
//go:embed runtime-manifest.json
var Manifest []byte

// Packages is the list of what the embedded bundle provides, as
// packages.BundlePackages reads it from the bundle, committed beside it so
// that the tool descriptions need not unpack the bundle (pybox mcp answers
// tools/list at once on an empty cache folder). TestEmbeddedPackages in
// package packages keeps it in step; scripts/build-runtime.sh rewrites it.
//
//go:embed runtime-packages.json
var Packages []byte
