# The sandbox user: pybox's pwd, grp and resource modules (WASI has no users
# or rlimits, so CPython for WASI builds none) and the USER/LOGNAME it sets,
# as code that looks up its user or its resource usage meets them.
import getpass
import grp
import io
import os
import pathlib
import pwd
import resource
import tarfile

print("getuser", getpass.getuser())
u = pwd.getpwuid(0)
print("pwd", u.pw_name, u.pw_uid, u.pw_gid, u.pw_dir, u == pwd.getpwnam("user"), len(pwd.getpwall()), u[0])
try:
    pwd.getpwuid(1000)
except KeyError as e:
    print("pwd unknown uid", e)
try:
    pwd.getpwnam("root")
except KeyError as e:
    print("pwd unknown name", e)
print("grp", grp.getgrgid(0).gr_name, grp.getgrnam("user").gr_mem, len(grp.getgrall()))

with open("/tmp/f.txt", "w") as f:
    f.write("x")
p = pathlib.Path("/tmp/f.txt")
print("owner", p.owner(), p.group())
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t:
    t.add("/tmp/f.txt", arcname="f.txt")
buf.seek(0)
m = tarfile.open(fileobj=buf).getmember("f.txt")
print("tar", m.uname, m.gname)
print("expanduser", os.path.expanduser("~"), os.path.expanduser("~user"), os.path.expanduser("~nobody"))

sum(i * i for i in range(200000))  # some CPU time to count
r = resource.getrusage(resource.RUSAGE_SELF)
print("rusage", r.ru_utime > 0, r.ru_stime, r.ru_maxrss, len(r), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime)
print("rlimit", resource.getrlimit(resource.RLIMIT_AS) == (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (10, 10))
except PermissionError as e:
    print("setrlimit refused", "set by the host" in str(e))
try:
    resource.getrlimit(99)
except ValueError as e:
    print("rlimit bad resource", e)
print("pagesize", resource.getpagesize())

# os.getuid and friends (WASI has none) answer for the same user, so the
# password-database fallback of expanduser works without $HOME.
print("ids", os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups())
home = os.environ.pop("HOME")
print("expanduser without HOME", os.path.expanduser("~"), pathlib.Path.home() == pathlib.Path(pwd.getpwuid(os.getuid()).pw_dir))
os.environ["HOME"] = home

# os.chown (none on WASI; needed once the user is uid 0): as for root it
# succeeds, and like os.chmod it records nothing. tarfile, which as root chowns
# every member it extracts before setting its mtime, extracts as natively.
import shutil
os.chown("/tmp/f.txt", 0, 0)
os.chown("/tmp/f.txt", 1000, -1)
shutil.chown("/tmp/f.txt", "user", "user")
try:
    os.chown("/tmp/missing.txt", 0, 0)
except FileNotFoundError:
    print("chown missing FileNotFoundError")
# Like any write, chown is refused where the path is read-only (the bundle).
import errno
for f in (os.chown, os.lchown, shutil.chown):
    try:
        f(os.path.dirname(os.__file__), 0, 0)
    except OSError as e:
        print("chown read-only", e.errno == errno.EROFS, "read-only in the sandbox" in str(e))
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t:
    info = tarfile.TarInfo("owned.txt")
    info.uid = info.gid = 1000
    info.size = 2
    info.mtime = 1234567890
    t.addfile(info, io.BytesIO(b"hi"))
buf.seek(0)
with tarfile.open(fileobj=buf) as t:
    t.extractall("/tmp/x")
st = os.stat("/tmp/x/owned.txt")
print("tar extract as root", open("/tmp/x/owned.txt").read(), st.st_uid, st.st_mtime)
