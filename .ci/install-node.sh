#!/bin/sh
# Install Debian's Node.js for the check of validator/engine/rules.js against the engine
# (tests/perft/test_rules_js.py) when it is missing. Like install-chromium.sh it never fails
# the CI: without apt-get, root or sudo, or when the install fails, it says why and exits 0;
# the test then skips with a clear reason.
set -u

say() { echo "install-node: $*"; }

if command -v node >/dev/null 2>&1; then
    say "found $(command -v node) $(node --version), nothing to do"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get is not available; the JavaScript rules test will be skipped"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        say "not root and no password-less sudo; the JavaScript rules test will be skipped"
        exit 0
    fi
fi

LIMIT=""
if command -v timeout >/dev/null 2>&1; then
    LIMIT="timeout 900"
fi

export DEBIAN_FRONTEND=noninteractive
if $LIMIT $SUDO apt-get update -q && $LIMIT $SUDO apt-get install -y -q nodejs; then
    say "installed: $(node --version 2>/dev/null || echo nodejs)"
else
    say "apt-get could not install nodejs; the JavaScript rules test will be skipped"
fi
exit 0
