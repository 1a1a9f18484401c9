#!/bin/sh
# Render nginx.conf with the settings of this proxy, then run nginx in the foreground.
#   PROXY_UPSTREAM         the replicas, host:port[,host:port...]   (default tictactoe:8000; a name
#                          that resolves to several addresses, as Compose's does, is every replica)
#   PROXY_PORT             the port to listen on                    (default 8080)
#   PROXY_ADDRESS          the address to listen on                 (default: every IPv4 and IPv6 one)
#   PROXY_RATE             requests per second per client           (default 50)
#   PROXY_BURST            requests a client may send at once above the rate (default 100)
#   PROXY_EXPENSIVE_RATE   costly requests (batches, analyses, positions, reviews, MCP) per second per client (default 5)
#   PROXY_EXPENSIVE_BURST  and their burst                          (default 10)
#   PROXY_CONNECTIONS      open connections per client              (default 64)
#   PROXY_HEADER_TIMEOUT   seconds to send a request's headers      (default 10)
#   PROXY_BODY_TIMEOUT     seconds between two reads of a body      (default 30)
#   PROXY_SEND_TIMEOUT     seconds between two writes of an answer the client does not read (default 30)
#   PROXY_ACCESS_LOG       where the JSON access log goes           (default /dev/stdout)
#   PROXY_SERVICE_VERSION  the version of the service behind it, which keys the edge cache (required
#                          unless the cache is off; the image sets the version it was built for)
#   PROXY_CACHE            on or off: the edge cache of the answers the service marks cacheable (on)
#   PROXY_CACHE_SIZE       its bound on disk, in nginx's units     (default 64m)
#   PROXY_CACHE_KEYS       its bound on keys, the shared memory zone's size (default 8m, some 64,000 keys)
#   PROXY_TRUSTED_FORWARDERS  addresses or networks (a,b/16,...) of proxies in front of this one whose
#                          X-Forwarded-For names the client (nginx's realip module): its rate limits and
#                          logs then take that client's address (default: none, the peer is the client)
#   PROXY_WORKERS          nginx's worker processes                 (default auto: one a CPU)
# Where things are (the image's layout by default; the tests run nginx from the repository):
#   PROXY_TEMPLATE  (/etc/tictactoe-proxy/nginx.conf)  PROXY_PROBLEMS  (/usr/share/tictactoe-proxy/problems)
#   PROXY_RUN       (/tmp: the rendered configuration, the pid file, temporary files)
set -eu
upstream=${PROXY_UPSTREAM:-tictactoe:8000}
port=${PROXY_PORT:-8080}
address=${PROXY_ADDRESS:-}
rate=${PROXY_RATE:-50}
burst=${PROXY_BURST:-100}
expensive_rate=${PROXY_EXPENSIVE_RATE:-5}
expensive_burst=${PROXY_EXPENSIVE_BURST:-10}
connections=${PROXY_CONNECTIONS:-64}
header_timeout=${PROXY_HEADER_TIMEOUT:-10}
body_timeout=${PROXY_BODY_TIMEOUT:-30}
send_timeout=${PROXY_SEND_TIMEOUT:-30}
access_log=${PROXY_ACCESS_LOG:-/dev/stdout}
version=${PROXY_SERVICE_VERSION:-}
cache=${PROXY_CACHE:-on}
cache_size=${PROXY_CACHE_SIZE:-64m}
cache_keys=${PROXY_CACHE_KEYS:-8m}
trusted=${PROXY_TRUSTED_FORWARDERS:-}
workers=${PROXY_WORKERS:-auto}
template=${PROXY_TEMPLATE:-/etc/tictactoe-proxy/nginx.conf}
problems=${PROXY_PROBLEMS:-/usr/share/tictactoe-proxy/problems}
run=${PROXY_RUN:-/tmp}

for number in "$port" "$rate" "$burst" "$expensive_rate" "$expensive_burst" "$connections" \
  "$header_timeout" "$body_timeout" "$send_timeout"; do
  case $number in '' | *[!0-9]*) echo "not a whole number: '$number'" >&2; exit 2 ;; esac
done
for path in "$access_log" "$problems" "$run"; do
  case $path in /*) ;; *) echo "not an absolute path: '$path'" >&2; exit 2 ;; esac
  case $path in *[!A-Za-z0-9._/-]*) echo "not a plain path: '$path'" >&2; exit 2 ;; esac
done
for size in "$cache_size" "$cache_keys"; do
  case $size in '' | *[!0-9kKmMgG]* | *[kKmMgG]?*) echo "not a size: '$size'" >&2; exit 2 ;; esac
done
case $cache in
  on)
    [ -n "$version" ] || { echo "PROXY_SERVICE_VERSION is not set: it keys the edge cache (or set PROXY_CACHE=off)" >&2; exit 2; }
    zone=tictactoe ;;
  off) zone=off; version=${version:-none} ;;
  *) echo "PROXY_CACHE is on or off, not '$cache'" >&2; exit 2 ;;
esac
case $version in *[!A-Za-z0-9._+-]*) echo "not a version: '$version'" >&2; exit 2 ;; esac
servers=""
body_servers=""
for replica in $(echo "$upstream" | tr ',' ' '); do
  case $replica in *[!A-Za-z0-9.:_\[\]-]*) echo "not a host:port: '$replica'" >&2; exit 2 ;; esac
  servers="${servers}server $replica max_fails=3 fail_timeout=1s; "
  body_servers="${body_servers}server $replica max_fails=0; "
done
[ -n "$servers" ] || { echo "PROXY_UPSTREAM names no replica" >&2; exit 2; }
case $workers in
  auto) ;;
  '' | *[!0-9]* | 0) echo "PROXY_WORKERS is auto or a number of processes, not '$workers'" >&2; exit 2 ;;
esac
# The client of a request from a trusted forwarder is the last address of its X-Forwarded-For that
# is not itself trusted (real_ip_recursive); from any other peer the header counts for nothing.
real_ip=""
for forwarder in $(echo "$trusted" | tr ',' ' '); do
  case $forwarder in
    *[!0-9A-Fa-f.:/]* | */*/* | /* | */) echo "not an address or network: '$forwarder'" >&2; exit 2 ;;
  esac
  real_ip="${real_ip}set_real_ip_from $forwarder; "
done
[ -z "$real_ip" ] || real_ip="${real_ip}real_ip_header X-Forwarded-For; real_ip_recursive on;"
case $address in
  '') listen="listen $port reuseport; listen [::]:$port reuseport;" ;;
  *[!0-9A-Fa-f.:\[\]]*) echo "not an address: '$address'" >&2; exit 2 ;;
  *) listen="listen $address:$port reuseport;" ;;
esac

mkdir -p "$run/cache"
# The edge cache lives in a directory of the service's version: another version's answers, kept by
# an earlier start, are removed before nginx can serve one of them.
for kept in "$run"/cache/*; do
  [ "$kept" = "$run/cache/$version" ] || rm -rf "$kept"
done
sed -e "s|\${SERVERS}|$servers|g" -e "s|\${BODY_SERVERS}|$body_servers|g" -e "s|\${LISTEN}|$listen|g" \
  -e "s|\${RATE}|$rate|g" -e "s|\${BURST}|$burst|g" \
  -e "s|\${EXPENSIVE_RATE}|$expensive_rate|g" -e "s|\${EXPENSIVE_BURST}|$expensive_burst|g" \
  -e "s|\${CONNECTIONS}|$connections|g" -e "s|\${ACCESS_LOG}|$access_log|g" \
  -e "s|\${HEADER_TIMEOUT}|$header_timeout|g" -e "s|\${BODY_TIMEOUT}|$body_timeout|g" \
  -e "s|\${SEND_TIMEOUT}|$send_timeout|g" \
  -e "s|\${PROBLEMS}|$problems|g" -e "s|\${RUN}|$run|g" \
  -e "s|\${CACHE}|$zone|g" -e "s|\${CACHE_PATH}|$run/cache/$version|g" \
  -e "s|\${CACHE_KEYS}|$cache_keys|g" -e "s|\${CACHE_SIZE}|$cache_size|g" -e "s|\${VERSION}|$version|g" \
  -e "s|\${REAL_IP}|$real_ip|g" -e "s|\${WORKERS}|$workers|g" \
  "$template" >"$run/nginx.conf"
if grep -n '[$]{[A-Z_]*}' "$run/nginx.conf" >&2; then echo "left unrendered in $template" >&2; exit 2; fi
exec nginx -e stderr -c "$run/nginx.conf" -g 'daemon off;'
