package packages

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Tree is an immutable file tree implementing io/fs.FS. The runtime mounts
// it read-only into every guest, so one copy of the standard library serves
// all interpreters in the process. File contents are held in memory (or in
// the mapping of a bundle extracted into the cache folder, see Default), or
// read on demand from that bundle where files are not mapped, or from an
// extracted bundle of the older one-file-per-file layout; the tree's shape
// (names, sizes, modes) is always in memory.
//
// Paths are slash-separated and relative ("lib/python3.11/os.pyc"), as
// io/fs requires. A Tree is safe for concurrent use: nothing mutates it after
// it is built.
type Tree struct {
	nodes map[string]*node
	size  int64
}

type node struct {
	name    string
	dir     bool
	data    []byte      // contents, for in-memory (or mapped) files
	at      io.ReaderAt // where the contents are, from off, for files read on demand
	off     int64
	disk    *os.Root // where the contents are, for files on disk
	path    string   // the file's path in disk
	size    int64
	mode    fs.FileMode
	entries []*node // sorted by name, for directories
}

// treeBuilder accumulates files and creates parent directories on demand.
type treeBuilder struct {
	t    *Tree
	pool []node // nodes to hand out before allocating any
}

// newNode returns a node to fill in.
func (b *treeBuilder) newNode() *node {
	if len(b.pool) < cap(b.pool) {
		b.pool = b.pool[:len(b.pool)+1]
		return &b.pool[len(b.pool)-1]
	}
	return new(node)
}

func newTreeBuilder() *treeBuilder { return newTreeBuilderSize(0) }

// newTreeBuilderSize is newTreeBuilder with room for about n entries.
func newTreeBuilderSize(n int) *treeBuilder {
	root := &node{name: ".", dir: true, mode: fs.ModeDir | 0o555}
	nodes := make(map[string]*node, n+1)
	nodes["."] = root
	return &treeBuilder{t: &Tree{nodes: nodes}, pool: make([]node, 0, n)}
}

// splitPath splits a valid path (fs.ValidPath, not ".") into its parent
// folder ("." at the top) and its last element, as path.Dir and path.Base
// would, without cleaning again what is already clean.
func splitPath(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ".", p
	}
	return p[:i], p[i+1:]
}

// dir returns the directory node for p, creating it and its parents.
func (b *treeBuilder) dir(p string) *node {
	if n, ok := b.t.nodes[p]; ok {
		return n
	}
	parentPath, name := splitPath(p)
	parent := b.dir(parentPath)
	n := b.newNode()
	*n = node{name: name, dir: true, mode: fs.ModeDir | 0o555}
	b.t.nodes[p] = n
	parent.entries = append(parent.entries, n)
	return n
}

// file adds a regular file, replacing any earlier file at the same path.
func (b *treeBuilder) file(p string, data []byte, mode fs.FileMode) error {
	_, err := b.add(p, data, mode)
	return err
}

// add is file, returning the file's node.
func (b *treeBuilder) add(p string, data []byte, mode fs.FileMode) (*node, error) {
	if !fs.ValidPath(p) { // a valid path is clean
		p = path.Clean(strings.TrimPrefix(p, "./"))
		if !fs.ValidPath(p) {
			return nil, &fs.PathError{Op: "add", Path: p, Err: fs.ErrInvalid}
		}
	}
	if p == "." {
		return nil, &fs.PathError{Op: "add", Path: p, Err: fs.ErrInvalid}
	}
	if old, ok := b.t.nodes[p]; ok {
		if old.dir {
			return nil, &fs.PathError{Op: "add", Path: p, Err: errors.New("a directory exists at this path")}
		}
		b.t.size -= old.size
		old.data, old.at, old.off, old.disk, old.path, old.size, old.mode = data, nil, 0, nil, p, int64(len(data)), mode.Perm()&0o555
		b.t.size += old.size
		return old, nil
	}
	parentPath, name := splitPath(p)
	parent := b.dir(parentPath)
	n := b.newNode()
	*n = node{name: name, path: p, data: data, size: int64(len(data)), mode: mode.Perm() & 0o555}
	b.t.nodes[p] = n
	parent.entries = append(parent.entries, n)
	b.t.size += n.size
	return n, nil
}

// diskFile adds a file whose contents stay on disk, at p below root.
func (b *treeBuilder) diskFile(p string, root *os.Root, size int64, mode fs.FileMode) error {
	n, err := b.add(p, nil, mode)
	if err != nil {
		return err
	}
	n.disk, n.size = root, size
	b.t.size += size
	return nil
}

// readerFile adds a file whose size bytes are read from at, from off, when
// used.
func (b *treeBuilder) readerFile(p string, at io.ReaderAt, off, size int64, mode fs.FileMode) error {
	n, err := b.add(p, nil, mode)
	if err != nil {
		return err
	}
	n.at, n.off, n.size = at, off, size
	b.t.size += size
	return nil
}

func (b *treeBuilder) done() *Tree {
	byName := func(a, b *node) int { return strings.Compare(a.name, b.name) }
	for _, n := range b.t.nodes {
		// Bundles list their entries sorted: checking is cheaper than sorting.
		if n.dir && !slices.IsSortedFunc(n.entries, byName) {
			slices.SortFunc(n.entries, byName)
		}
	}
	return b.t
}

// Size is the total number of bytes in the tree's files.
func (t *Tree) Size() int64 { return t.size }

// Len is the number of files and directories in the tree, root included.
func (t *Tree) Len() int { return len(t.nodes) }

// ReadFile returns the contents of the named file. The returned slice is
// shared and must not be modified.
func (t *Tree) ReadFile(name string) ([]byte, error) {
	n, err := t.lookup("readfile", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: errors.New("is a directory")}
	}
	if n.disk != nil {
		return n.disk.ReadFile(n.path)
	}
	if n.at != nil {
		data := make([]byte, n.size)
		if _, err := n.at.ReadAt(data, n.off); err != nil {
			return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
		}
		return data, nil
	}
	return n.data, nil
}

// Sub returns the subtree rooted at dir as an fs.FS.
func (t *Tree) Sub(dir string) (fs.FS, error) { return fs.Sub(t, dir) }

func (t *Tree) lookup(op, name string) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	n, ok := t.nodes[name]
	if !ok {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return n, nil
}

// Open implements fs.FS.
func (t *Tree) Open(name string) (fs.File, error) {
	n, err := t.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return &treeDir{n: n}, nil
	}
	if n.disk != nil {
		f, err := n.disk.Open(n.path)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &treeFile{n: n, r: f}, nil
	}
	if n.at != nil {
		return &treeFile{n: n, r: io.NewSectionReader(n.at, n.off, n.size)}, nil
	}
	return &treeFile{n: n, r: bytes.NewReader(n.data)}, nil
}

// Stat implements fs.StatFS.
func (t *Tree) Stat(name string) (fs.FileInfo, error) {
	n, err := t.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return info{n}, nil
}

// ReadDir implements fs.ReadDirFS.
func (t *Tree) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := t.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	out := make([]fs.DirEntry, len(n.entries))
	for i, e := range n.entries {
		out[i] = fs.FileInfoToDirEntry(info{e})
	}
	return out, nil
}

// bundleTime is the modification time reported for every file: the bundle is
// built reproducibly with zero mtimes, and .pyc files use hash validation.
var bundleTime = time.Unix(0, 0).UTC()

type info struct{ n *node }

func (i info) Name() string       { return i.n.name }
func (i info) Size() int64        { return i.n.size }
func (i info) Mode() fs.FileMode  { return i.n.mode }
func (i info) ModTime() time.Time { return bundleTime }
func (i info) IsDir() bool        { return i.n.dir }
func (i info) Sys() any           { return nil }

type treeFile struct {
	n *node
	r interface {
		io.ReadSeeker
		io.ReaderAt
	}
}

func (f *treeFile) Stat() (fs.FileInfo, error)                { return info{f.n}, nil }
func (f *treeFile) Read(p []byte) (int, error)                { return f.r.Read(p) }
func (f *treeFile) ReadAt(p []byte, off int64) (int, error)   { return f.r.ReadAt(p, off) }
func (f *treeFile) Seek(off int64, whence int) (int64, error) { return f.r.Seek(off, whence) }
func (f *treeFile) Close() error {
	if c, ok := f.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

type treeDir struct {
	n   *node
	pos int
}

func (d *treeDir) Stat() (fs.FileInfo, error) { return info{d.n}, nil }
func (d *treeDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.n.name, Err: errors.New("is a directory")}
}
func (d *treeDir) Close() error { return nil }

// ReadDir implements fs.ReadDirFile.
func (d *treeDir) ReadDir(count int) ([]fs.DirEntry, error) {
	rest := d.n.entries[d.pos:]
	if count > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if count > 0 && count < len(rest) {
		rest = rest[:count]
	}
	d.pos += len(rest)
	out := make([]fs.DirEntry, len(rest))
	for i, e := range rest {
		out[i] = fs.FileInfoToDirEntry(info{e})
	}
	return out, nil
}

// NewTree builds a Tree from a map of slash-separated relative paths to file
// contents; parent directories are created as needed. A nil map gives an
// empty tree (just the root directory).
func NewTree(files map[string][]byte) *Tree {
	b := newTreeBuilder()
	for p, data := range files {
		// Invalid paths are skipped: callers pass literals.
		_ = b.file(p, data, 0o444)
	}
	return b.done()
}
