package runtime

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// A persisted snapshot (Config.PersistSnapshot) is one file in the cache
// folder, snapshots/KEY, where KEY hashes everything that decides what a
// booted interpreter's memory holds (snapshotKey). The file is a header,
// padded to snapshotImageOffset, then the memory image as writeImage writes
// it (zero pages left as holes). It is written once, to a temporary file
// that is synced and renamed into place, so a reader sees a whole file or
// none, and never changed in place: processes map it while others may
// replace it.
//
// Header: snapshotMagic, then little-endian: format (uint32), key (32
// bytes), image size, stack pointer (uint64 each), the five flag addresses
// (uint32 each), resident bytes, boot time in ns (uint64 each), and a
// CRC-32C of everything before it.
const (
	snapshotMagic = "pybox-snapshot\n"
	// snapshotFormat changes whenever the file's layout, or what the host
	// does while an interpreter boots (host calls, mounts, environment),
	// changes in a way the key does not capture.
	snapshotFormat = 1
	// snapshotImageOffset is where the image starts: a multiple of every
	// page size pybox runs on, so the image can be mapped from there.
	snapshotImageOffset = 64 << 10
	snapshotHeaderLen   = len(snapshotMagic) + 4 + 32 + 8 + 8 + 5*4 + 8 + 8 + 4
)

// snapshotDirName is the folder of persisted snapshots in the cache folder.
const snapshotDirName = "snapshots"

// snapshotsKept is how many snapshot files a cache folder keeps: writing
// one removes the oldest beyond that number (those of earlier builds and
// bundles). A few configurations are in use at a time (with and without
// numpy, with and without user packages).
const snapshotsKept = 8

var snapshotCRC = crc32.MakeTable(crc32.Castagnoli)

// snapshotKey returns the key of the snapshot an engine with this
// configuration takes, or ok false if it cannot be told (a bundle whose
// checksum is unknown): such an engine does not persist its snapshot.
//
// What a booted interpreter's memory depends on: the bundle (python.wasm
// and every file the boot reads: its checksum), the runner, the command
// line and environment (guestArgs, instantiate's fixed variables; both in
// this binary, covered by snapshotFormat and the build), the preloads and
// whether the user's packages are mounted (and their folder's modification
// time, which adding or removing a package changes: a preload may come
// from there), the wazero build, and this
// build of pybox (its version control revision when it has one). Not in
// it: the mounts of a run ("/" is served per job; the preopens are always
// "/" and /usr/local), limits (set per run), anything random drawn at boot
// (the str hash seed: see docs/RATIONALE.md).
func (e *Engine) snapshotKey() (key [32]byte, ok bool) {
	if e.bundle.Checksum == "" {
		return key, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "pybox snapshot %d\nbundle %s\npython.wasm %s\nbuild %s\n", snapshotFormat, e.bundle.Checksum, e.bundle.ID, buildTag())
	fmt.Fprintf(h, "runner %x\nargs %q\npreload %q\nusersite %t %d\n", sha256.Sum256(runnerSource), guestArgs, e.preload, e.userSite != nil, e.userSiteTime.UnixNano())
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "pybox %s %s\n", bi.Main.Path, bi.Main.Version)
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") {
				fmt.Fprintf(h, "%s %s\n", s.Key, s.Value)
			}
		}
	}
	// Builds without version control information (go test, go run, a
	// tarball) are told apart by the executable file itself.
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "executable %s %d %d\n", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	h.Sum(key[:0])
	return key, true
}

// snapshotPath is where the snapshot with key is kept under cacheDir.
func snapshotPath(cacheDir string, key [32]byte) string {
	return filepath.Join(cacheDir, snapshotDirName, hex.EncodeToString(key[:16]))
}

// encodeSnapshotHeader returns s's header for key.
func encodeSnapshotHeader(s *snapshot, key [32]byte) []byte {
	b := make([]byte, 0, snapshotHeaderLen)
	b = append(b, snapshotMagic...)
	b = binary.LittleEndian.AppendUint32(b, snapshotFormat)
	b = append(b, key[:]...)
	b = binary.LittleEndian.AppendUint64(b, s.size)
	b = binary.LittleEndian.AppendUint64(b, s.sp)
	for _, f := range s.flags {
		b = binary.LittleEndian.AppendUint32(b, f)
	}
	b = binary.LittleEndian.AppendUint64(b, s.resident)
	b = binary.LittleEndian.AppendUint64(b, uint64(s.bootTime))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, snapshotCRC))
}

// decodeSnapshotHeader reads a header written by encodeSnapshotHeader for
// key into a snapshot, checking everything it can: magic, format, key,
// checksum, and that the image's size and addresses make sense.
func decodeSnapshotHeader(b []byte, key [32]byte) (*snapshot, error) {
	if len(b) < snapshotHeaderLen || !bytes.HasPrefix(b, []byte(snapshotMagic)) {
		return nil, errors.New("not a pybox snapshot")
	}
	b = b[:snapshotHeaderLen]
	if crc32.Checksum(b[:len(b)-4], snapshotCRC) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("damaged header")
	}
	p := b[len(snapshotMagic):]
	if f := binary.LittleEndian.Uint32(p); f != snapshotFormat {
		return nil, fmt.Errorf("format %d, want %d", f, snapshotFormat)
	}
	if !bytes.Equal(p[4:36], key[:]) {
		return nil, errors.New("taken for another configuration")
	}
	p = p[36:]
	s := &snapshot{size: binary.LittleEndian.Uint64(p), sp: binary.LittleEndian.Uint64(p[8:])}
	p = p[16:]
	for i := range s.flags {
		s.flags[i] = binary.LittleEndian.Uint32(p[4*i:])
	}
	p = p[4*len(s.flags):]
	s.resident = binary.LittleEndian.Uint64(p)
	s.bootTime = time.Duration(binary.LittleEndian.Uint64(p[8:]))
	if s.size == 0 || s.size%wasmPage != 0 || s.size > 1<<32 || s.sp > s.size || s.resident > s.size {
		return nil, fmt.Errorf("bad image size %d", s.size)
	}
	for _, f := range s.flags {
		if uint64(f)+4 > s.size {
			return nil, fmt.Errorf("flag address %#x outside the image", f)
		}
	}
	return s, nil
}

// loadSnapshot opens the persisted snapshot at path for key. Any error
// means there is no usable one: the caller boots and writes a new one.
func loadSnapshot(path string, key [32]byte) (*snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	hdr := make([]byte, snapshotHeaderLen)
	if _, err := f.ReadAt(hdr, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("snapshot %s: %w", path, err)
	}
	s, err := decodeSnapshotHeader(hdr, key)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("snapshot %s: %w", path, err)
	}
	// A whole file is exactly header and image: a shorter one would make
	// the guest fault on the missing pages.
	if st, err := f.Stat(); err != nil || st.Size() != snapshotImageOffset+int64(s.size) {
		f.Close()
		return nil, fmt.Errorf("snapshot %s: truncated or overlong", path)
	}
	s.file, s.offset = f, snapshotImageOffset
	return s, nil
}

// persistSnapshot writes image as the snapshot s for key at path: into a
// temporary file beside it, synced, then renamed over path. It returns the
// file, open for reading and mapping (it stays valid if another process
// later replaces path).
func persistSnapshot(path string, key [32]byte, s *snapshot, image []byte) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	if _, err := f.WriteAt(encodeSnapshotHeader(s, key), 0); err != nil {
		return fail(err)
	}
	resident, err := writeImageAt(f, image, snapshotImageOffset)
	if err != nil {
		return fail(err)
	}
	if resident != s.resident {
		return fail(errors.New("image changed while written"))
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := os.Chmod(f.Name(), 0o444); err != nil {
		return fail(err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fail(err)
	}
	pruneSnapshots(filepath.Dir(path), snapshotsKept)
	return f, nil
}

// pruneSnapshots removes the oldest files of the snapshot folder dir beyond
// the newest keep, and temporary files an interrupted write left there an
// hour ago or more. Removing a file another process has mapped is safe (its
// mapping stays valid); one that another engine was about to open makes it
// boot and write it again.
func pruneSnapshots(dir string, keep int) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, ent := range ents {
		info, err := ent.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		p := filepath.Join(dir, ent.Name())
		if strings.HasSuffix(ent.Name(), ".tmp") {
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(p)
			}
			continue
		}
		files = append(files, file{p, info.ModTime()})
	}
	if len(files) <= keep {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	for _, f := range files[keep:] {
		os.Remove(f.path)
	}
}

// SnapshotFile returns where the engine keeps its persisted snapshot
// (Config.PersistSnapshot), and false if it keeps none there (no
// PersistSnapshot, NoCache, or a bundle whose checksum is unknown). The
// file may not exist yet: the engine's first run writes it.
func (e *Engine) SnapshotFile() (string, bool) {
	if e.snapDir == "" {
		return "", false
	}
	key, ok := e.snapshotKey()
	if !ok {
		return "", false
	}
	return snapshotPath(e.snapDir, key), true
}
