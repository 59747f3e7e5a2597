"""fetch_sdist.py — download one sdist with pip's own index client, without building it.

    python3 fetch_sdist.py DEST NAME VERSION

`pip download --no-binary` prepares the sdist's metadata first, which for a
meson-python project (matplotlib, contourpy) is a full native build; for
matplotlib that build downloads FreeType and Qhull from their upstream sites,
which a build machine restricted to package registries cannot reach. This
asks pip's package finder (same index configuration as `pip download`) for the
sdist of NAME==VERSION and saves the file. The caller checks its sha256.
"""
import os
import sys

from pip._internal.commands import create_command
from pip._vendor.packaging.specifiers import SpecifierSet


def main():
    dest, name, version = sys.argv[1:4]
    cmd = create_command("download")
    options, _ = cmd.parse_args(["--no-deps", "--no-binary", ":all:", f"{name}=={version}"])
    with cmd.main_context():
        session = cmd.get_default_session(options)
        finder = cmd._build_package_finder(options, session, ignore_requires_python=True)
        best = finder.find_best_candidate(name, specifier=SpecifierSet(f"=={version}")).best_candidate
        if best is None or not best.link.filename.endswith(".tar.gz"):
            sys.exit(f"no sdist found for {name}=={version}")
        resp = session.get(best.link.url.split("#")[0])
        resp.raise_for_status()
    out = os.path.join(dest, best.link.filename)
    with open(out + ".part", "wb") as f:
        f.write(resp.content)
    os.replace(out + ".part", out)
    print(out)


if __name__ == "__main__":
    main()
