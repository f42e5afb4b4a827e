#!/bin/sh
# Install Debian's chromium for the browser test of `road300 report` when it is missing.
# It never fails the CI: without apt-get, root or sudo, or when the install fails, it says
# why and exits 0; tests/test_report_browser.py then skips with a clear reason.
set -u

say() { echo "install-chromium: $*"; }

for candidate in /usr/bin/chromium chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
        say "found $(command -v "$candidate"), nothing to do"
        exit 0
    fi
done

if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get is not available; the browser test will be skipped"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        say "not root and no password-less sudo; the browser test will be skipped"
        exit 0
    fi
fi

# A hung mirror must not hold the CI forever.
LIMIT=""
if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout 900"
fi

export DEBIAN_FRONTEND=noninteractive
if $LIMIT $SUDO apt-get update -q && $LIMIT $SUDO apt-get install -y -q chromium; then
    say "installed: $(chromium --version 2>/dev/null || echo chromium)"
else
    say "apt-get could not install chromium; the browser test will be skipped"
fi
exit 0
