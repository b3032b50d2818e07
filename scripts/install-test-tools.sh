#!/usr/bin/env bash
# make test: the tools the tests use as independent readers and as a real browser, from Debian's
# packages, installed when missing (a fresh machine or CI): pandas for the dataset cards' typed
# reads, Chromium for the website's tests (driven by playwright-core; no browser is downloaded).
set -euo pipefail
missing=()
/usr/bin/python3 -c 'import pandas' 2>/dev/null || missing+=(python3-pandas)
command -v chromium >/dev/null || [ -n "${CHROMIUM:-}" ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "make test: ${missing[*]} missing; install them (Debian: apt-get install ${missing[*]}) as root" >&2
  exit 2
fi
echo "make test: installing ${missing[*]} (Debian) for the tests" >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
