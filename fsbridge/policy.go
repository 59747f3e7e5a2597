package fsbridge

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Mode is how a host folder is mounted into the guest.
type Mode int

const (
	// ReadOnly: the guest reads the host folder; every change is refused
	// with EROFS.
	ReadOnly Mode = iota
	// ReadWrite: the guest reads and writes the host folder itself. Use it
	// for work folders meant to receive the guest's files.
	ReadWrite
	// CopyOnWrite: the guest reads the host folder, and every change
	// (write, create, delete, rename, chmod) lands in a separate upper
	// folder; the host folder is never modified. Deleted host files are
	// remembered as whiteouts and disappear from the guest's view.
	CopyOnWrite
)

// String returns "ro", "rw" or "cow", the names used in mount specs.
func (m Mode) String() string {
	switch m {
	case ReadOnly:
		return "ro"
	case ReadWrite:
		return "rw"
	case CopyOnWrite:
		return "cow"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode parses "ro", "rw" or "cow" (also "readonly", "readwrite",
// "copy-on-write").
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "ro", "readonly", "read-only":
		return ReadOnly, nil
	case "rw", "readwrite", "read-write":
		return ReadWrite, nil
	case "cow", "copyonwrite", "copy-on-write":
		return CopyOnWrite, nil
	}
	return 0, fmt.Errorf("unknown mount mode %q (want ro, rw or cow)", s)
}

// Mount maps a host folder to a guest path.
type Mount struct {
	// Host is the host folder. It must exist. Symbolic links in it are
	// resolved once, when the Sandbox is created.
	Host string
	// Guest is the absolute guest path, e.g. "/data".
	Guest string
	// Mode is ReadOnly, ReadWrite or CopyOnWrite.
	Mode Mode
	// Upper is, for CopyOnWrite, the host folder that receives the guest's
	// changes. Empty means a private temporary folder, removed by
	// Sandbox.Close. It is created if missing. Ignored for other modes.
	Upper string
}

// ReadOnlyMount returns a Mount of host at guest in ReadOnly mode.
func ReadOnlyMount(host, guest string) Mount { return Mount{Host: host, Guest: guest, Mode: ReadOnly} }

// ReadWriteMount returns a Mount of host at guest in ReadWrite mode.
func ReadWriteMount(host, guest string) Mount {
	return Mount{Host: host, Guest: guest, Mode: ReadWrite}
}

// CopyOnWriteMount returns a Mount of host at guest in CopyOnWrite mode,
// with changes going to upper (empty: a temporary folder).
func CopyOnWriteMount(host, guest, upper string) Mount {
	return Mount{Host: host, Guest: guest, Mode: CopyOnWrite, Upper: upper}
}

// String returns the mount as a spec, HOST:GUEST:MODE.
func (m Mount) String() string {
	s := m.Host + ":" + m.Guest + ":" + m.Mode.String()
	if m.Mode == CopyOnWrite && m.Upper != "" {
		s += "=" + m.Upper
	}
	return s
}

// ParseMountSpec parses a command-line mount spec HOST:GUEST[:MODE], where
// MODE is ro (the default), rw, cow or cow=UPPER (UPPER is the folder that
// receives the changes). GUEST must be absolute.
//
//	/srv/data:/data:ro
//	./work:/work:rw
//	/home/me/project:/src:cow=/var/pybox/upper
func ParseMountSpec(spec string) (Mount, error) {
	bad := func(why string) (Mount, error) {
		return Mount{}, fmt.Errorf("mount %q: %s (want HOST:GUEST:MODE with MODE ro, rw or cow)", spec, why)
	}
	parts := strings.Split(spec, ":")
	var m Mount
	switch {
	case len(parts) == 2:
		m = Mount{Host: parts[0], Guest: parts[1], Mode: ReadOnly}
	case len(parts) >= 3:
		last := parts[len(parts)-1]
		mode, upper, _ := strings.Cut(last, "=")
		md, err := ParseMode(mode)
		if err != nil {
			// The last part may belong to GUEST only if there were exactly
			// two colons in a Windows-style HOST; we do not support that.
			return bad(fmt.Sprintf("unknown mount mode %q", mode))
		}
		if upper != "" && md != CopyOnWrite {
			return bad("only cow takes =UPPER")
		}
		m = Mount{
			Host:  strings.Join(parts[:len(parts)-2], ":"),
			Guest: parts[len(parts)-2],
			Mode:  md,
			Upper: upper,
		}
	default:
		return bad("missing GUEST")
	}
	if m.Host == "" {
		return bad("empty HOST")
	}
	if !strings.HasPrefix(m.Guest, "/") {
		return bad("GUEST must be an absolute path")
	}
	return m, nil
}

// VirtualMount is a guest folder whose files are produced by Go code:
// reading /network/current-ip calls Fetcher.Fetch(ctx, "current-ip").
type VirtualMount struct {
	// Guest is the absolute guest path, e.g. "/network".
	Guest string
	// Fetcher serves the files. It may also implement Putter (writes) and
	// Lister (directory listings).
	Fetcher Fetcher
	// Writable lets the guest write files there: the bytes are handed to
	// the fetcher's Put method when the guest closes the file. It requires
	// the Fetcher to implement Putter. Until then they are held in host
	// memory, so they count against the limits as they are written: the
	// write that would grow an upload past Limits.FileSize fails (and the
	// upload is not sent).
	Writable bool
}

// Limits bound what the guest may do to writable mounts (including /output
// and /tmp). A zero field takes the default below; a negative one means no
// limit.
type Limits struct {
	// WriteBytes caps the bytes written per run (between two BeginRun
	// calls), over all files. Growing a file counts its growth even where
	// nothing is written (a hole is read back after the run), and in /tmp
	// a write counts the memory it allocates if that is more. It also caps
	// what the in-memory /tmp holds at any time, over all runs. Default
	// 1 GiB.
	WriteBytes int64
	// Files caps the files and folders created per run. Default 10000.
	Files int
	// FileSize caps the size of any file the guest writes (writes that
	// would grow a file past it fail, the file keeps what it had).
	// Default 256 MiB.
	FileSize int64
	// OpenFiles caps the files the guest has open at once. Default 256.
	OpenFiles int
}

// Defaults for zero Limits fields.
const (
	DefaultWriteBytes = 1 << 30
	DefaultFiles      = 10000
	DefaultFileSize   = 256 << 20
	DefaultOpenFiles  = 256
)

func (l Limits) withDefaults() Limits {
	if l.WriteBytes == 0 {
		l.WriteBytes = DefaultWriteBytes
	}
	if l.Files == 0 {
		l.Files = DefaultFiles
	}
	if l.FileSize == 0 {
		l.FileSize = DefaultFileSize
	}
	if l.OpenFiles == 0 {
		l.OpenFiles = DefaultOpenFiles
	}
	return l
}

// Policy is everything the operator decides about what the guest may
// touch. The zero Policy gives the guest a temporary /output, an in-memory
// /tmp and nothing else.
type Policy struct {
	// Mounts are host folders visible to the guest.
	Mounts []Mount
	// Output is the host folder behind the guest's /output; files created
	// or changed there are the run's artifacts. Empty means a temporary
	// folder, removed by Sandbox.Close.
	Output string
	// NoOutput removes /output altogether.
	NoOutput bool
	// NoTmp removes the in-memory /tmp.
	NoTmp bool
	// Virtual are the fetcher-backed folders, e.g. /network.
	Virtual []VirtualMount
	// Limits bound writes; zero fields take defaults.
	Limits Limits
	// TempDir is where temporary folders (for Output and copy-on-write
	// uppers left empty) are made; empty means os.TempDir().
	TempDir string
}

// Guest paths the policy may not use.
const (
	outputGuest = "/output"
	tmpGuest    = "/tmp"
	bundleGuest = "/usr/local" // the runtime bundle, mounted by the runtime
	cowMetaName = ".pybox-cow.json"
)

// cleanGuest validates and cleans a guest mount path.
func cleanGuest(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("guest path %q must be absolute", p)
	}
	c := path.Clean(p)
	if c == "/" {
		return "", errors.New(`guest path "/" cannot be a mount: the root holds the mounts`)
	}
	if c == bundleGuest || strings.HasPrefix(c, bundleGuest+"/") {
		return "", fmt.Errorf("guest path %q is reserved for the runtime bundle (%s)", p, bundleGuest)
	}
	if strings.ContainsRune(c, 0) {
		return "", fmt.Errorf("guest path %q contains a NUL byte", p)
	}
	return c, nil
}

// realDir resolves a host folder to its absolute, symlink-free form and
// checks it is a folder.
func realDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder", p)
	}
	return real, nil
}

// makeDir is realDir for a folder that is created if missing (only with
// create; otherwise a missing folder resolves to its absolute path).
func makeDir(p string, create bool) (string, error) {
	if create {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return "", err
		}
	} else if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return filepath.Abs(p)
	}
	return realDir(p)
}

// within reports whether child is parent or below it (both clean, absolute
// host paths).
func within(child, parent string) bool {
	if child == parent {
		return true
	}
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// guestWithin is within for guest paths.
func guestWithin(child, parent string) bool {
	return child == parent || strings.HasPrefix(child, parent+"/")
}

// Validate checks the policy without creating anything: guest paths are
// absolute, unique and not nested, host folders exist, and no writable host
// folder overlaps another mount's host folder (a write there would change
// what another mount shows, or the host files a copy-on-write mount
// protects).
func (p Policy) Validate() error {
	_, err := p.plan(false)
	return err
}

// plannedMount is a validated mount with resolved host paths.
type plannedMount struct {
	kind    mountKind
	guest   string
	host    string // real path; empty for tmp and virtual
	hostAbs string // absolute, links not resolved (as the operator wrote it)
	upper   string // cow: real path, or "" for a temp dir
	virtual VirtualMount
}

type mountKind int

const (
	kindRO mountKind = iota
	kindRW
	kindCOW
	kindOutput
	kindTmp
	kindVirtual
)

func (k mountKind) writable() bool { return k != kindRO }

// plan validates the policy and resolves host folders. With create, missing
// Output and Upper folders are made; without, they are checked as they
// would be once made.
func (p Policy) plan(create bool) ([]plannedMount, error) {
	var out []plannedMount
	seen := map[string]bool{}
	add := func(pm plannedMount) error {
		for g := range seen {
			if guestWithin(pm.guest, g) || guestWithin(g, pm.guest) {
				if g == pm.guest {
					return fmt.Errorf("guest path %s is mounted twice", g)
				}
				return fmt.Errorf("mounts %s and %s are nested; mounts may not contain each other", g, pm.guest)
			}
		}
		seen[pm.guest] = true
		out = append(out, pm)
		return nil
	}
	for _, m := range p.Mounts {
		g, err := cleanGuest(m.Guest)
		if err != nil {
			return nil, fmt.Errorf("mount %s: %w", m, err)
		}
		host, err := realDir(m.Host)
		if err != nil {
			return nil, fmt.Errorf("mount %s: host folder: %w", m, err)
		}
		pm := plannedMount{guest: g, host: host}
		if abs, err := filepath.Abs(m.Host); err == nil {
			pm.hostAbs = abs
		}
		switch m.Mode {
		case ReadOnly:
			pm.kind = kindRO
		case ReadWrite:
			pm.kind = kindRW
		case CopyOnWrite:
			pm.kind = kindCOW
			if m.Upper != "" {
				if pm.upper, err = makeDir(m.Upper, create); err != nil {
					return nil, fmt.Errorf("mount %s: upper folder: %w", m, err)
				}
			}
		default:
			return nil, fmt.Errorf("mount %s: unknown mode %d", m, int(m.Mode))
		}
		if err := add(pm); err != nil {
			return nil, err
		}
	}
	if !p.NoOutput {
		pm := plannedMount{kind: kindOutput, guest: outputGuest}
		if p.Output != "" {
			host, err := makeDir(p.Output, create)
			if err != nil {
				return nil, fmt.Errorf("output folder: %w", err)
			}
			pm.host = host
		}
		if err := add(pm); err != nil {
			return nil, err
		}
	}
	if !p.NoTmp {
		if err := add(plannedMount{kind: kindTmp, guest: tmpGuest}); err != nil {
			return nil, err
		}
	}
	for _, v := range p.Virtual {
		g, err := cleanGuest(v.Guest)
		if err != nil {
			return nil, fmt.Errorf("virtual mount: %w", err)
		}
		if v.Fetcher == nil {
			return nil, fmt.Errorf("virtual mount %s: no Fetcher", g)
		}
		if v.Writable {
			if _, ok := v.Fetcher.(Putter); !ok {
				return nil, fmt.Errorf("virtual mount %s: Writable needs a Fetcher that implements Putter", g)
			}
		}
		if err := add(plannedMount{kind: kindVirtual, guest: g, virtual: v}); err != nil {
			return nil, err
		}
	}

	// Writable host folders must not overlap any other host folder.
	type hostUse struct {
		dir      string
		guest    string
		writable bool
		what     string
	}
	var uses []hostUse
	for _, pm := range out {
		switch pm.kind {
		case kindRO:
			uses = append(uses, hostUse{pm.host, pm.guest, false, "read-only"})
		case kindRW:
			uses = append(uses, hostUse{pm.host, pm.guest, true, "read-write"})
		case kindCOW:
			uses = append(uses, hostUse{pm.host, pm.guest, false, "copy-on-write"})
			if pm.upper != "" {
				uses = append(uses, hostUse{pm.upper, pm.guest, true, "copy-on-write upper"})
			}
		case kindOutput:
			if pm.host != "" {
				uses = append(uses, hostUse{pm.host, pm.guest, true, "output"})
			}
		}
	}
	for i, a := range uses {
		for j, b := range uses {
			if i == j || !a.writable {
				continue
			}
			if within(a.dir, b.dir) || within(b.dir, a.dir) {
				return nil, fmt.Errorf("host folder %s (%s, %s) overlaps %s (%s, %s): writes through %s would change what %s shows",
					a.dir, a.what, a.guest, b.dir, b.what, b.guest, a.guest, b.guest)
			}
		}
	}
	return out, nil
}
