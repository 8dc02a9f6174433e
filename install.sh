#!/bin/sh
# Build gatekeep from this checkout and install it.
#
#   ./install.sh                 installs to $HOME/.local/bin/gatekeep
#   PREFIX=/usr/local ./install.sh   installs to /usr/local/bin/gatekeep
#
# Needs Go (https://go.dev/dl/). Safe to run again: it rebuilds and replaces
# the binary in one rename.
set -eu

cd "$(dirname "$0")"
prefix=${PREFIX:-$HOME/.local}
bindir=$prefix/bin

if ! command -v go >/dev/null 2>&1; then
	echo "install.sh: Go is not installed or not on PATH." >&2
	echo "Install Go 1.26 or newer from https://go.dev/dl/ (or your package manager), then run ./install.sh again." >&2
	exit 1
fi

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
mkdir -p "$bindir"
tmp=$(mktemp "$bindir/.gatekeep.XXXXXX")
trap 'rm -f "$tmp"' EXIT
echo "building gatekeep $version (the first build downloads its Go modules)..." >&2
CGO_ENABLED=0 go build -trimpath \
	-ldflags "-s -w -X github.com/gatekeep/gatekeep/cmd.Version=$version" \
	-o "$tmp" .
chmod 0755 "$tmp"
mv -f "$tmp" "$bindir/gatekeep"
trap - EXIT

echo "installed $bindir/gatekeep ($("$bindir/gatekeep" version))"
case ":$PATH:" in
*":$bindir:"*) ;;
*) echo "note: $bindir is not on your PATH; add it, e.g. export PATH=\"$bindir:\$PATH\"" ;;
esac
