#!/usr/bin/env bash
# Build the images with Podman and check the deployment as shipped, end to end:
#   the service's image holds no compiler, pip or pip cache; three replicas of it
#   run with a read-only root filesystem, no capabilities and host networking,
#   each on a free port of 127.0.0.1 only, behind the proxy image of deploy/proxy
#   (built the same way), which alone is reached by the tests; the HEALTHCHECK
#   reports healthy; the proxy answers a best move, compresses, and withstands
#   the attacks of scripts/attacks.py; under a steady load through the proxy
#   (scripts/steady_load.py, about 200 requests a second for 30 s), one replica
#   is killed with SIGKILL and started again, then all three are restarted one
#   after another with SIGTERM, and no request fails; the replicas run as a
#   non-root user with the TICTACTOE_WORKERS they were given; and a replica stops
#   on SIGTERM within a few seconds with exit code 0.
#
# Base image: BASE_IMAGE if given, else localhost/python-base:bookworm, made once
# with debootstrap from Debian's packages and reused afterwards. Nothing is pulled:
# no image registry can be reached from the machines this runs on, so the
# Dockerfile's default base (a public image) is for builds elsewhere.
#
# Environment: IMAGE (tag to build), BASE_IMAGE, DEBOOTSTRAP_MIRROR,
# CONTAINER_TEST_TIMEOUT (seconds to wait for healthy, default 90).
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
failures=0
replicas=()
workdir=$(mktemp -d)

pass() { echo "PASS: $*"; }
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
die() {
  echo "FAIL: $*"
  exit 1
}
step() { echo "---- $* ($((SECONDS - started)) s)"; }

cleanup() {
  local status=$?
  for name in "${replicas[@]}"; do
    podman rm --force --time 0 "$name" >/dev/null 2>&1 || true
  done
  if [[ -n "${proxy_container:-}" ]]; then
    podman rm --force --time 0 "$proxy_container" >/dev/null 2>&1 || true
  fi
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

version=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
IMAGE=${IMAGE:-localhost/tictactoe-service:$version}
LOCAL_BASE=localhost/python-base:bookworm
HEALTH_TIMEOUT=${CONTAINER_TEST_TIMEOUT:-90}

# --- tools and their configuration ------------------------------------------------------------
step "tools"
for tool in podman runc curl python3; do
  command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install podman buildah runc debootstrap curl)"
done

# Podman needs runc (crun stops with "cgroups in hybrid mode not supported") and lower default
# ulimits (the kernel refuses to raise them). Write the system configuration when it is missing;
# when a configuration exists without these settings, give them on each command instead.
conf=/etc/containers/containers.conf
podman_global=()
limits=()
if [[ ! -e "$conf" && -w /etc/containers ]]; then
  cat >"$conf" <<'EOF'
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]

[engine]
runtime = "runc"
EOF
  echo "wrote $conf"
fi
if ! grep -qs '^[[:space:]]*runtime[[:space:]]*=[[:space:]]*"runc"' "$conf"; then
  podman_global=(--runtime runc)
fi
if ! grep -qs 'nofile=4096' "$conf"; then
  limits=(--ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
fi
# Without systemd, Podman logs that it cannot add timers for health checks: this script runs
# them itself, so that noise is left out.
pm() { podman "${podman_global[@]}" "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
pm --version

# --- base image -----------------------------------------------------------------------------------
step "base image"
base=${BASE_IMAGE:-$LOCAL_BASE}
if [[ "$base" == "$LOCAL_BASE" ]] && ! pm image exists "$LOCAL_BASE"; then
  command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
  # The mirror apt already uses for bookworm, unless DEBOOTSTRAP_MIRROR says otherwise.
  mirror=${DEBOOTSTRAP_MIRROR:-$(apt-cache policy 2>/dev/null |
    awk '$2 ~ /^https?:\/\// && $3 == "bookworm/main" { print $2; exit }')}
  echo "debootstrap bookworm from ${mirror:-the default mirror}"
  rootfs=$workdir/rootfs
  timeout 900 debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates \
    bookworm "$rootfs" ${mirror:+"$mirror"} >"$workdir/debootstrap.log" 2>&1 ||
    {
      tail -n 30 "$workdir/debootstrap.log"
      die "debootstrap failed"
    }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | pm import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    - "$LOCAL_BASE" >/dev/null
  rm -rf "$rootfs"
  pass "base image $LOCAL_BASE made with debootstrap"
fi
echo "base image: $base"

# --- build ----------------------------------------------------------------------------------------
step "build $IMAGE"
build_volumes=()
bundle=/etc/ssl/certs/ca-certificates.crt
if [[ -r "$bundle" ]]; then
  # pip in the build trusts the same certificates as this machine.
  build_volumes+=(-v "$bundle:$bundle:ro")
fi
previous=$(pm image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
# --format docker keeps the HEALTHCHECK (the OCI format has none); --layers=false keeps no
# intermediate images behind, so repeated runs do not fill the disk.
if timeout 1200 podman "${podman_global[@]}" build --format docker --layers=false "${limits[@]}" "${build_volumes[@]}" \
  --build-arg "BASE_IMAGE=$base" --tag "$IMAGE" --file Dockerfile . >"$workdir/build.log" 2>&1; then
  pass "image $IMAGE built from $base"
  current=$(pm image inspect --format '{{.Id}}' "$IMAGE")
  if [[ -n "$previous" && "$previous" != "$current" ]]; then
    pm rmi "$previous" >/dev/null 2>&1 || true
  fi
else
  tail -n 40 "$workdir/build.log"
  die "podman build failed"
fi

# --- image contents -------------------------------------------------------------------------------
step "image contents"
user=$(pm image inspect --format '{{.Config.User}}' "$IMAGE")
if [[ "$user" =~ ^[1-9][0-9]*(:[0-9]+)?$ ]]; then
  pass "image USER is numeric and non-root ($user)"
else
  fail "image USER is '$user', not a numeric non-root user"
fi
healthcheck=$(pm image inspect --format '{{if .Config.Healthcheck}}{{.Config.Healthcheck.Test}}{{end}}' "$IMAGE")
if [[ "$healthcheck" == *"/health"* ]]; then
  pass "image keeps its HEALTHCHECK ($healthcheck)"
else
  fail "image has no HEALTHCHECK on /health"
fi
# shellcheck disable=SC2016 # expanded by the container's shell
contents=$(pm run --rm --network none "${limits[@]}" --entrypoint /bin/sh "$IMAGE" -c '
  for tool in gcc cc c++ make; do command -v "$tool"; done
  ls -d /opt/venv/bin/pip* /opt/venv/lib/python3*/site-packages/pip 2>/dev/null
  find / -xdev -type d -path "*/.cache/pip" 2>/dev/null
  true' | sort -u)
if [[ -z "$contents" ]]; then
  pass "no compiler, no pip in the venv, no pip cache in the image"
else
  fail "the image holds build tools or caches: $(echo "$contents" | tr '\n' ' ')"
fi
echo "image size: $(pm image inspect --format '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')"

# --- run: three replicas behind the proxy ------------------------------------------------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# A replica of the service: host networking, but listening on 127.0.0.1 only, so that only the
# proxy (and this script's checks of the replica itself) reach it. The third runs two workers.
start_replica() {
  local name=$1 port=$2 workers=$3
  # --read-only-tmpfs=false: not even /tmp or /run is writable, as under Kubernetes'
  # readOnlyRootFilesystem (the workers' metric files go to /dev/shm).
  pm run --detach --name "$name" --network host "${limits[@]}" \
    --read-only --read-only-tmpfs=false --cap-drop ALL --security-opt no-new-privileges \
    --env TICTACTOE_HOST=127.0.0.1 --env TICTACTOE_PORT="$port" --env TICTACTOE_WORKERS="$workers" \
    --env TICTACTOE_LOG_LEVEL=info --env TICTACTOE_FORWARDED_ALLOW_IPS=127.0.0.1 \
    "$IMAGE" >/dev/null
}
healthy_within() {
  local name=$1 deadline=$((SECONDS + HEALTH_TIMEOUT))
  while ((SECONDS < deadline)); do
    if [[ "$(pm inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" != "true" ]]; then
      return 1
    fi
    if pm healthcheck run "$name" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.5
  done
  return 1
}

# SIGTERM: the replica exits with status 0 within 5 s.
stop_replica() {
  local name=$1 stop_start=$SECONDS took code
  pm stop --time 10 "$name" >/dev/null
  took=$((SECONDS - stop_start))
  code=$(pm inspect --format '{{.State.ExitCode}}' "$name")
  if [[ "$code" == 0 && "$took" -le 5 ]]; then
    pass "$name: exit code 0, ${took} s after SIGTERM"
  else
    pm logs "$name" 2>&1 | tail -n 20
    fail "$name: exit code $code, ${took} s after SIGTERM"
  fi
}

step "run 3 replicas"
ports=("$(free_port)" "$(free_port)" "$(free_port)")
workers=(1 1 2)
for i in 0 1 2; do
  replicas+=("tictactoe-replica-$i-$$")
  start_replica "${replicas[$i]}" "${ports[$i]}" "${workers[$i]}"
done
echo "replicas on 127.0.0.1:${ports[0]}, :${ports[1]} and :${ports[2]}"

step "health check"
health_start=$SECONDS
for name in "${replicas[@]}"; do
  if ! healthy_within "$name"; then
    pm logs "$name" 2>&1 | tail -n 40
    die "$name did not become healthy within $HEALTH_TIMEOUT s"
  fi
done
status=$(pm inspect --format '{{.State.Health.Status}}' "${replicas[0]}" 2>/dev/null ||
  pm inspect --format '{{.State.Healthcheck.Status}}' "${replicas[0]}")
if [[ "$status" == healthy ]]; then
  pass "health checks report healthy after $((SECONDS - health_start)) s"
else
  fail "health check ran, but the status is '$status'"
fi

step "bind address"
# Host networking shares this machine's sockets: each replica listens on 127.0.0.1 only.
for port in "${ports[@]}"; do
  hex_port=$(printf '%04X' "$port")
  if awk -v want="0100007F:$hex_port" '$2 == want && $4 == "0A" { found = 1 } END { exit !found }' /proc/net/tcp &&
    ! awk -v want="00000000:$hex_port" '$2 == want && $4 == "0A" { found = 1 } END { exit !found }' /proc/net/tcp; then
    pass "a replica listens on 127.0.0.1:$port only"
  else
    fail "the replica on port $port does not listen on 127.0.0.1 alone"
  fi
done

step "the proxy in front (deploy/proxy)"
proxy_image=${PROXY_IMAGE:-localhost/tictactoe-proxy:$version}
proxy_container=tictactoe-proxy-test-$$
if ! timeout 900 podman "${podman_global[@]}" build --format docker --layers=false "${limits[@]}" \
  --build-arg "BASE_IMAGE=$base" --tag "$proxy_image" --file deploy/proxy/Dockerfile deploy/proxy \
  >"$workdir/proxy-build.log" 2>&1; then
  tail -n 40 "$workdir/proxy-build.log"
  die "podman build of the proxy failed"
fi
pass "image $proxy_image built from $base"
proxy_port=$(free_port)
# Every request of this script comes from 127.0.0.1: the per-client rate allows the steady load.
pm run --detach --name "$proxy_container" --network host "${limits[@]}" \
  --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
  --env PROXY_UPSTREAM="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}" \
  --env PROXY_ADDRESS=127.0.0.1 --env PROXY_PORT="$proxy_port" \
  --env PROXY_RATE=1000 --env PROXY_BURST=1000 --env PROXY_EXPENSIVE_RATE=1000 \
  "$proxy_image" >/dev/null
url=http://127.0.0.1:$proxy_port
proxied=""
for _ in $(seq 1 40); do
  if curl -fsS --max-time 2 "$url/health" >/dev/null 2>&1; then
    proxied=yes
    break
  fi
  sleep 0.5
done
[[ -n "$proxied" ]] || {
  pm logs "$proxy_container" 2>&1 | tail -n 20
  die "the proxy did not answer within 20 s"
}
pass "the proxy answers GET /health from the replicas"

step "answers through the proxy"
answer=$(curl -fsS --max-time 5 -H 'Content-Type: application/json' -d '{"board":"X........"}' \
  "$url/v1/best-move" || true)
if python3 -c 'import json, sys; assert json.loads(sys.argv[1])["position"] == 4' "$answer" 2>/dev/null; then
  pass "POST /v1/best-move X........ answers position 4"
else
  fail "POST /v1/best-move answered '$answer'"
fi
encoding=$(curl -fsS --max-time 5 -o /dev/null -D - -H 'Accept-Encoding: gzip' "$url/openapi.json" |
  tr -d '\r' | awk -F': ' 'tolower($1) == "content-encoding" { print $2 }')
if [[ "$encoding" == gzip ]]; then
  pass "large answers are compressed (gzip)"
else
  fail "/openapi.json was not compressed (Content-Encoding '$encoding')"
fi
served_by=$(for _ in $(seq 1 30); do curl -fsS --max-time 2 -o /dev/null "$url/health"; done
  pm logs "$proxy_container" 2>/dev/null | python3 -c '
import json, sys
print(len({json.loads(line)["upstream"] for line in sys.stdin if line.startswith("{") and "proxy.access" in line}))')
if ((served_by >= 3)); then
  pass "the proxy spreads requests over the $served_by replicas"
else
  fail "the proxy sent requests to $served_by replica(s), not 3"
fi

step "a steady load while a replica is killed and all are restarted in turn"
load_summary=$workdir/load.json
python3 scripts/steady_load.py "$url" --rate 200 --seconds 40 --output "$load_summary" >/dev/null &
load_pid=$!
sleep 5
killed_at=$SECONDS
pm kill --signal KILL "${replicas[0]}" >/dev/null
sleep 3
pm start "${replicas[0]}" >/dev/null
healthy_within "${replicas[0]}" || fail "${replicas[0]} did not become healthy again after SIGKILL"
echo "killed and restarted ${replicas[0]} in $((SECONDS - killed_at)) s"
for name in "${replicas[@]}"; do
  stop_replica "$name"
  pm start "$name" >/dev/null
  healthy_within "$name" || fail "$name did not become healthy again after its restart"
done
echo "rolling restart of 3 replicas done at $((SECONDS - killed_at)) s"
if wait "$load_pid"; then
  figures=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["requests"], "requests at", s["rate"], "a second; slowest", s["slowest_ms"], "ms; longest without an answer", s["longest_gap_ms"], "ms")' "$load_summary")
  pass "no request failed: $figures"
else
  cat "$load_summary" 2>/dev/null || true
  fail "requests failed while replicas were killed and restarted"
fi

step "attacks through the proxy"
# The proxy again, with its default per-client limits this time.
pm rm --force --time 10 "$proxy_container" >/dev/null
pm run --detach --name "$proxy_container" --network host "${limits[@]}" \
  --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
  --env PROXY_UPSTREAM="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}" \
  --env PROXY_ADDRESS=127.0.0.1 --env PROXY_PORT="$proxy_port" \
  "$proxy_image" >/dev/null
for _ in $(seq 1 40); do
  curl -fsS --max-time 2 -o /dev/null "$url/health" 2>/dev/null && break
  sleep 0.5
done
if python3 scripts/attacks.py "$url"; then
  pass "the edge defends the service (scripts/attacks.py)"
else
  fail "scripts/attacks.py found the edge wanting"
fi
if pm logs "$proxy_container" 2>&1 | grep -E '\[(emerg|alert|crit)\]'; then
  fail "errors in the proxy's log"
fi

step "user, workers, read-only root"
container=${replicas[2]}
uid=$(pm exec "$container" id -u || true)
if [[ "$uid" =~ ^[0-9]+$ && "$uid" != 0 ]]; then
  pass "the service runs as uid $uid"
else
  fail "the service runs as uid '$uid'"
fi
processes=$(pm top "$container" user pid ppid args || true)
echo "$processes"
users=$(echo "$processes" | awk 'NR > 1 { print $1 }' | sort -u | tr '\n' ' ')
if [[ -n "$users" && "$users" != *root* ]]; then
  pass "no process runs as root (users: $users)"
else
  fail "process users: '$users'"
fi
servers=$(echo "$processes" | grep -c 'python3' || true)
# The supervisor and one process per worker.
if ((servers >= workers[2] + 1)); then
  pass "TICTACTOE_WORKERS=${workers[2]}: $servers python processes"
else
  fail "TICTACTOE_WORKERS=${workers[2]}, but $servers python processes"
fi
# /tmp is world-writable in the image: a write there fails only because the root is read-only.
if [[ "$(pm inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$container")" == true ]] &&
  ! pm exec "$container" sh -c ': >/tmp/written-at-run-time' 2>/dev/null; then
  pass "the root filesystem is read-only, /tmp included"
else
  fail "the root filesystem is writable"
fi
for name in "${replicas[@]}"; do
  if pm logs "$name" 2>&1 | grep -E 'Traceback|Read-only file system|Permission denied'; then
    fail "errors in the log of $name"
  fi
done
pass "no errors in the replicas' logs"

step "SIGTERM"
pm stop --time 10 "$proxy_container" >/dev/null 2>&1 || true
for name in "${replicas[@]}"; do
  stop_replica "$name"
done

echo "container test: $((SECONDS - started)) s, $failures failure(s)"
if ((failures > 0)); then
  echo "FAIL: container test"
  exit 1
fi
echo "PASS: container test"
