#!/bin/bash
# install_servers.sh: installs the real servers, mail clients and browser the integration tests use.
#   Dovecot (IMAP + LMTP), Postfix (SMTP), PostgreSQL (server), swaks and s-nail (command-line mail),
#   Chromium and its WebDriver (the archive's browser tests drive Debian's build; nothing downloads one).
# Idempotent: installs only the Debian packages that are missing, runs 'apt-get update' at most once,
# and starts no daemon (the tests start their own throwaway instances: scripts/mailstack.sh, scripts/pgstack.sh).
# Run as root:  sudo bash scripts/install_servers.sh
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

say() { echo "install_servers: $*"; }

if [ "$(id -u)" -ne 0 ]; then
  say "must run as root (sudo bash $0)" >&2; exit 1
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

# step name: packages
steps=(
  "mail servers (Dovecot IMAP/LMTP, Postfix):dovecot-imapd dovecot-lmtpd postfix"
  "PostgreSQL server:postgresql"
  "command-line mail clients (swaks, s-nail):swaks s-nail"
  "browser (Chromium, chromedriver):chromium chromium-driver"
)

missing_all=()
for step in "${steps[@]}"; do
  name=${step%%:*}; missing=()
  for p in ${step#*:}; do installed "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -eq 0 ]; then say "$name: already installed"
  else say "$name: missing ${missing[*]}"; missing_all+=("${missing[@]}"); fi
done
if [ ${#missing_all[@]} -eq 0 ]; then say "nothing to do"; exit 0; fi

# Keep the postinst scripts from starting daemons on :25/:143/:5432 (many images ship this file already).
made_policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod 755 /usr/sbin/policy-rc.d; made_policy=1
fi
trap '[ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d; true' EXIT

# Postfix asks questions at install time: answer them up front (local only, no outside mail).
debconf-set-selections <<'SEL'
postfix postfix/main_mailer_type select Local only
postfix postfix/mailname string localhost
SEL

say "apt-get update"
apt-get update -qq
say "apt-get install ${missing_all[*]}"
log=$(mktemp)
if ! apt-get install -y -qq --no-install-recommends "${missing_all[@]}" >"$log" 2>&1; then
  tail -n 30 "$log" >&2; rm -f "$log"; say "apt-get install failed" >&2; exit 1
fi
rm -f "$log"

for p in "${missing_all[@]}"; do
  installed "$p" || { say "$p still not installed" >&2; exit 1; }
done
say "done: ${missing_all[*]} installed (no daemon started)"
