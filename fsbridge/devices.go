package fsbridge

import (
	"crypto/rand"
	"io/fs"
	"path"
	"sort"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wsys "github.com/tetratelabs/wazero/sys"
)

// device is one of the character devices the guest finds in /dev. Each is
// made here, in the host process: none reaches a host device, so what they
// give away is nothing the guest could not compute (zeros) or get from
// WASI's random_get already (random bytes).
type device struct {
	stat wsys.Stat_t
	// fill answers a read into b; nil means end of file (/dev/null).
	fill func(b []byte)
}

// devices are the guest's /dev, by guest path. Code opens os.devnull to
// discard output, and libraries read /dev/urandom or /dev/zero directly
// (uuid, secrets' fallbacks, mmap-free zero buffers). Writes to any of them
// vanish, as Linux does for these four.
var devices = map[string]*device{
	"/dev/null":    newDevice("null", 3, nil),
	"/dev/zero":    newDevice("zero", 5, func(b []byte) { clear(b) }),
	"/dev/random":  newDevice("random", 8, randomFill),
	"/dev/urandom": newDevice("urandom", 9, randomFill),
}

// deviceNames lists the devices' names for messages: "null, random, ...".
func deviceNames() string {
	var names []string
	for p := range devices {
		names = append(names, path.Base(p))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func newDevice(name string, ino uint64, fill func([]byte)) *device {
	return &device{
		stat: wsys.Stat_t{Dev: hash64("dev:devices"), Ino: ino, Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, Nlink: 1},
		fill: fill,
	}
}

func randomFill(b []byte) {
	// crypto/rand.Read never fails on the platforms Go supports (it
	// crashes the program rather than return short).
	rand.Read(b)
}

// devFolder is /dev. It is only made when no mount claims /dev itself.
const devFolder = "/dev"

// addDevices lists the devices in the synthetic /dev folder, unless a mount
// sits at /dev (then that mount is what the guest sees there).
func (s *Sandbox) addDevices() {
	if m, _ := s.mountFor(devFolder); m != nil {
		return
	}
	s.addSynth("/", path.Base(devFolder))
	for p := range devices {
		s.addSynth(devFolder, path.Base(p))
	}
}

// absentDevice reports whether opening g with flag is an open of a device
// the sandbox does not have (/dev/tty, /dev/fd/0, ...): such an open fails
// with ENOENT and is not reported as a refusal, as on a machine without
// that device node. getpass, for one, tries /dev/tty before stdin. An open
// that would create a file in /dev is still a refused write.
func absentDevice(g string, flag experimentalsys.Oflag) bool {
	return strings.HasPrefix(g, devFolder+"/") && flag&experimentalsys.O_CREAT == 0
}

// devFile is an open device. It holds an open-files slot until closed.
type devFile struct {
	experimentalsys.UnimplementedFile
	dev     *device
	release func()
}

func (f *devFile) Dev() (uint64, experimentalsys.Errno)       { return f.dev.stat.Dev, 0 }
func (f *devFile) Ino() (wsys.Inode, experimentalsys.Errno)   { return f.dev.stat.Ino, 0 }
func (f *devFile) IsDir() (bool, experimentalsys.Errno)       { return false, 0 }
func (f *devFile) IsAppend() bool                             { return false }
func (f *devFile) SetAppend(bool) experimentalsys.Errno       { return 0 }
func (f *devFile) Stat() (wsys.Stat_t, experimentalsys.Errno) { return f.dev.stat, 0 }

func (f *devFile) Read(b []byte) (int, experimentalsys.Errno) {
	if f.dev.fill == nil {
		return 0, 0
	}
	f.dev.fill(b)
	return len(b), 0
}

func (f *devFile) Pread(b []byte, _ int64) (int, experimentalsys.Errno) { return f.Read(b) }
func (f *devFile) Seek(int64, int) (int64, experimentalsys.Errno)       { return 0, 0 }
func (f *devFile) Write(b []byte) (int, experimentalsys.Errno)          { return len(b), 0 }
func (f *devFile) Pwrite(b []byte, _ int64) (int, experimentalsys.Errno) {
	return len(b), 0
}
func (f *devFile) Truncate(int64) experimentalsys.Errno       { return 0 }
func (f *devFile) Sync() experimentalsys.Errno                { return 0 }
func (f *devFile) Datasync() experimentalsys.Errno            { return 0 }
func (f *devFile) Utimens(int64, int64) experimentalsys.Errno { return 0 }

func (f *devFile) Close() experimentalsys.Errno {
	f.release() // gives the slot back once, however often it is called
	return 0
}
