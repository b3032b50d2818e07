#!/usr/bin/env bash
# make test: the tools the tests use as independent readers, from Debian's packages, installed when
# missing (a fresh machine or CI): pandas for the dataset cards' typed reads.
set -euo pipefail
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "make test: pandas for /usr/bin/python3 is missing; install python3-pandas (Debian) as root" >&2
  exit 2
fi
echo "make test: installing python3-pandas (Debian) for the dataset-card tests" >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pandas >/dev/null
