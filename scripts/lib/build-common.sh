# build-common.sh — helpers shared by the package build scripts
# (scripts/build-*.sh); sourced, not run.
#
#   log MESSAGE...      a step heading on stderr
#   sha FILE            FILE's sha256, hex
#   check_sha FILE HEX  exits with a message unless FILE's sha256 is HEX

log() { printf '\n=== %s\n' "$*" >&2; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
check_sha() {
  local got; got=$(sha "$1")
  if [ "$got" != "$2" ]; then
    echo "checksum mismatch for $1: got $got, want $2" >&2
    echo "the source changed: review it, then update the pin in $0" >&2
    exit 1
  fi
}
