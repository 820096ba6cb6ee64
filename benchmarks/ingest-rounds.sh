#!/usr/bin/env bash
# Alternated rounds of one file, steadier than one run of each loader on a shared machine: each
# round loads FILE with curl (the server parses JSONEachRow or CSVWithNames) and with every
# launcher given, each into a fresh MergeTree table, the order rotating from round to round
# (rounds a multiple of the loaders give each every place as often). Prints each load's wall
# time and the CPU seconds of the server (/proc/PID/stat) and of the client (GNU time), then each
# loader's ranges and medians and its wall-time ratio to curl's (median ÷ median).
#
#   SERVER_PID=<clickhouse-server pid> URL=http://127.0.0.1:8123 ROUNDS=6 \
#     benchmarks/ingest-rounds.sh narrow|wide FILE [LAUNCHER ...]
#
# LAUNCHER defaults to this repository's ./handoff; give another checkout's ./handoff to compare
# (each builds its own jar and class-data archive: run `LAUNCHER ingest --help` once first).
# NATIVE="FILE ..." adds the loader curl-native: curl posts those files, the same rows already
# encoded as Native (the insert files of `ingest --out`, one per shard), all at once, as ingest
# sends one insert per shard. Its wall time and server CPU are what a client that spends nothing
# on parsing and encoding could reach on this machine and server.
# narrow and wide are the tables of ingest-data.py (default.t and default.w, dropped).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kind=$1 file=$2; shift 2
launchers=("$@")
[ ${#launchers[@]} -gt 0 ] || launchers=("$root/handoff")
read -r -a native <<< "${NATIVE:-}"
url=${URL:-http://127.0.0.1:8123}
rounds=${ROUNDS:-5}
# shellcheck source=benchmarks/ingest-tables.sh
source "$root/benchmarks/ingest-tables.sh"
case "$kind" in
  narrow) table=default.t cols=$narrow_cols ;;
  wide) table=default.w cols=$wide_cols ;;
  *) echo "usage: $0 narrow|wide FILE [LAUNCHER ...]" >&2; exit 2 ;;
esac
fmt=JSONEachRow
case "$file" in *.csv) fmt=CSVWithNames ;; esac
tick=$(getconf CLK_TCK)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
q() { curl -sS --fail "$url" --data-binary "$1"; }
cpu() { awk '{print $14+$15}' "/proc/$SERVER_PID/stat"; }

# load NAME COMMAND...: one load into a fresh table; appends "NAME wall server client" to results.
load() {
  local name=$1; shift
  q "DROP TABLE IF EXISTS $table" >/dev/null
  q "CREATE TABLE $table ($cols) ENGINE = MergeTree ORDER BY id" >/dev/null
  sync
  local c0 t0 t1 c1
  c0=$(cpu); t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" \
      || echo "$name: exit $?: $(head -c 300 "$tmp/err")" >&2
  t1=$(date +%s.%N); c1=$(cpu)
  awk -v n="$name" -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" -v tick="$tick" \
      '{ printf "%s %.3f %.2f %.2f\n", n, t1 - t0, (c1 - c0) / tick, $1 + $2 }' "$tmp/time" \
      | tee -a "$tmp/results"
}

# Each round starts one loader later than the one before, so that every loader takes every place
# in turn: a load right after curl's runs up to a tenth slower than one after an ingest.
# The curl-native loader (a script, since GNU time runs commands): one request per file, at once.
post_native='s=0; for f in "${@:2}"; do curl -sS --fail "$1" --data-binary @"$f" & done
  for f in "${@:2}"; do wait -n || s=$?; done; exit $s'
loaders=$((${#launchers[@]} + 1 + (${#native[@]} > 0 ? 1 : 0)))
for r in $(seq "$rounds"); do
  for k in $(seq 0 $((loaders - 1))); do
    i=$(((k + r - 1) % loaders))
    if [ "$i" -eq 0 ]; then
      load curl curl -sS --fail "$url/?query=INSERT%20INTO%20$table%20FORMAT%20$fmt" \
          --data-binary @"$file"
    elif [ "$i" -gt ${#launchers[@]} ]; then
      load curl-native bash -c "$post_native" curl-native \
          "$url/?query=INSERT%20INTO%20$table%20FORMAT%20Native" "${native[@]}"
    else
      load "handoff$i" "${launchers[$((i - 1))]}" ingest --url "$url" --table "$table" \
          --input "$file" --no-progress
    fi
  done
done
echo
for i in "${!launchers[@]}"; do echo "handoff$((i + 1)): ${launchers[$i]}"; done
[ ${#native[@]} -eq 0 ] || echo "curl-native: ${native[*]}"
# Per loader: wall, server CPU and client CPU as min-max (median); wall median ÷ curl's.
sort -k1,1 -s "$tmp/results" | awk '
  function med(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function flush(   w, s, c) {
    if (name == "") return
    w = med(W, n); s = med(S, n); c = med(C, n)
    if (name == "curl") cw = w
    printf "%-9s wall %.3f-%.3f (%.3f) server %.2f-%.2f (%.2f) client %.2f-%.2f (%.2f)", name, W[1], W[n], w, S[1], S[n], s, C[1], C[n], c
    if (cw > 0 && name != "curl") printf "  curl÷this %.2fx", cw / w
    printf "\n"
  }
  $1 != name { flush(); name = $1; n = 0 }
  { n++; W[n] = $2; S[n] = $3; C[n] = $4 }
  END { flush() }'
