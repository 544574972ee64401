#!/bin/sh
# Runs a command with a real, unlocked Secret Service: gnome-keyring's "login" collection on the
# current D-Bus session. Run it under `dbus-run-session -- sh with-secret-service.sh CMD…`: the
# bus, and gnome-keyring with it, end when CMD does.
#
# `--unlock` reads the password from stdin and creates the login keyring with it when there is
# none, without any prompt. The keyring file lives in $XDG_DATA_HOME/keyrings, so a later
# session with the same directory and password opens what an earlier one stored.
set -eu
printf '%s' "${SMM_TEST_KEYRING_PASSWORD:-smm-test}" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
exec "$@"
