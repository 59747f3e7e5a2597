package fsbridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// Symbolic links in host folders.
//
// A host folder (read-write, /output, a copy-on-write mount's lower and
// upper folders) is also seen by programs on the host, which follow links
// with the host's rules: a link there that resolves outside the folder
// would hand them any host file. Checking a link's text when it is made
// cannot hold (a rename moves it, a link can lead through another link),
// so the rule is structural: the guest never adds a link to a host folder
// and never moves or copies one that is there.
//
//   - symlink in a host folder is refused (EPERM);
//   - a hard link of a symbolic link (which would copy the link) is refused;
//   - a rename whose source is a symbolic link, or a folder with a symbolic
//     link anywhere below it, is refused;
//   - copy-on-write copy-up and CopyToSandbox copy what a link points to,
//     never the link.
//
// So every link in a host folder is one the operator (or a host program)
// put there, at the path and with the text they gave it; the guest can
// only delete it. The guest itself never follows any link out of a mount:
// os.Root refuses it (see rootBackend).

// hostLinkAdvice is what a refusal suggests instead of a link.
const hostLinkAdvice = "copy the file or folder instead (shutil.copy2, shutil.copytree)"

// symlinkInHostFolder is the refusal of a symbolic link in the host folder
// of mount m.
func symlinkInHostFolder(m *mount, link, target string) error {
	return deny2("symlink", m.gpath(link), target,
		fmt.Sprintf("is not possible: %s is a host folder, and symbolic links cannot be created in host folders (a program on the host would follow them); %s",
			m.guest, hostLinkAdvice),
		experimentalsys.EPERM, "EPERM")
}

// linkMoveErr is the refusal of a rename or hard link that would move or
// copy the symbolic link at linkRel (from is the operation's source).
func linkMoveErr(m *mount, op, from, to, linkRel string) error {
	what := "is a symbolic link"
	if linkRel != from {
		what = "contains a symbolic link (" + m.gpath(linkRel) + ")"
	}
	verb := "moved"
	if op == "link" {
		verb = "copied"
	}
	return deny2(op, m.gpath(from), m.gpath(to),
		fmt.Sprintf("is not possible: %s %s, and symbolic links in host folders cannot be %s (elsewhere the link could point outside %s); %s",
			m.gpath(from), what, verb, m.guest, hostLinkAdvice),
		experimentalsys.EPERM, "EPERM")
}

// isLink reports whether fi is a symbolic link.
func isLink(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// findLink returns the first symbolic link at or below rel in be ("" if
// none), without following any link. It reads the whole subtree: renames
// of large folders pay a walk, which is the price of never moving a link.
func findLink(be backend, rel string) (string, error) {
	fi, err := be.lstat(rel)
	if err != nil {
		return "", err
	}
	if isLink(fi) {
		return rel, nil
	}
	if !fi.IsDir() {
		return "", nil
	}
	stack := []string{rel}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		infos, err := be.readDir(dir)
		if err != nil {
			return "", err
		}
		for _, fi := range infos {
			child := joinRel(dir, fi.Name())
			switch {
			case isLink(fi):
				return child, nil
			case fi.IsDir():
				stack = append(stack, child)
			}
		}
	}
	return "", nil
}

// sameFileOpened reports whether the file opened (f) is the entry that
// before was found by lstat, not something a link swapped in between led
// to. Infos without host inode numbers (the in-memory /tmp, which has no
// links) always match.
func sameFileOpened(before fs.FileInfo, f interface{ Stat() (fs.FileInfo, error) }) bool {
	if _, ok := before.Sys().(*syscall.Stat_t); !ok {
		return true
	}
	after, err := f.Stat()
	return err == nil && os.SameFile(before, after)
}

// errLinkInOutput is why an artifact is not read: it is, or lies under, a
// symbolic link (put there by a host program: the guest cannot make one).
var errLinkInOutput = errors.New("is a symbolic link or lies under one; links in /output are never followed")

// openNoFollow opens the regular file rel of be for reading without
// following any symbolic link on the way: every folder above it and the
// file itself must be real, and the file opened must be the one lstat
// found. For artifacts, which are served to whoever asks.
func openNoFollow(be backend, rel string) (afero.File, fs.FileInfo, error) {
	parts := strings.Split(rel, "/")
	for i := range parts[:len(parts)-1] {
		fi, err := be.lstat(strings.Join(parts[:i+1], "/"))
		if err != nil {
			return nil, nil, err
		}
		if !fi.IsDir() {
			return nil, nil, errLinkInOutput
		}
	}
	fi, err := be.lstat(rel)
	if err != nil {
		return nil, nil, err
	}
	if isLink(fi) {
		return nil, nil, errLinkInOutput
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errSpecial
	}
	f, err := be.open(rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	if !sameFileOpened(fi, f) {
		f.Close()
		return nil, nil, errLinkInOutput
	}
	return f, fi, nil
}
