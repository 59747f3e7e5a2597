package fsbridge_test

import (
	"strings"
	"testing"

	"github.com/pybox-dev/pybox/runtime"
)

// noHostDetail fails the test if any text the guest or the caller sees
// carries a Go panic's detail (a goroutine header, a Go source path, the
// marker wazero adds to recovered panics) or one of the secrets.
func noHostDetail(t *testing.T, what, text string, secrets ...string) {
	t.Helper()
	for _, bad := range append([]string{"goroutine ", ".go:", "recovered by wazero", "panic"}, secrets...) {
		if bad != "" && strings.Contains(text, bad) {
			t.Errorf("%s contains %q:\n%s", what, bad, text)
		}
	}
}

// Seeking to a negative offset is EINVAL on every kind of file, and reads
// and writes at any offset, huge ones included, fail cleanly or succeed:
// nothing panics in the host (a negative offset used to reach afero's
// in-memory /tmp files and panic with "slice bounds out of range").
func TestSeekOffsets(t *testing.T) {
	w := newWorld(t)
	sb := newSandbox(t, w.policy())
	for _, dir := range []string{"/tmp", "/work", "/output"} {
		t.Run(dir, func(t *testing.T) {
			res := py(t, sb, prelude+`
d = '`+dir+`'
fd = os.open(d + '/seek.bin', os.O_RDWR | os.O_CREAT | os.O_TRUNC)
os.write(fd, b'hello')
t('negset', lambda: os.lseek(fd, -1, os.SEEK_SET))
t('negcur', lambda: os.lseek(fd, -6, os.SEEK_CUR))
t('negend', lambda: os.lseek(fd, -6, os.SEEK_END))
t('pos', lambda: os.lseek(fd, 0, os.SEEK_CUR))
t('write', lambda: os.write(fd, b'!'))
t('end', lambda: os.lseek(fd, -1, os.SEEK_END))
t('hugeseek', lambda: os.lseek(fd, 2**40, os.SEEK_SET))
t('hugeread', lambda: os.read(fd, 10))
t('hugewrite', lambda: os.write(fd, b'x'))
t('hugepwrite', lambda: os.pwrite(fd, b'x', 2**40))
t('hugepread', lambda: os.pread(fd, 10, 2**40))
if d == '/tmp':
    # Host files stop at the host's own maximum offset (EINVAL from the
    # host kernel); in-memory files are all pybox's, up to 2**63-1.
    t('maxseek', lambda: os.lseek(fd, 2**63 - 1, os.SEEK_SET))
    t('maxread', lambda: os.read(fd, 10))
    t('maxwrite', lambda: os.write(fd, b'xy'))
    t('overflow', lambda: os.lseek(fd, 10, os.SEEK_CUR))
    t('maxpread', lambda: os.pread(fd, 10, 2**63 - 1))
    t('maxpwrite', lambda: os.pwrite(fd, b'xy', 2**63 - 1))
    t('maxtrunc', lambda: os.ftruncate(fd, 2**63 - 1))
os.lseek(fd, 2, os.SEEK_SET)
t('pwrite', lambda: os.pwrite(fd, b'L', 3))
t('after', lambda: os.read(fd, 100))
t('whole', lambda: os.pread(fd, 100, 0))
os.close(fd)
`)
			if res.Status != runtime.StatusOK {
				t.Fatalf("status %s: %s\nstdout:\n%s\nstderr:\n%s", res.Status, res.Message, res.Stdout, res.Stderr)
			}
			want := map[string]string{
				"negset": "OSError EINVAL", "negcur": "OSError EINVAL", "negend": "OSError EINVAL",
				"pos": "OK 5", "write": "OK 1", "end": "OK 5",
				"hugeseek": "OK 1099511627776", "hugeread": "OK b''", "hugepread": "OK b''",
				"hugewrite": "OSError EIO", "hugepwrite": "OSError EIO",
				"pwrite": "OK 1", "after": "OK b'lLo!'", "whole": "OK b'helLo!'",
			}
			if dir == "/tmp" {
				for k, v := range map[string]string{
					"maxseek": "OK 9223372036854775807", "maxread": "OK b''", "maxwrite": "OSError EINVAL",
					"overflow": "OSError EINVAL", "maxpread": "OK b''", "maxpwrite": "OSError EINVAL",
					"maxtrunc": "OSError EIO",
				} {
					want[k] = v
				}
			}
			checkLines(t, string(res.Stdout), want)
			hasDenial(t, sb.Denials(), "write denied: "+dir+"/seek.bin would grow the file to 1099511627777 bytes, past the file size limit of 256 MiB")
			noHostDetail(t, "stdout", string(res.Stdout))
			noHostDetail(t, "stderr", string(res.Stderr))
		})
	}
}
