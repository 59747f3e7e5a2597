package fsbridge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Artifact is a file the guest created or changed in /output during a run.
type Artifact struct {
	// Path is the guest path, e.g. "/output/ip.txt".
	Path string
	// Size is the file's size in bytes.
	Size int64
	// MIME is the media type, from the extension, or from the content
	// (net/http.DetectContentType) when the extension is unknown, e.g.
	// "image/png" or "text/plain; charset=utf-8".
	MIME string
	// SHA256 is the hex digest of the content. It is empty for a file
	// left unhashed because the run's artifacts were bigger in total than
	// the bytes the run could write (see Sandbox.Artifacts).
	SHA256 string
	// HostPath is where the file is on the host. With a temporary /output
	// it lives until Sandbox.Close.
	HostPath string
}

// fileMeta is what the /output snapshot keeps per file.
type fileMeta struct {
	size  int64
	mtime int64
	ino   uint64
	mode  fs.FileMode
}

func (s *Sandbox) outputBackend() *rootBackend {
	if s.output == nil {
		return nil
	}
	return s.output.ops.(*plainMount).be.(*rootBackend)
}

// walkOutput calls fn for every regular file under /output (symbolic links
// are not followed and not reported).
func (s *Sandbox) walkOutput(fn func(rel string, fi fs.FileInfo) error) error {
	be := s.outputBackend()
	if be == nil {
		return nil
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		infos, err := be.readDir(dir)
		if err != nil {
			return err
		}
		for _, fi := range infos {
			rel := joinRel(dir, fi.Name())
			switch {
			case fi.IsDir():
				if err := walk(rel); err != nil {
					return err
				}
			case fi.Mode().IsRegular():
				if err := fn(rel, fi); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(".")
}

func metaOf(be backend, rel string, fi fs.FileInfo) fileMeta {
	st := be.statT(rel, fi)
	return fileMeta{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ino: st.Ino, mode: fi.Mode()}
}

func (s *Sandbox) snapshotOutput() (map[string]fileMeta, error) {
	snap := map[string]fileMeta{}
	be := s.outputBackend()
	err := s.walkOutput(func(rel string, fi fs.FileInfo) error {
		snap[rel] = metaOf(be, rel, fi)
		return nil
	})
	return snap, err
}

// Artifacts returns the files under /output that were created or changed
// since BeginRun (all of them if BeginRun was never called), sorted by
// path. A file counts as changed if the guest opened it for writing, or
// its size, modification time, inode or mode differ from the snapshot.
// Files deleted during the run are not reported.
//
// The work is bounded by what the run could write: the files are hashed
// until their total size reaches the bytes-written limit (Limits.WriteBytes);
// files past it are reported with their size and media type and an empty
// SHA256. (A run grows files by at most that much, holes included, so only
// files it renamed or merely touched can go past it.)
func (s *Sandbox) Artifacts() ([]Artifact, error) { return s.runRec.artifacts() }

// artifacts is Artifacts for run r. For a Run (StartRun), a changed file
// that r did not write but another run may have been writing while r ran
// (that run was under way after r began) is that run's, not r's; the
// Sandbox's own Artifacts lists every change.
func (r *runRec) artifacts() ([]Artifact, error) {
	s := r.Sandbox
	be := s.outputBackend()
	if be == nil {
		return nil, nil
	}
	r.rmu.Lock()
	snap := r.outSnap
	r.rmu.Unlock()
	// Whose a file is, is decided when the walk finds it: a writer marks
	// a file before it appears (sandboxFS.OpenFile), so a file found is
	// never without its writer's mark, which a look at the marks before
	// the walk could miss.
	byOther := func(rel string) (other, dirty bool) {
		r.rmu.Lock()
		dirty = r.outDirty[rel]
		r.rmu.Unlock()
		if r == s.runRec || dirty {
			return false, dirty
		}
		s.mu.Lock()
		m, ok := s.marks[rel]
		other = ok && m.r != r && m.wroteDuring(r)
		s.mu.Unlock()
		return other, dirty
	}
	var out []Artifact
	budget := s.limits.WriteBytes // < 0: no limit
	err := s.walkOutput(func(rel string, fi fs.FileInfo) error {
		other, dirty := byOther(rel)
		old, seen := snap[rel]
		if other || seen && !dirty && old == metaOf(be, rel, fi) {
			return nil
		}
		hash := budget < 0 || fi.Size() <= budget
		if hash && budget >= 0 {
			budget -= fi.Size()
		}
		a, err := s.artifact(be, rel, hash)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted meanwhile
		}
		if err != nil {
			return err
		}
		out = append(out, a)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// artifact describes one file; with hash, it reads the file whole to hash
// it (never more than its size when opened), else only its first bytes.
func (s *Sandbox) artifact(be *rootBackend, rel string, hash bool) (Artifact, error) {
	f, fi, err := openNoFollow(be, rel)
	if err != nil {
		return Artifact{}, err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	a := Artifact{
		Path:     s.output.gpath(rel),
		Size:     fi.Size(),
		MIME:     DetectMIME(rel, head),
		HostPath: filepath.Join(s.output.host, filepath.FromSlash(rel)),
	}
	if !hash {
		return a, nil
	}
	h := sha256.New()
	h.Write(head)
	size, err := io.Copy(h, io.LimitReader(f, max(0, fi.Size()-int64(n))))
	if err != nil {
		return Artifact{}, err
	}
	a.Size, a.SHA256 = size+int64(n), hex.EncodeToString(h.Sum(nil))
	return a, nil
}

// ReadArtifact returns the content of a file under /output, by guest path
// (e.g. Artifact.Path). It opens the file as OpenArtifact does. It holds the
// whole file in memory: to send a file on, use OpenArtifact and stream it.
func (s *Sandbox) ReadArtifact(guestPath string) ([]byte, error) {
	f, _, err := s.OpenArtifact(guestPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ArtifactFile is an artifact opened for reading (OpenArtifact): it can be
// read, read at offsets and seeked, as http.ServeContent needs.
type ArtifactFile interface {
	io.ReadSeekCloser
	io.ReaderAt
}

// OpenArtifact opens a regular file under /output for reading, by guest path
// (e.g. Artifact.Path), and returns it with its info, for streaming it on
// (http.ServeContent). It follows no symbolic link, in the path or at its
// end: every component is checked not to be one, and the opened file must
// be the one checked; the open itself goes through the folder's os.Root, so
// nothing can lead it out of /output. The caller closes the file.
func (s *Sandbox) OpenArtifact(guestPath string) (ArtifactFile, fs.FileInfo, error) {
	be := s.outputBackend()
	if be == nil {
		return nil, nil, errors.New("this sandbox has no /output")
	}
	g := guestAbs(guestPath)
	m, rel := s.mountFor(g)
	if m != s.output || rel == "." {
		return nil, nil, &Denial{Op: "read", Path: g, Reason: "is not a file under " + s.output.guest,
			Message: "read denied: " + g + " is not a file under " + s.output.guest, Errno: "EACCES"}
	}
	f, fi, err := openNoFollow(be, rel)
	if errors.Is(err, errLinkInOutput) {
		return nil, nil, &Denial{Op: "read", Path: g, Reason: errLinkInOutput.Error(),
			Message: "read denied: " + g + " " + errLinkInOutput.Error(), Errno: "ELOOP"}
	}
	if err != nil {
		return nil, nil, err
	}
	return f, fi, nil
}

// mimeByExt is a fixed table, so results do not depend on the host's
// /etc/mime.types.
var mimeByExt = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".bmp": "image/bmp", ".svg": "image/svg+xml", ".ico": "image/x-icon",
	".tif": "image/tiff", ".tiff": "image/tiff",
	".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8", ".log": "text/plain; charset=utf-8",
	".csv": "text/csv; charset=utf-8", ".tsv": "text/tab-separated-values; charset=utf-8",
	".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
	".json": "application/json", ".jsonl": "application/jsonl", ".ndjson": "application/x-ndjson",
	".xml": "application/xml", ".yaml": "application/yaml", ".yml": "application/yaml", ".toml": "application/toml",
	".py": "text/x-python; charset=utf-8", ".js": "text/javascript; charset=utf-8",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip", ".tar": "application/x-tar",
	".xlsx":    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".docx":    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".pptx":    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".parquet": "application/vnd.apache.parquet", ".sqlite": "application/vnd.sqlite3", ".db": "application/vnd.sqlite3",
	".npy": "application/octet-stream", ".bin": "application/octet-stream",
	".wav": "audio/wav", ".mp3": "audio/mpeg", ".mp4": "video/mp4",
}

// DetectMIME returns the media type of a file from its name and its first
// bytes (up to 512). A known extension wins, except that content sniffed
// as an image, PDF or archive overrides a text or unknown extension (a PNG
// saved as "chart.txt" is still an image to a multimodal model).
func DetectMIME(name string, head []byte) string {
	ext := strings.ToLower(path.Ext(name))
	sniffed := http.DetectContentType(head)
	binary := strings.HasPrefix(sniffed, "image/") || sniffed == "application/pdf" ||
		sniffed == "application/zip" || sniffed == "application/x-gzip"
	if t, ok := mimeByExt[ext]; ok {
		if binary && strings.HasPrefix(t, "text/") {
			return sniffed
		}
		return t
	}
	return sniffed
}
