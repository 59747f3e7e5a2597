// Package fsbridge is the only code that decides what the guest may touch.
//
// The guest (CPython on WASI, run by package runtime) sees one filesystem
// at "/": the experimental/sys.FS returned by Sandbox.FS. Every path the
// guest opens, lists, creates, renames or deletes arrives here, is routed
// to one mount, and is checked against the operator's Policy:
//
//   - read-only host folders (ReadOnly): reads only, changes fail with EROFS;
//   - read-write host folders (ReadWrite): the guest's work folders;
//   - copy-on-write host folders (CopyOnWrite): reads fall through to the
//     host folder, every change lands in an upper folder; deletions are
//     whiteouts; the host folder is never written;
//   - /output: writable; what a run creates or changes there comes back as
//     Artifacts;
//   - /tmp: in memory, private, gone with the Sandbox; file content is
//     stored sparsely (4 KiB chunks where the guest wrote, holes cost
//     nothing) and counted;
//   - virtual folders (VirtualMount, e.g. /network): reading a file calls
//     the operator's Fetcher (HTTPFetcher: an allowlist of URLs) — the
//     guest's only network;
//   - /dev: null, zero, random and urandom, made in the host process
//     (devices.go; none reaches a host device); other names under /dev are
//     missing (ENOENT, not a refusal), as on a machine without that node;
//   - everything else does not exist for the guest, and any attempt to use
//     it is refused.
//
// Every refusal is recorded as a Denial whose message names the path and
// the reason ("write denied: /etc/hosts is outside writable mounts (/work,
// /output, /tmp)"); Sandbox.Explain gives the runtime the message for the
// path of a failed call, so that the Python exception can carry it.
// Writes are bounded by Limits (bytes per run, files per run, file size,
// open files), counted as what they cost the host, not as what the guest
// asked: growing a host file counts its holes (the host reads them back
// after the run: artifacts and change tracking hash changed files, within
// the same budget); a /tmp write counts the chunks it allocates; a
// copy-on-write copy-up counts the bytes it copies; an upload counts as it
// is written (it is held in memory until sent); every open descriptor,
// devices and folders included, takes an open-files slot; /tmp never
// holds more than one run may write.
//
// # What fsbridge must never do
//
//   - Write, create, delete, rename, chmod or touch anything in a read-only
//     host folder or in a copy-on-write mount's host folder. Read-only
//     mounts and copy-on-write lowers are reached only through a backend
//     type whose changing methods return EROFS.
//   - Resolve a path, or follow a symbolic link, to anything outside the
//     mount's host folder. Host folders are opened with os.Root, which
//     resolves each component with openat and refuses absolute links and
//     links that climb out (so a link cannot be swapped in between a check
//     and a use). Hard links and renames never cross mounts.
//   - Add, move or copy a symbolic link in a host folder, where a host
//     program would follow it (links.go): symlink there is refused, and so
//     are a hard link of a link and a rename of a link or of a folder
//     holding one; copy-up and CopyToSandbox copy a link's file, never the
//     link. /tmp has no links. Artifacts follow no link.
//   - Open special files (FIFOs, devices, sockets) from a host folder.
//   - Reveal host paths: readlink of a link that points outside its mount
//     is refused; messages name guest paths only. CopyToSandbox, whose
//     caller may be a model, echoes only the source it was given, and
//     answers a source outside every mount the same way whether or not it
//     exists (it looks at the path's text, not at the host).
//   - Reveal the operator's URLs: a failed fetch tells the guest the route
//     and the HTTP status or a generic network reason (FetchError.Error);
//     the URL, which may hold a key in its query, goes only to
//     HTTPFetcher.Logger (FetchError.Detail).
//   - Reach the network other than through a Fetcher the operator
//     registered; HTTPFetcher only fetches its allowlisted URLs, with a
//     timeout and a size cap, and follows redirects only on the same host.
//
// # Errors the guest sees
//
// wazero v1.12 can carry only some errno values to the guest (see
// ErrnoFor). Reading outside every mount is ENOENT (FileNotFoundError:
// nothing exists there in the sandbox, whatever the host has; the message
// says why), which code probing for optional files expects; writing there
// is EACCES (PermissionError); changes on a read-only mount EROFS; renames and hard links across mounts
// EPERM (they would be EXDEV; shutil.move falls back to copy-and-delete
// either way); limits (EFBIG, EDQUOT, EMFILE) and fetch timeouts
// (ETIMEDOUT) reach the guest as EIO. Denial.Errno keeps the ideal name so
// the runtime can restore it. A fetcher's "not found" is ENOENT
// (FileNotFoundError) and "forbidden" EACCES.
//
// A mount point itself cannot be removed, moved or replaced (EPERM, with
// the reason); seeking to a negative or overflowing offset is EINVAL on
// every file. A refusal of a name relative to a folder descriptor
// (dir_fd) is explained with the path the operation really used.
//
// Looking is not refusing: stat of a path outside every mount is a quiet
// ENOENT (the import system and os.path.exists look at many paths), while
// opening it is a recorded denial.
//
// # Where behaviour differs from a POSIX filesystem
//
//   - WASI has no chmod and reports no permission bits: os.chmod is a no-op
//     in the guest and st_mode has only the file type. Copy-up still keeps
//     the host file's mode in the upper folder (plus owner write).
//   - Copy-on-write: opening a lower file for writing copies it up first; a
//     descriptor opened earlier for reading keeps seeing the lower file.
//     Renaming a folder copies its whole merged tree up. A lower symbolic
//     link is copied up as the file it points to when written through.
//     Whiteouts are stored in the upper folder in .pybox-cow.json, which the
//     guest cannot see.
//   - /tmp has no symbolic or hard links (ENOTSUP); host folders take no
//     new symbolic links (EPERM), and a folder holding one cannot be
//     renamed (copy it instead).
//   - Virtual files are fetched when opened, and when stat'ed (kept two
//     seconds for the open that follows); writes are uploaded when the file
//     is closed. The guest waits while the fetcher runs, which no
//     KeyboardInterrupt can cut short: a fetch is bounded by its own timeout
//     and by the context given to BeginRun (cancel it to abort the fetch).
//   - Folder listings are read when first read and after a rewind, not
//     live.
package fsbridge
