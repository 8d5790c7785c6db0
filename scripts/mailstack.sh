#!/bin/bash
# mailstack.sh: real mail servers on loopback for integration tests, as plain background processes.
#   Postfix (SMTP, with AUTH through Dovecot) -> LMTP -> Dovecot (maildir) -> IMAP.
# Usage: mailstack.sh start|stop|stop-smtp|start-smtp|add-user DIR [NAME PASSWORD]
#   start       write Dovecot + Postfix config under DIR, start both, wait until every port answers
#   stop        stop both by the PIDs recorded under DIR
#   stop-smtp   stop Postfix alone (fault tests: the SMTP port refuses connections, IMAP goes on)
#   start-smtp  start Postfix again with the config already under DIR; queued mail is delivered
#   add-user    add a mailbox while the stack runs (Dovecot re-reads its users file; Postfix is reloaded)
# Env (optional, read by start): IMAP_PORT (31143) SMTP_PORT (31025) LMTP_PORT (31024)
#   MAIL_DOMAIN (example.test) MAIL_USERS ("gm:gmpw alice:alicepw bob:bobpw carol:carolpw")
# Needs root and the Debian packages dovecot-imapd dovecot-lmtpd postfix (scripts/install_servers.sh).
# Reads nothing from /etc/dovecot; from /etc/postfix only the packaged meta files.
# DIR must be reachable by the users dovecot, mail and postfix: use a short dir right under /tmp
# (tempfile.mkdtemp(dir="/tmp")), not pytest's tmp_path (/tmp/pytest-of-root is 0700).
set -euo pipefail
cmd=${1:?usage: mailstack.sh start|stop|stop-smtp|start-smtp|add-user DIR}
D=$(realpath -m "${2:?usage: mailstack.sh $cmd DIR}")
P=$D/postfix

alive() {  # pid: running and not a zombie (an orphan's zombie lingers until PID 1 reaps it)
  local st; st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $st != Z* ]]
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {  # port pidfile timeout_s  (pure bash /dev/tcp: no interpreter start-up cost)
  local end=$((SECONDS + $3)) pid; pid=$(cat "$2")
  until port_open "$1"; do
    alive "$pid" || { echo "$(basename "$2" .pid) (pid $pid) exited; see its log under $D" >&2; return 1; }
    [ $SECONDS -ge $end ] && { echo "port $1 not ready after $3 s" >&2; return 1; }
    sleep 0.02
  done
}

stop_pids() {  # pidfile...: TERM them all at once, then wait (Postfix's master needs ~1 s to exit)
  local pids=() f p
  for f in "$@"; do
    [ -f "$f" ] && alive "$(cat "$f")" && { kill -TERM "$(cat "$f")"; pids+=("$(cat "$f")"); }
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 200); do alive "$p" || break; sleep 0.05; done
    alive "$p" && { echo "pid $p still alive after 10 s, KILL" >&2; kill -KILL "$p"; }
  done
  rm -f "$@"
}

start_postfix() {  # needs SMTP_PORT; the config under $P already written
  if port_open "$SMTP_PORT"; then echo "port $SMTP_PORT already in use" >&2; return 1; fi
  # master -d: stay in the foreground so $! is the master PID.
  # setsid: master becomes a process-group leader, so on SIGTERM it can signal its group
  # (otherwise it logs 'fatal: master_sigdeath: kill process group: No such process').
  setsid /usr/lib/postfix/sbin/master -c "$P" -d >> "$P/stdout.log" 2>&1 &
  echo $! > "$D/postfix.pid"
  if ! wait_port "$SMTP_PORT" "$D/postfix.pid" 15; then
    tail -n 5 "$D/postfix.log" "$P/stdout.log" >&2 || true
    stop_pids "$D/postfix.pid"; return 1
  fi
}

load_env() {
  [ -f "$D/stack.env" ] || { echo "$D has no running mail stack (no stack.env): run 'start' first" >&2; exit 1; }
  # shellcheck source=/dev/null
  . "$D/stack.env"
}

case $cmd in
start)
  IMAP_PORT=${IMAP_PORT:-31143}; SMTP_PORT=${SMTP_PORT:-31025}; LMTP_PORT=${LMTP_PORT:-31024}
  DOMAIN=${MAIL_DOMAIN:-example.test}
  USERS=${MAIL_USERS:-"gm:gmpw alice:alicepw bob:bobpw carol:carolpw"}
  if [ "$(id -u)" -ne 0 ]; then echo "mailstack.sh start needs root" >&2; exit 1; fi
  for exe in dovecot /usr/lib/postfix/sbin/master; do
    command -v "$exe" >/dev/null || { echo "$exe not found: run 'sudo bash scripts/install_servers.sh'" >&2; exit 1; }
  done
  for port in "$IMAP_PORT" "$SMTP_PORT" "$LMTP_PORT"; do   # a busy port would fake readiness
    if port_open "$port"; then echo "port $port already in use" >&2; exit 1; fi
  done
  mkdir -p "$D"/dovecot "$D"/mail "$P"
  chmod 755 "$D"   # mkdtemp dirs are 0700; the dovecot, mail and postfix users must traverse it
  if ! runuser -u postfix -- test -x "$D"; then
    echo "$D is not reachable for non-root users: every parent dir needs o+x (pytest's" \
         "/tmp/pytest-of-root is 0700: use tempfile.mkdtemp(dir='/tmp'))" >&2; exit 1
  fi
  # Dovecot's unix sockets live in base_dir: sun_path is limited to 108 bytes ("File name too
  # long" for deep dirs), so fall back to a short directory when DIR is long.
  RUN=$D/dovecot/run
  [ ${#RUN} -gt 50 ] && RUN=/tmp/dovecot-run-$(printf %s "$D" | md5sum | cut -c1-10)
  cat > "$D/stack.env" <<ENV
IMAP_PORT=$IMAP_PORT
SMTP_PORT=$SMTP_PORT
LMTP_PORT=$LMTP_PORT
DOMAIN=$DOMAIN
RUN=$RUN
ENV

  # ---------------- Dovecot ----------------
  : > "$D/dovecot/users"
  for u in $USERS; do echo "${u%%:*}:{PLAIN}${u#*:}::::::" >> "$D/dovecot/users"; done
  chown root:dovecot "$D/dovecot/users"; chmod 640 "$D/dovecot/users"   # auth runs as user dovecot
  chown mail:mail "$D/mail"          # mailboxes are owned by the system user 'mail' (uid 8)
  cat > "$D/dovecot/dovecot.conf" <<CONF
# standalone config: nothing from /etc/dovecot is read
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $RUN
state_dir = $D/dovecot/state
instance_name = dovecot-test-$(basename "$D")
log_path = $D/dovecot/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
# mailboxes belong to the system user mail (uid 8); the default first_valid_uid is 500
first_valid_uid = 8
mail_fsync = never            # test data: skip fsync
# user@domain and user both log in as user
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $D/dovecot/users
}
userdb {
  driver = passwd-file
  args = username_format=%n $D/dovecot/users
  default_fields = uid=mail gid=mail home=$D/mail/%n
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \Sent
    auto = create
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
# SMTP AUTH for Postfix (smtpd_sasl_type = dovecot): same users and passwords as IMAP
service auth {
  unix_listener auth-postfix {
    mode = 0666
  }
}
protocol lmtp {
  postmaster_address = postmaster@$DOMAIN
}
CONF
  # -F = foreground, so $! is the master PID
  dovecot -F -c "$D/dovecot/dovecot.conf" >> "$D/dovecot/stdout.log" 2>&1 &
  echo $! > "$D/dovecot.pid"

  # ---------------- Postfix ----------------
  cat > "$P/main.cf" <<CONF
compatibility_level = 3.6
# spool/data must NOT be inside the config dir (postfix-script check-warn then warns about ownership)
queue_directory = $D/postfix-spool
data_directory = $D/postfix-data
maillog_file = $D/postfix.log
# default prefixes are /var and /dev/stdout; without this 'postfix check' dies (silently, no tty)
maillog_file_prefixes = $D
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = \$mydomain
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
# AUTH is offered (clients configured with a user and password work) but not required
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $RUN/auth-postfix
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
virtual_mailbox_domains = $DOMAIN
# known mailboxes: unknown ones are refused at RCPT time (550 5.1.1) instead of
# accepted and bounced later. texthash: needs no postmap; re-read on 'postfix reload'.
virtual_mailbox_maps = texthash:$P/vmailboxes
virtual_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
alias_maps =
alias_database =
local_recipient_maps =
relayhost =
default_transport = error:outside mail is disabled in tests
relay_transport = error:outside mail is disabled in tests
smtputf8_enable = no
biff = no
# deliver immediately, no back-off games in tests
in_flow_delay = 0
# a restarted Postfix retries deferred mail soon (fault tests stop and start it)
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
CONF
  : > "$P/vmailboxes"
  for u in $USERS; do echo "${u%%:*}@$DOMAIN ok" >> "$P/vmailboxes"; done
  cat > "$P/master.cf" <<CONF
# service type  private unpriv  chroot  wakeup  maxproc command
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
CONF
  # Queue layout that 'postfix -c "$P" check' would create (that works too, but costs 1-3 s):
  S=$D/postfix-spool
  install -d -o root    -g root     -m 0755 "$S" "$S/pid"
  for q in active bounce corrupt defer deferred flush hold incoming private saved trace; do
    install -d -o postfix -g root -m 0700 "$S/$q"
  done
  install -d -o postfix -g postdrop -m 0730 "$S/maildrop"
  install -d -o postfix -g postdrop -m 0710 "$S/public"
  install -d -o postfix -g root     -m 0700 "$D/postfix-data"
  # Postfix refuses to trust a config file modified in the current second and re-reads
  # it every 300 ms for up to ~2 s: backdate the files we just wrote.
  touch -d '-1 min' "$P/main.cf" "$P/master.cf" "$P/vmailboxes"

  if ! { wait_port "$IMAP_PORT" "$D/dovecot.pid" 15 && wait_port "$LMTP_PORT" "$D/dovecot.pid" 15 &&
         start_postfix; }; then
    tail -n 5 "$D/dovecot/dovecot.log" "$D/dovecot/stdout.log" >&2 || true
    stop_pids "$D/postfix.pid" "$D/dovecot.pid"; exit 1
  fi
  echo "ready: imap=127.0.0.1:$IMAP_PORT smtp=127.0.0.1:$SMTP_PORT lmtp=127.0.0.1:$LMTP_PORT domain=$DOMAIN"
  ;;
stop)
  stop_pids "$D/postfix.pid" "$D/dovecot.pid"
  if [ -f "$D/stack.env" ]; then
    load_env
    if [[ $RUN == /tmp/dovecot-run-* ]]; then rm -rf "$RUN"; fi
  fi
  ;;
stop-smtp)
  load_env
  stop_pids "$D/postfix.pid"
  ;;
start-smtp)
  load_env
  if [ -f "$D/postfix.pid" ] && alive "$(cat "$D/postfix.pid")"; then exit 0; fi   # already running
  start_postfix
  ;;
add-user)
  load_env
  name=${3:?usage: mailstack.sh add-user DIR NAME PASSWORD}; pw=${4:?usage: mailstack.sh add-user DIR NAME PASSWORD}
  echo "$name:{PLAIN}$pw::::::" >> "$D/dovecot/users"
  # Dovecot re-reads the users file on its own, but at most once a second: a lookup earlier in the
  # same second would hide the new user, so reload (HUP) and wait until the user resolves.
  kill -HUP "$(cat "$D/dovecot.pid")"
  for _ in $(seq 250); do
    doveadm -c "$D/dovecot/dovecot.conf" user "$name" >/dev/null 2>&1 && break; sleep 0.02
  done
  doveadm -c "$D/dovecot/dovecot.conf" user "$name" >/dev/null || { echo "dovecot does not know $name" >&2; exit 1; }
  echo "$name@$DOMAIN ok" >> "$P/vmailboxes"
  # backdated, or Postfix waits ~2 s before it trusts the changed map
  touch -d '-1 min' "$P/vmailboxes"
  if [ -f "$D/postfix.pid" ] && alive "$(cat "$D/postfix.pid")"; then kill -HUP "$(cat "$D/postfix.pid")"; fi
  ;;
*)
  echo "unknown command $cmd: use start|stop|stop-smtp|start-smtp|add-user" >&2; exit 2
  ;;
esac
