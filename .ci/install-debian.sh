#!/bin/sh
# Install a Debian package that some tests need, when none of its commands is there:
#   sh .ci/install-debian.sh "COMMAND..." PACKAGE "WHAT NEEDS IT"
# .ci/run installs chromium (the browser tests), nodejs (the check of
# validator/engine/rules.js against the engine) and dovecot-imapd (the IMAP tests) with it.
# It never fails by itself: without apt-get, root or password-less sudo, or when the install
# fails, it says why and exits 0; the tests that need the package then say so (the browser
# tests skip; the IMAP tests fail, naming this script).
set -u

commands=$1 package=$2 what=$3

say() { echo "install-$package: $*"; }

for candidate in $commands; do
    if command -v "$candidate" >/dev/null 2>&1; then
        say "found $(command -v "$candidate"), nothing to do"
        exit 0
    fi
done

if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get is not available; $what cannot run"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        say "not root and no password-less sudo; $what cannot run"
        exit 0
    fi
fi

# A hung mirror must not hold the CI forever.
LIMIT=""
if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout 900"
fi

export DEBIAN_FRONTEND=noninteractive
if $LIMIT $SUDO apt-get update -q && $LIMIT $SUDO apt-get install -y -q "$package"; then
    say "installed"
else
    say "apt-get could not install $package; $what cannot run"
fi
exit 0
