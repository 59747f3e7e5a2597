package fsbridge_test

import (
	"os"
	"path/filepath"
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
