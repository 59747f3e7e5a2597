package fsbridge_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/pybox-dev/pybox/fsbridge"
)

func TestLimits(t *testing.T) {
	cases := []struct {
		name    string
		limits  fsbridge.Limits
		code    string
		want    map[string]string
		denials [][]string
		check   func(t *testing.T, w *world)
	}{
		{
			name:   "file size",
			limits: fsbridge.Limits{FileSize: 1 << 20},
			code: `
t('big', lambda: put('/work/big.bin', 'x' * (2 << 20)))
t('size', lambda: os.path.getsize('/work/big.bin'))
t('edge', lambda: put('/work/edge.bin', 'x' * (1 << 20)))
t('over', lambda: put('/work/edge.bin', 'y', 'a'))
t('trunc', lambda: os.truncate('/work/edge.bin', 5 << 20))
t('tmp', lambda: put('/tmp/big.bin', 'x' * (2 << 20)))
t('output', lambda: put('/output/big.bin', 'x' * (2 << 20)))
t('cow', lambda: put('/src/big.bin', 'x' * (2 << 20)))
`,
			want: map[string]string{
				"big": "OSError EIO", "size": "OK 0", "edge": "OK 1048576", "over": "OSError EIO",
				"trunc": "OSError EIO", "tmp": "OSError EIO", "output": "OSError EIO", "cow": "OSError EIO",
			},
			denials: [][]string{
				{"write denied: /work/big.bin would grow the file to 2097152 bytes, past the file size limit of 1 MiB"},
				{"write denied: /tmp/big.bin would grow the file"},
				{"write denied: /src/big.bin would grow the file"},
			},
			check: func(t *testing.T, w *world) {
				fi, err := os.Stat(filepath.Join(w.work, "edge.bin"))
				if err != nil || fi.Size() != 1<<20 {
					t.Errorf("edge.bin: %v %v, want 1 MiB", fi, err)
				}
			},
		},
		{
			name:   "files created",
			limits: fsbridge.Limits{Files: 20},
			code: `
def many():
    for i in range(50):
        put('/work/f%02d.txt' % i, 'x')
    return 50
t('many', many)
t('count', lambda: len([n for n in os.listdir('/work') if n.startswith('f')]))
t('mkdir', lambda: os.mkdir('/work/d'))
t('rewrite', lambda: put('/work/f00.txt', 'still fine'))
`,
			want: map[string]string{"many": "OSError EIO", "count": "OK 20", "mkdir": "OSError EIO", "rewrite": "OK"},
			denials: [][]string{
				{"create denied: /work/f20.txt would exceed the limit of 20 files created per run"},
			},
		},
		{
			name:   "bytes written per run",
			limits: fsbridge.Limits{WriteBytes: 100 << 10},
			code: `
t('a', lambda: put('/work/a.bin', 'x' * (60 << 10)))
t('b', lambda: put('/tmp/b.bin', 'x' * (60 << 10)))
t('c', lambda: put('/work/c.bin', 'x' * (30 << 10)))
`,
			want: map[string]string{"a": "OK", "b": "OSError EIO", "c": "OK"},
			denials: [][]string{
				{"write denied: /tmp/b.bin would exceed the limit of 100 KiB written per run"},
			},
		},
		{
			name:   "open files",
			limits: fsbridge.Limits{OpenFiles: 16},
			code: `
fs = []
def exhaust():
    for i in range(100):
        fs.append(open('/data/a.csv'))
t('exhaust', exhaust)
n = len(fs)
t('n', lambda: 5 <= n <= 16)
t('more', lambda: open('/work/notes.txt'))
for f in fs:
    f.close()
t('again', lambda: read('/work/notes.txt'))
t('many_sequential', lambda: [read('/data/a.csv') for _ in range(200)] and 'ok')
`,
			want: map[string]string{
				"exhaust": "OSError EIO", "n": "OK True", "more": "OSError EIO",
				"again": "OK 'work notes\\n'", "many_sequential": "OK 'ok'",
			},
			denials: [][]string{
				{"open denied: /data/a.csv would exceed the limit of 16 open files"},
			},
		},
		{
			// Every descriptor counts: /dev/null, the folders above the
			// mounts and the mounts' own folders (5000 opens of /dev/null
			// passed a limit of 40).
			name:   "open files of every kind",
			limits: fsbridge.Limits{OpenFiles: 40},
			code: `
def hoard(p, flags=os.O_RDONLY):
    fds = []
    try:
        for i in range(200):
            fds.append(os.open(p, flags))
    finally:
        print('held', p, len(fds) <= 40)
        for fd in fds:
            os.close(fd)
t('null', lambda: hoard('/dev/null', os.O_WRONLY))
t('root', lambda: hoard('/'))
t('dir', lambda: hoard('/data'))
t('listdir', lambda: hoard('/output', os.O_RDONLY | os.O_DIRECTORY))
t('after', lambda: (sorted(os.listdir('/'))[:2], read('/data/a.csv')[:3]))
t('devnull', lambda: [open(os.devnull, 'w').close() for _ in range(300)] and 'ok')
`,
			want: map[string]string{
				"null": "OSError EIO", "root": "FileNotFoundError ENOENT", "dir": "OSError EIO",
				"listdir": "OSError EIO", "after": "OK (['data', 'dev'], 'x,y')", "devnull": "OK 'ok'",
			},
			denials: [][]string{
				{"open denied: /dev/null would exceed the limit of 40 open files"},
				{"open denied: / would exceed the limit of 40 open files"},
				{"open denied: /data would exceed the limit of 40 open files"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			p := w.policy()
			p.Limits = c.limits
			sb := newSandbox(t, p)
			res := py(t, sb, prelude+c.code)
			if res.Status != "ok" {
				t.Fatalf("status %s: %s\n%s\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			checkLines(t, string(res.Stdout), c.want)
			for _, parts := range c.denials {
				hasDenial(t, sb.Denials(), parts...)
			}
			if c.check != nil {
				c.check(t, w)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", res.Stdout)
			}
		})
	}
}

// sparse is guest code for the sparse-file attacks: sparse(path, at) makes
// path a file with one byte at offset at (a seek past the end, then a
// write), unbuffered so that each write reaches the host alone.
const sparse = `
def sparse(p, at, mode='wb'):
    with open(p, mode, buffering=0) as f:
        f.seek(at)
        return f.write(b'x')
def pread(p, at, n):
    fd = os.open(p, os.O_RDONLY)
    try:
        return os.pread(fd, n, at)
    finally:
        os.close(fd)
`

// Holes cost the host what they really cost: nothing in the in-memory /tmp
// (chunks are allocated only where the guest writes, and the store's
// counter proves it), and their whole size in host-backed folders, where the
// host reads every byte back after the run (artifacts, change tracking).
// Either way the guest cannot make the host hold or read more than its
// limits allow.
func TestSparseFilesCountWhatTheHostHolds(t *testing.T) {
	chunk := int64(fsbridge.MemChunk)
	cases := []struct {
		name    string
		limits  fsbridge.Limits
		code    string
		want    map[string]string
		denials [][]string
		check   func(t *testing.T, w *world, sb *fsbridge.Sandbox)
	}{
		{
			// The attack: four /tmp files seeked to 200 MiB held
			// about 2 GiB of host memory.
			name:   "tmp holes are not stored",
			limits: fsbridge.Limits{FileSize: 300 << 20},
			code: `
for i in range(4):
    t('s%d' % i, lambda: sparse('/tmp/s%d' % i, 200 << 20))
t('size', lambda: os.path.getsize('/tmp/s0'))
t('hole', lambda: pread('/tmp/s0', 100 << 20, 4))
t('tail', lambda: pread('/tmp/s0', (200 << 20) - 2, 10))
t('grow', lambda: os.truncate('/tmp/s1', 250 << 20))
t('size1', lambda: os.path.getsize('/tmp/s1'))
t('shrink', lambda: os.truncate('/tmp/s2', 1))
t('regrow', lambda: os.truncate('/tmp/s2', 100))
t('zeros', lambda: pread('/tmp/s2', 0, 8))
`,
			want: map[string]string{
				"s0": "OK 1", "s3": "OK 1", "size": "OK 209715201",
				"hole": `OK b'\x00\x00\x00\x00'`, "tail": `OK b'\x00\x00x'`,
				"grow": "OK None", "size1": "OK 262144000",
				"shrink": "OK None", "regrow": "OK None", "zeros": `OK b'\x00\x00\x00\x00\x00\x00\x00\x00'`,
			},
			check: func(t *testing.T, w *world, sb *fsbridge.Sandbox) {
				// s0, s1, s3: one chunk each; s2 was cut to nothing.
				if got := fsbridge.TmpAllocated(sb); got != 3*chunk {
					t.Errorf("/tmp holds %d bytes on the host, want %d (three one-chunk files)", got, 3*chunk)
				}
				pyOK(t, sb, "import os\nfor i in range(4): os.remove('/tmp/s%d' % i)")
				if got := fsbridge.TmpAllocated(sb); got != 0 {
					t.Errorf("/tmp holds %d bytes after every file was deleted, want 0", got)
				}
			},
		},
		{
			// One byte per chunk: the host holds a chunk per byte, and the
			// bytes-written limit counts the chunks.
			name:   "tmp chunks count against write_bytes",
			limits: fsbridge.Limits{WriteBytes: 1 << 20},
			code: `
def scatter():
    fd = os.open('/tmp/scatter', os.O_WRONLY | os.O_CREAT)
    n = 0
    try:
        for i in range(1000):
            os.pwrite(fd, b'x', i * 4096 * 2)
            n += 1
    finally:
        os.close(fd)
        print('written', n)
t('scatter', scatter)
`,
			want: map[string]string{"scatter": "OSError EIO", "written": "256"},
			denials: [][]string{
				{"write denied: /tmp/scatter would exceed the limit of 1 MiB written per run"},
			},
			check: func(t *testing.T, w *world, sb *fsbridge.Sandbox) {
				if got := fsbridge.TmpAllocated(sb); got > 1<<20 {
					t.Errorf("/tmp holds %d bytes on the host, over the 1 MiB written per run", got)
				}
			},
		},
		{
			// The issue's /output attack: eight files of 256 MiB, one byte
			// each, that the host then hashed for seconds.
			name:   "output holes count as written",
			limits: fsbridge.Limits{WriteBytes: 4 << 20},
			code: `
for i in range(8):
    t('o%d' % i, lambda: sparse('/output/o%d.bin' % i, 1 << 20))
t('rw', lambda: sparse('/work/big.bin', 8 << 20))
t('trunc', lambda: os.truncate('/work/notes.txt', 8 << 20))
t('small', lambda: put('/output/small.txt', 'fine'))
`,
			want: map[string]string{
				"o0": "OK 1", "o1": "OK 1", "o2": "OK 1", "o3": "OSError EIO", "o7": "OSError EIO",
				"rw": "OSError EIO", "trunc": "OSError EIO", "small": "OK 4",
			},
			denials: [][]string{
				{"write denied: /output/o3.bin would exceed the limit of 4 MiB written per run"},
				{"write denied: /work/big.bin would exceed the limit of 4 MiB written per run"},
			},
			check: func(t *testing.T, w *world, sb *fsbridge.Sandbox) {
				arts, err := sb.Artifacts()
				if err != nil {
					t.Fatal(err)
				}
				var total int64
				for _, a := range arts {
					total += a.Size
				}
				if total > 4<<20 {
					t.Errorf("artifacts total %d bytes, over the 4 MiB the run could write: %+v", total, arts)
				}
				if fi, err := os.Stat(filepath.Join(w.work, "big.bin")); err != nil || fi.Size() != 0 {
					t.Errorf("host big.bin: %v %v, want an empty file", fi, err)
				}
				if fi, err := os.Stat(filepath.Join(w.work, "notes.txt")); err != nil || fi.Size() != 11 {
					t.Errorf("host notes.txt: %v %v, want it unchanged", fi, err)
				}
			},
		},
		{
			// Overwriting what is there costs the bytes written, not more.
			name:   "rewrites cost what they write",
			limits: fsbridge.Limits{WriteBytes: 300 << 10},
			code: `
t('a', lambda: put('/work/a.bin', 'x' * (100 << 10)))
def rewrite():
    with open('/work/a.bin', 'r+b', buffering=0) as f:
        for i in range(100):
            f.seek(i * 1024)
            f.write(b'y' * 1024)
    return 'ok'
t('b', rewrite)
t('c', lambda: put('/work/a.bin', 'z', 'a'))
t('d', lambda: put('/work/d.bin', 'x' * (200 << 10)))
`,
			want: map[string]string{"a": "OK", "b": "OK 'ok'", "c": "OK 1", "d": "OSError EIO"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			p := w.policy()
			p.Limits = c.limits
			sb := newSandbox(t, p)
			res := py(t, sb, prelude+sparse+c.code)
			if res.Status != "ok" {
				t.Fatalf("status %s: %s\n%s\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			checkLines(t, string(res.Stdout), c.want)
			for _, parts := range c.denials {
				hasDenial(t, sb.Denials(), parts...)
			}
			if c.check != nil {
				c.check(t, w, sb)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", res.Stdout)
			}
		})
	}
}

// putRecorder is a writable virtual mount's fetcher that records the size
// of every upload.
type putRecorder struct {
	mu   sync.Mutex
	puts map[string]int
}

func (r *putRecorder) Fetch(context.Context, string) ([]byte, error) { return nil, fs.ErrNotExist }

func (r *putRecorder) Put(_ context.Context, name string, data []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.puts[name] = len(data)
	return nil
}

// An upload is held in host memory until the guest closes it, so the size
// limit holds while it is written: the write that crosses it fails, naming
// the path and the limit, and the cut-short upload is never sent.
func TestUploadLimitHoldsWhileWriting(t *testing.T) {
	w := newWorld(t)
	p := w.policy()
	p.Limits = fsbridge.Limits{FileSize: 1 << 20}
	rec := &putRecorder{puts: map[string]int{}}
	p.Virtual = []fsbridge.VirtualMount{{Guest: "/up", Fetcher: rec, Writable: true}}
	sb := newSandbox(t, p)
	out := pyOK(t, sb, prelude+sparse+`
f = open('/up/big.bin', 'wb', buffering=0)
n = 0
def fill():
    global n
    for i in range(32):
        f.write(b'x' * (64 << 10))
        n += 1
t('fill', fill)
print('chunks', n)
t('close', f.close)
t('hole', lambda: sparse('/up/hole.bin', 8 << 20))
t('ok', lambda: put('/up/ok.txt', 'x' * (512 << 10)))
`)
	checkLines(t, out, map[string]string{
		"fill": "OSError EIO", "chunks": "16", "close": "OSError EIO", "hole": "OSError EIO", "ok": "OK 524288",
	})
	hasDenial(t, sb.Denials(), "write denied: /up/big.bin would grow the file to 1114112 bytes, past the file size limit of 1 MiB")
	hasDenial(t, sb.Denials(), "upload failed: /up/big.bin: not sent")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if want := map[string]int{"ok.txt": 512 << 10}; !reflect.DeepEqual(rec.puts, want) {
		t.Errorf("uploads %v, want %v", rec.puts, want)
	}
}

// A copy-on-write copy-up writes the whole file into the upper folder: it
// counts against the bytes written per run (40 MiB landed with a 1 MiB
// limit), and one that would exceed it is refused before anything is
// copied. An open that truncates copies nothing.
func TestCopyUpCountsAsWritten(t *testing.T) {
	w := newWorld(t)
	lower, upper := filepath.Join(w.base, "lower"), filepath.Join(w.base, "cow-upper")
	write(t, filepath.Join(lower, "big.bin"), strings.Repeat("b", 2<<20))
	write(t, filepath.Join(lower, "mid.bin"), strings.Repeat("m", 600<<10))
	write(t, filepath.Join(lower, "mid2.bin"), strings.Repeat("m", 600<<10))
	before := treeSum(t, lower)
	p := w.policy()
	p.Mounts = append(p.Mounts, fsbridge.CopyOnWriteMount(lower, "/big", upper))
	p.Limits = fsbridge.Limits{WriteBytes: 1 << 20}
	sb := newSandbox(t, p)
	out := pyOK(t, sb, prelude+`
t('append', lambda: put('/big/big.bin', 'x', 'a'))
t('rename', lambda: os.rename('/big/big.bin', '/big/moved.bin'))
t('trunc', lambda: put('/big/big.bin', 'y'))
t('read', lambda: read('/big/big.bin'))
t('mid', lambda: put('/big/mid.bin', 'x', 'a'))
t('mid2', lambda: os.utime('/big/mid2.bin'))
t('size2', lambda: os.path.getsize('/big/mid2.bin'))
`)
	checkLines(t, out, map[string]string{
		"append": "OSError EIO", "rename": "OSError EIO",
		"trunc": "OK 1", "read": "OK 'y'", "mid": "OK 1", "mid2": "OSError EIO", "size2": "OK 614400",
	})
	hasDenial(t, sb.Denials(), "write denied: /big/big.bin must first be copied to the copy-on-write layer (2097152 bytes), which would exceed the limit of 1 MiB written per run")
	hasDenial(t, sb.Denials(), "write denied: /big/mid2.bin must first be copied")
	if treeSum(t, lower) != before {
		t.Errorf("the copy-on-write host folder changed")
	}
	var landed int64
	filepath.WalkDir(upper, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			fi, _ := d.Info()
			landed += fi.Size()
		}
		return nil
	})
	if landed > 1<<20 {
		t.Errorf("%d bytes landed in the upper folder, over the 1 MiB written per run", landed)
	}
}

// OpenArtifact (what downloads stream) follows no symbolic link, at the end
// of the path or on the way, even one that stays inside /output.
func TestOpenArtifactFollowsNoLink(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	write(t, filepath.Join(w.out, "real", "f.txt"), "inside")
	must(t, os.Symlink(filepath.Join(w.secret, "secret.txt"), filepath.Join(w.out, "abs")))
	must(t, os.Symlink("real/f.txt", filepath.Join(w.out, "in")))
	must(t, os.Symlink("real", filepath.Join(w.out, "dir")))
	must(t, os.Symlink("../secret", filepath.Join(w.out, "up")))
	for _, c := range []struct{ path, want string }{
		{"/output/real/f.txt", "inside"},
		{"/output/abs", ""}, {"/output/in", ""}, {"/output/dir/f.txt", ""}, {"/output/up/secret.txt", ""},
		{"/output/real", ""}, {"/output", ""}, {"/data/a.csv", ""}, {"/output/../data/a.csv", ""},
	} {
		f, fi, err := sb.OpenArtifact(c.path)
		if c.want == "" {
			if err == nil {
				f.Close()
				t.Errorf("OpenArtifact(%s) opened %s, want an error", c.path, fi.Name())
			}
			continue
		}
		if err != nil {
			t.Errorf("OpenArtifact(%s): %v", c.path, err)
			continue
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != c.want || fi.Size() != int64(len(c.want)) {
			t.Errorf("OpenArtifact(%s) = %q (%d bytes), want %q", c.path, b, fi.Size(), c.want)
		}
	}
}

// Artifacts hash no more than the run could write: files the guest only
// renamed (or touched) cost it nothing, so past the bytes-written limit they
// are listed with their size and type but not read whole.
func TestArtifactsHashWithinTheWriteBudget(t *testing.T) {
	w := newWorld(t)
	for _, n := range []string{"a", "b", "c"} {
		write(t, filepath.Join(w.out, "old-"+n+".bin"), strings.Repeat(n, 600<<10))
	}
	p := w.policy()
	p.Limits = fsbridge.Limits{WriteBytes: 1 << 20}
	sb := newSandbox(t, p)
	pyOK(t, sb, `
import os
for n in 'abc':
    os.rename('/output/old-%s.bin' % n, '/output/new-%s.bin' % n)
open('/output/0-small.txt', 'w').write('small')
`)
	arts, err := sb.Artifacts()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range arts {
		got = append(got, fmt.Sprintf("%s %d %s %v", a.Path, a.Size, a.MIME, a.SHA256 != ""))
	}
	want := []string{
		"/output/0-small.txt 5 text/plain; charset=utf-8 true",
		"/output/new-a.bin 614400 application/octet-stream true",
		"/output/new-b.bin 614400 application/octet-stream false",
		"/output/new-c.bin 614400 application/octet-stream false",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("artifacts:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// What /tmp holds stays in host memory across the runs of a session, so it
// may never hold more than one run may write, whatever the runs do.
func TestTmpFullAcrossRuns(t *testing.T) {
	w := newWorld(t)
	p := w.policy()
	p.Limits = fsbridge.Limits{WriteBytes: 1 << 20}
	sb := newSandbox(t, p)
	checkLines(t, pyOK(t, sb, prelude+`t('a', lambda: put('/tmp/a', 'x' * (700 << 10)))`), map[string]string{"a": "OK"})
	checkLines(t, pyOK(t, sb, prelude+`
t('b', lambda: put('/tmp/b', 'x' * (700 << 10)))
t('out', lambda: put('/output/b', 'x' * (700 << 10)))
`), map[string]string{"b": "OSError EIO", "out": "OK"})
	hasDenial(t, sb.Denials(), "write denied: /tmp/b is on /tmp, which is full (it may hold 1 MiB, the limit of bytes written per run, and holds")
	if got := fsbridge.TmpAllocated(sb); got > 1<<20 {
		t.Errorf("/tmp holds %d bytes, over 1 MiB", got)
	}
	checkLines(t, pyOK(t, sb, prelude+`
os.remove('/tmp/a')
t('again', lambda: put('/tmp/b', 'x' * (700 << 10)))
`), map[string]string{"again": "OK"})
}

// The sparse in-memory store behaves like a real file: the same random
// sequence of writes, seeks past the end, truncates, appends, renames and
// reads gives the same bytes and sizes in /tmp as in /output (a host
// folder).
func TestTmpBehavesLikeAHostFolder(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	out := pyOK(t, sb, `
import os, random, hashlib
def run(root, seed):
    rnd = random.Random(seed)
    log = []
    names = ['a', 'b', 'c']
    for n in names:
        open(os.path.join(root, n), 'wb').close()
    for step in range(300):
        n = os.path.join(root, rnd.choice(names))
        op = rnd.randrange(7)
        size = os.path.getsize(n)
        if op == 0:
            with open(n, 'r+b') as f:
                f.seek(rnd.randrange(size + 20000))
                f.write(rnd.randbytes(rnd.randrange(1, 9000)))
        elif op == 1:
            os.truncate(n, rnd.randrange(size * 2 + 10000))
        elif op == 2:
            with open(n, 'ab') as f:
                f.write(b'A' * rnd.randrange(1, 5000))
        elif op == 3:
            fd = os.open(n, os.O_RDWR)
            os.pwrite(fd, b'P' * rnd.randrange(1, 300), rnd.randrange(size + 9000))
            os.close(fd)
        elif op == 4:
            m = os.path.join(root, rnd.choice(names))
            if m != n:
                os.rename(n, m)
                open(n, 'wb').close()
        elif op == 5:
            fd = os.open(n, os.O_RDONLY)
            log.append(os.pread(fd, rnd.randrange(1, 10000), rnd.randrange(size + 10)))
            os.close(fd)
        else:
            with open(n, 'r+b') as f:
                f.truncate(rnd.randrange(size + 1))
        log.append(os.path.getsize(n))
    for n in names:
        log.append(open(os.path.join(root, n), 'rb').read())
    return hashlib.sha256(repr(log).encode()).hexdigest(), [os.path.getsize(os.path.join(root, n)) for n in names]
for seed in range(3):
    tmp, out = run('/tmp', seed), run('/output', seed)
    print('seed', seed, tmp == out, tmp[1], out[1])
`)
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(l, " True ") {
			t.Errorf("/tmp and /output differ: %s", l)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

// A write stopped by a limit raises an OSError that says why, naming the
// path, the limit and its value, although CPython attaches no file name to
// a failed write (the guest asks the host with an empty name; see
// scripts/cpython/pybox.patch).
func TestLimitRefusalsExplainThemselves(t *testing.T) {
	w := newWorld(t)
	p := w.policy()
	p.Limits = fsbridge.Limits{FileSize: 1 << 20, WriteBytes: 3 << 20}
	sb := newSandbox(t, p)
	out := pyOK(t, sb, `
def why(f):
    try:
        f()
    except OSError as e:
        print(e)
def big():
    with open('/work/big.bin', 'wb') as f:
        f.write(b'x' * (2 << 20))
def quota():
    for i in range(4):
        with open('/output/part%d.bin' % i, 'wb') as f:
            f.write(b'y' * (1 << 20))
why(big)
why(quota)
why(lambda: open('/work/ok.txt', 'w').write('fine'))
`)
	for _, want := range []string{
		"write denied: /work/big.bin would grow the file to 2097152 bytes, past the file size limit of 1 MiB",
		"write denied: /output/part3.bin would exceed the limit of 3 MiB written per run",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("guest saw:\n%s\nwant a line with %q", out, want)
		}
	}
	if strings.Contains(out, "I/O error") {
		t.Errorf("a bare I/O error reached the guest:\n%s", out)
	}
}
