#!/bin/sh
# One-command install of the on-site agent as a systemd service:
#   sudo sh apps/agent/install/install-linux.sh KOD https://panel.example.com
# Needs Node.js 20+ on PATH and this repository (or its release copy) with `npm ci` done. Nothing is
# downloaded. Re-running it with a new code re-pairs the agent (e.g. after a revoke).
set -eu
CODE="${1:?usage: install-linux.sh PAIRING-CODE SERVER-URL}"
SERVER="${2:?usage: install-linux.sh PAIRING-CODE SERVER-URL}"
SRC="$(cd "$(dirname "$0")/../../.." && pwd)"
DEST=/opt/entegrasyon-agent
HOME_DIR=/var/lib/entegrasyon-agent

node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' \
  || { echo "Node.js 20 or newer is needed" >&2; exit 1; }
id entegrasyon-agent >/dev/null 2>&1 || useradd --system --home-dir "$HOME_DIR" --shell /usr/sbin/nologin entegrasyon-agent
if [ "$SRC" != "$DEST" ]; then
  mkdir -p "$DEST"
  cp -a "$SRC/." "$DEST/"
fi
install -d -m 0700 -o entegrasyon-agent -g entegrasyon-agent "$HOME_DIR"
# Pair as the service user, so the credential file (mode 0600) belongs to it.
runuser -u entegrasyon-agent -- node "$DEST/apps/agent/bin/entegrasyon-agent.js" pair "$CODE" --server "$SERVER" --home "$HOME_DIR"
install -m 0644 "$DEST/apps/agent/install/entegrasyon-agent.service" /etc/systemd/system/entegrasyon-agent.service
systemctl daemon-reload
systemctl enable --now entegrasyon-agent
systemctl restart entegrasyon-agent
echo "entegrasyon-agent is running: systemctl status entegrasyon-agent; journalctl -u entegrasyon-agent"
