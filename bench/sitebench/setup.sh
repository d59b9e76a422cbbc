#!/bin/sh
# setup.sh prepares what sitebench needs and installs nothing else: nginx and wget from Debian
# (only when missing), and the HTML of a Debian documentation package unpacked under bench/bin/
# (gitignored). It is idempotent: run it again and it only checks.
#
# Usage (from anywhere): sh bench/sitebench/setup.sh [PACKAGE]   (default postgresql-doc-15)
# Prints the directory that holds the package's HTML, for `sitebench -root`.
set -eu

pkg=${1:-postgresql-doc-15}
bench=$(cd "$(dirname "$0")/.." && pwd)
bin="$bench/bin"
dest="$bin/$pkg"

need=""
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need="$need nginx"
command -v wget >/dev/null 2>&1 || need="$need wget"
if [ -n "$need" ]; then
	apt-get update
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y $need
fi

if [ ! -d "$dest/usr/share/doc" ]; then
	mkdir -p "$bin/debs" "$dest"
	(cd "$bin/debs" && apt-get download "$pkg")
	deb=$(ls -t "$bin/debs/${pkg}"_*.deb | head -n 1)
	dpkg-deb -x "$deb" "$dest"
fi

# The package's HTML directory: the one holding the most .html files.
html=$(find "$dest" -name '*.html' -printf '%h\n' | sort | uniq -c | sort -rn | head -n 1 | awk '{print $2}')
if [ -z "$html" ]; then
	echo "setup.sh: no HTML found in $dest" >&2
	exit 1
fi
echo "$html"
