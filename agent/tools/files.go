package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/pybox-dev/pybox/fsbridge"
)

// Bounds of the file tools, chosen so one answer fits comfortably in a
// model's context.
const (
	defaultReadLines = 250     // lines read_file returns when no limit is given
	maxReadLines     = 2000    // largest limit read_file accepts
	maxLineChars     = 2000    // longer lines are cut with a marker
	maxReadBytes     = 8 << 20 // read_file and describe read at most this much
	maxListEntries   = 500     // ls lists at most this many entries
	maxWriteBytes    = 8 << 20 // write_file content cap
)

// guestPath makes a model-supplied path absolute and clean. Relative paths
// are taken from "/", the interpreter's working folder.
func guestPath(p string) string {
	p = strings.TrimSpace(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return path.Clean(p)
}

// fsError explains a failed filesystem operation on p to the model: the
// sandbox's reason when it refused, else what the errno means.
func (b *Box) fsError(tool, op, p string, errno experimentalsys.Errno) *Result {
	if reason, ok := b.sb.Explain(p); ok {
		return errorResult("%s: %s", tool, reason)
	}
	switch errno {
	case experimentalsys.ENOENT:
		return errorResult("%s: %s does not exist. Call ls on its folder to see what is there.", tool, p)
	case experimentalsys.EISDIR:
		return errorResult("%s: %s is a folder, not a file. Call ls to list it.", tool, p)
	case experimentalsys.ENOTDIR:
		return errorResult("%s: %s is a file, not a folder (or a part of its path is a file).", tool, p)
	case experimentalsys.EROFS:
		return errorResult("%s: cannot %s %s: it is on a read-only mount. Write under /output or /tmp instead.", tool, op, p)
	case experimentalsys.EACCES, experimentalsys.EPERM:
		return errorResult("%s: %s %s is not allowed in this sandbox.", tool, op, p)
	}
	return errorResult("%s: cannot %s %s: %v.", tool, op, p, errno)
}

// readGuestFile reads up to max bytes of a sandbox file. It returns the data,
// whether the file was longer, and a model-facing error result.
func (b *Box) readGuestFile(tool, p string, max int64) ([]byte, bool, *Result) {
	f, errno := b.sb.FS().OpenFile(p, experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		return nil, false, b.fsError(tool, "read", p, errno)
	}
	defer f.Close()
	if st, errno := f.Stat(); errno == 0 && st.Mode.IsDir() {
		return nil, false, b.fsError(tool, "read", p, experimentalsys.EISDIR)
	}
	var buf bytes.Buffer
	chunk := make([]byte, 64<<10)
	for int64(buf.Len()) <= max {
		n, errno := f.Read(chunk)
		buf.Write(chunk[:n])
		if errno != 0 {
			return nil, false, b.fsError(tool, "read", p, errno)
		}
		if n == 0 {
			break
		}
	}
	data := buf.Bytes()
	if int64(len(data)) > max {
		return data[:max], true, nil
	}
	return data, false, nil
}

// --- copy_to_sandbox ---

func (b *Box) copyTool() Tool {
	return Tool{
		Name: "copy_to_sandbox",
		Description: "Copy a file or folder to a writable place in the sandbox, so that code can change the copy: " +
			"source is any sandbox path you can read (e.g. a file in a read-only folder such as /data); destination is a writable path " +
			"(/output, /tmp or a read-write folder). If destination is a folder or ends with '/', the copy goes inside it. ls / shows the folders.",
		Parameters: schema([]string{"source", "destination"},
			prop("source", "string", "Sandbox path of the file or folder to copy, e.g. /data/sales.csv."),
			prop("destination", "string", "Writable sandbox path to copy to, e.g. /tmp/ or /output/sales.csv."),
		),
		Handle: b.copyToSandbox,
	}
}

func (b *Box) copyToSandbox(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var a struct {
		Source      string `json:"source"`
		Destination string `json:"destination"`
	}
	if r := decodeArgs("copy_to_sandbox", raw, &a, `{"source": "/data/sales.csv", "destination": "/tmp/"}`); r != nil {
		return r, nil
	}
	if a.Source == "" || a.Destination == "" {
		return errorResult(`copy_to_sandbox: both "source" (a sandbox path such as /data/sales.csv) and "destination" (a writable sandbox path such as /tmp/) are required.`), nil
	}
	if err := b.lock(); err != nil {
		return nil, err
	}
	defer b.mu.RUnlock()
	if err := b.sb.BeginRun(ctx); err != nil {
		return nil, fmt.Errorf("copy_to_sandbox: %w", err)
	}
	src := guestPath(a.Source)
	dst, err := b.sb.CopyInSandbox(src, guestPath(a.Destination))
	if err != nil {
		return errorResult("copy_to_sandbox: %v. Paths are sandbox paths: ls / shows the folders.", err), nil
	}
	return &Result{
		Content:    []Content{{Type: ContentText, Text: fmt.Sprintf("copied %s to %s", src, dst)}},
		Structured: map[string]string{"path": dst},
	}, nil
}

// --- ls ---

// Entry is one ls entry (in Result.Structured of ls).
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type"` // "file", "folder", "link", "other"
	Size int64  `json:"size"`
}

func (b *Box) lsTool() Tool {
	return Tool{
		Name:        "ls",
		Description: "List a folder of the sandbox filesystem: names, types and sizes. Folders end with '/'. Start with ls / to see the mounts (/output for results, /tmp for scratch, /help for manuals, plus the operator's folders).",
		Parameters:  schema(nil, prop("path", "string", "Sandbox folder to list (default /).")),
		Handle:      b.ls,
	}
}

func (b *Box) ls(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var a struct {
		Path string `json:"path"`
	}
	if r := decodeArgs("ls", raw, &a, `{"path": "/output"}`); r != nil {
		return r, nil
	}
	p := guestPath(a.Path)
	if err := b.lock(); err != nil {
		return nil, err
	}
	defer b.mu.RUnlock()
	if err := b.sb.BeginRun(ctx); err != nil {
		return nil, fmt.Errorf("ls: %w", err)
	}
	fsys := b.sb.FS()
	st, errno := fsys.Stat(p)
	if errno != 0 {
		return b.fsError("ls", "list", p, errno), nil
	}
	if !st.Mode.IsDir() {
		return textResult(fmt.Sprintf("%s is a file (%s). Use read_file to read it.", p, humanSize(st.Size))), nil
	}
	d, errno := fsys.OpenFile(p, experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	if errno != 0 {
		return b.fsError("ls", "list", p, errno), nil
	}
	dirents, errno := d.Readdir(-1)
	d.Close()
	if errno != 0 {
		return b.fsError("ls", "list", p, errno), nil
	}
	sort.Slice(dirents, func(i, j int) bool { return dirents[i].Name < dirents[j].Name })
	entries := []Entry{} // an empty folder lists as [], not null
	var t strings.Builder
	fmt.Fprintf(&t, "%s:\n", p)
	for i, de := range dirents {
		if de.Name == "." || de.Name == ".." {
			continue
		}
		if i >= maxListEntries {
			fmt.Fprintf(&t, "... and %d more (list with Python, e.g. os.listdir, to see all)\n", len(dirents)-i)
			break
		}
		e := Entry{Name: de.Name, Type: "other"}
		est, errno := fsys.Lstat(path.Join(p, de.Name))
		mode := de.Type
		if errno == 0 {
			mode = est.Mode
			e.Size = est.Size
		}
		switch {
		case mode.IsDir():
			e.Type = "folder"
			fmt.Fprintf(&t, "%s/\n", de.Name)
		case mode&fs.ModeSymlink != 0:
			e.Type = "link"
			fmt.Fprintf(&t, "%s (link)\n", de.Name)
		case mode.IsRegular():
			e.Type = "file"
			fmt.Fprintf(&t, "%s  %s\n", de.Name, humanSize(e.Size))
		default:
			fmt.Fprintf(&t, "%s (special)\n", de.Name)
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		t.WriteString("(empty)\n")
	}
	return &Result{Content: []Content{{Type: ContentText, Text: strings.TrimRight(t.String(), "\n")}},
		Structured: map[string]any{"path": p, "entries": entries}}, nil
}

// --- read_file ---

func (b *Box) readFileTool() Tool {
	return Tool{
		Name: "read_file",
		Description: fmt.Sprintf("Read a text file of the sandbox with numbered lines. offset is the first line (1-based, default 1), limit how many lines (default %d, at most %d). "+
			"Lines longer than %d characters are cut. For big files read a part at a time; for binary files use execute_python (or describe for images).",
			defaultReadLines, maxReadLines, maxLineChars),
		Parameters: schema([]string{"path"},
			prop("path", "string", "Sandbox path of the file, e.g. /output/report.md."),
			prop("offset", "integer", "First line to show, 1-based (default 1)."),
			prop("limit", "integer", fmt.Sprintf("Number of lines to show (default %d, at most %d).", defaultReadLines, maxReadLines)),
		),
		Handle: b.readFile,
	}
}

func (b *Box) readFile(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var a struct {
		Path   string `json:"path"`
		Offset *int   `json:"offset"`
		Limit  *int   `json:"limit"`
	}
	if r := decodeArgs("read_file", raw, &a, `{"path": "/output/report.md", "offset": 1, "limit": 100}`); r != nil {
		return r, nil
	}
	if strings.TrimSpace(a.Path) == "" {
		return errorResult(`read_file: "path" is required, e.g. {"path": "/output/report.md"}.`), nil
	}
	offset, limit := 1, defaultReadLines
	if a.Offset != nil && *a.Offset != 0 { // 0: not given (strict-mode callers send every argument)
		if *a.Offset < 1 {
			return errorResult("read_file: offset is a 1-based line number; %d is not valid. Use 1 for the start of the file.", *a.Offset), nil
		}
		offset = *a.Offset
	}
	if a.Limit != nil && *a.Limit != 0 {
		if *a.Limit < 1 {
			return errorResult("read_file: limit must be at least 1, or 0 for the default (got %d).", *a.Limit), nil
		}
		limit = min(*a.Limit, maxReadLines)
	}
	p := guestPath(a.Path)
	if err := b.lock(); err != nil {
		return nil, err
	}
	defer b.mu.RUnlock()
	if err := b.sb.BeginRun(ctx); err != nil {
		return nil, fmt.Errorf("read_file: %w", err)
	}
	data, cut, r := b.readGuestFile("read_file", p, maxReadBytes)
	if r != nil {
		return r, nil
	}
	if isBinary(data) {
		return errorResult("read_file: %s looks like a binary file (%s, %s). Use describe for images, or execute_python to inspect it.",
			p, fsbridge.DetectMIME(p, data), humanSize(int64(len(data)))), nil
	}
	text, total := numberLines(string(data), offset, limit)
	if total == 0 {
		return textResult(fmt.Sprintf("%s is empty.", p)), nil
	}
	if offset > total {
		return errorResult("read_file: %s has %d lines; offset %d is past the end.", p, total, offset), nil
	}
	last := min(offset+limit-1, total)
	var footer string
	switch {
	case last < total:
		footer = fmt.Sprintf("(lines %d-%d of %d; call read_file with offset=%d for more)", offset, last, total, last+1)
	case cut:
		footer = fmt.Sprintf("(lines %d-%d; the file is larger than %s and was read only that far — use execute_python for the rest)", offset, last, humanSize(maxReadBytes))
	default:
		footer = fmt.Sprintf("(lines %d-%d of %d, end of file)", offset, last, total)
	}
	return textResult(text + footer), nil
}

// numberLines returns lines [offset, offset+limit) of s numbered like
// `cat -n`, long lines cut, and the total number of lines.
func numberLines(s string, offset, limit int) (string, int) {
	if s == "" {
		return "", 0
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for i := offset - 1; i < len(lines) && i < offset-1+limit; i++ {
		line := strings.TrimRight(lines[i], "\r\n")
		if utf8.RuneCountInString(line) > maxLineChars {
			r := []rune(line)
			line = string(r[:maxLineChars]) + fmt.Sprintf(" … [line cut: %d more characters]", len(r)-maxLineChars)
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, line)
	}
	return b.String(), len(lines)
}

// isBinary guesses whether data is not text: a NUL byte, or invalid UTF-8,
// in its first 8 KiB.
func isBinary(data []byte) bool {
	head := data[:min(len(data), 8192)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// Tolerate a multi-byte character cut at the end of head.
	for i := 0; i < 3 && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}

// --- write_file ---

func (b *Box) writeFileTool() Tool {
	return Tool{
		Name: "write_file",
		Description: "Write text to a file in the sandbox, replacing it if it exists and creating missing folders. " +
			"Use it for notes, data or code you want to keep out of the conversation (then run a script with execute_python: exec(open(path).read())). " +
			"Writable places: /output (returned to the user), /tmp, and read-write mounts.",
		Parameters: schema([]string{"path", "content"},
			prop("path", "string", "Sandbox path of the file, e.g. /tmp/notes.md."),
			prop("content", "string", "The whole text of the file (UTF-8)."),
		),
		Handle: b.writeFile,
	}
}

func (b *Box) writeFile(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var a struct {
		Path    *string `json:"path"`
		Content *string `json:"content"`
	}
	if r := decodeArgs("write_file", raw, &a, `{"path": "/tmp/notes.md", "content": "..."}`); r != nil {
		return r, nil
	}
	if a.Path == nil || strings.TrimSpace(*a.Path) == "" || a.Content == nil {
		return errorResult(`write_file: both "path" and "content" are required, e.g. {"path": "/tmp/notes.md", "content": "..."}.`), nil
	}
	if len(*a.Content) > maxWriteBytes {
		return errorResult("write_file: content is %s; the limit is %s. Write big data from execute_python instead.",
			humanSize(int64(len(*a.Content))), humanSize(maxWriteBytes)), nil
	}
	p := guestPath(*a.Path)
	if p == "/" {
		return errorResult("write_file: / is a folder; give a file path such as /tmp/notes.md."), nil
	}
	if err := b.lock(); err != nil {
		return nil, err
	}
	defer b.mu.RUnlock()
	if err := b.sb.BeginRun(ctx); err != nil {
		return nil, fmt.Errorf("write_file: %w", err)
	}
	fsys := b.sb.FS()
	const flags = experimentalsys.O_WRONLY | experimentalsys.O_CREAT | experimentalsys.O_TRUNC
	f, errno := fsys.OpenFile(p, flags, 0o644)
	if errno == experimentalsys.ENOENT {
		// Create the missing parent folders, as mkdir -p would, and retry.
		var missing []string
		for d := path.Dir(p); d != "/"; d = path.Dir(d) {
			if _, errno := fsys.Stat(d); errno == 0 {
				break
			}
			missing = append(missing, d)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			if errno := fsys.Mkdir(missing[i], 0o755); errno != 0 && errno != experimentalsys.EEXIST {
				return b.fsError("write_file", "create folder", missing[i], errno), nil
			}
		}
		f, errno = fsys.OpenFile(p, flags, 0o644)
	}
	if errno != 0 {
		return b.fsError("write_file", "write", p, errno), nil
	}
	data := []byte(*a.Content)
	for len(data) > 0 {
		n, errno := f.Write(data)
		if errno != 0 {
			f.Close()
			return b.fsError("write_file", "write", p, errno), nil
		}
		data = data[n:]
	}
	if errno := f.Close(); errno != 0 {
		return b.fsError("write_file", "write", p, errno), nil
	}
	return &Result{
		Content:    []Content{{Type: ContentText, Text: fmt.Sprintf("wrote %s (%s)", p, humanSize(int64(len(*a.Content))))}},
		Structured: map[string]any{"path": p, "size": len(*a.Content)},
	}, nil
}
