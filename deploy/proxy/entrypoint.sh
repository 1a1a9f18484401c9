#!/bin/sh
# Render nginx.conf with the settings of this proxy, then run nginx in the foreground.
#   PROXY_UPSTREAM     the service, host:port        (default tictactoe:8000)
#   PROXY_PORT         the port to listen on         (default 8080)
#   PROXY_RATE         requests per second per client (default 50)
#   PROXY_BURST        requests a client may send at once above the rate (default 100)
#   PROXY_CONNECTIONS  open connections per client    (default 64)
set -eu
upstream=${PROXY_UPSTREAM:-tictactoe:8000}
port=${PROXY_PORT:-8080}
rate=${PROXY_RATE:-50}
burst=${PROXY_BURST:-100}
connections=${PROXY_CONNECTIONS:-64}
for number in "$port" "$rate" "$burst" "$connections"; do
  case $number in '' | *[!0-9]*) echo "not a whole number: '$number'" >&2; exit 2 ;; esac
done
case $upstream in '' | *[!A-Za-z0-9.:_\[\]-]*) echo "not a host:port: '$upstream'" >&2; exit 2 ;; esac
sed -e "s|\${UPSTREAM}|$upstream|g" -e "s|\${LISTEN}|$port|g" -e "s|\${RATE}|$rate|g" \
  -e "s|\${BURST}|$burst|g" -e "s|\${CONNECTIONS}|$connections|g" \
  /etc/tictactoe-proxy/nginx.conf >/tmp/nginx.conf
exec nginx -e stderr -c /tmp/nginx.conf -g 'daemon off;'
