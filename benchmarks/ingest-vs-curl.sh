#!/usr/bin/env bash
# End to end, in one run: `handoff ingest` (Native, RowBinary) against the server's own parsers
# (curl --data-binary, and clickhouse-client reading stdin), for JSON lines and CSV, on a narrow
# and a wide file, each load into a fresh MergeTree table on a running ClickHouse. Prints wall
# time, rows/s, and the CPU seconds of the server (from /proc/PID/stat) and of the client (GNU
# time: user + sys of the command and its children) per million rows, and a checksum of the
# table (equal across loaders when they wrote the same values).
#
#   SERVER_PID=<clickhouse-server pid> URL=http://127.0.0.1:8123 TCP_PORT=9000 \
#     benchmarks/ingest-vs-curl.sh [DATA_DIR]
#
# DATA_DIR (default benchmarks/target) gets narrow.jsonl/.csv (1,000,000 rows, 6 columns) and
# wide.jsonl/.csv (200,000 rows, 20 columns with awkward values) from ingest-data.py when
# missing. HANDOFF is the command that runs handoff (default: the ./handoff launcher, which
# builds the jar when sources changed: run it once first). BASELINE_JAR=<another handoff.jar>
# adds a Native run of that jar on the narrow JSON file. ONLY=narrow or ONLY=wide runs one file.
# The last lines are the start-up cost: the client CPU of an ingest of the narrow file's first
# 1,000 lines. Take `flock -x /tmp/jmhruns/jmh.lock` around it on a shared machine. The tables
# default.t and default.w are dropped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data=${1:-$root/benchmarks/target}
url=${URL:-http://127.0.0.1:8123}
tcp=${TCP_PORT:-9000}
handoff=${HANDOFF:-$root/handoff}
# shellcheck source=benchmarks/ingest-tables.sh
source "$root/benchmarks/ingest-tables.sh"
if [ ! -f "$data/narrow.jsonl" ] || [ ! -f "$data/wide.csv" ]; then
  python3 "$root/benchmarks/ingest-data.py" "$data"
fi
cpu() { awk '{print $14+$15}' "/proc/$SERVER_PID/stat"; }
tick=$(getconf CLK_TCK)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
q() { curl -sS --fail "$url" --data-binary "$1"; }

# run NAME TABLE COLUMNS CHECKSUM ROWS COMMAND...: one load into a fresh table.
run() {
  local name=$1 table=$2 cols=$3 sum=$4 rows=$5; shift 5
  q "DROP TABLE IF EXISTS $table" >/dev/null
  q "CREATE TABLE $table ($cols) ENGINE = MergeTree ORDER BY id" >/dev/null
  sync
  local c0 t0 t1 c1 n cu cs status=0
  c0=$(cpu); t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" || status=$?
  t1=$(date +%s.%N); c1=$(cpu)
  if [ "$status" != 0 ]; then
    echo "$name: exit $status: $(head -c 600 "$tmp/err")" >&2
  fi
  n=$(q "SELECT count() FROM $table")
  local s
  s=$(q "SELECT $sum FROM $table")
  read -r cu cs < "$tmp/time"
  awk -v name="$name" -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" -v tick="$tick" -v n="$n" \
      -v cu="$cu" -v cs="$cs" -v rows="$rows" -v sum="$s" 'BEGIN {
    w = t1 - t0; s = (c1 - c0) / tick; c = cu + cs;
    printf "| %-44s | %6.2f s | %9.0f | %5.2f | %5.2f | %d | %s |\n",
      name, w, n / w, s * 1e6 / rows, c * 1e6 / rows, n, sum }'
}

# loaders FILE FORMAT TABLE COLUMNS CHECKSUM: every loader on one file.
loaders() {
  local file=$1 fmt=$2 table=$3 cols=$4 sum=$5 rows kind
  rows=$(wc -l < "$file")
  kind=json
  if [ "$fmt" = CSVWithNames ]; then kind=csv; rows=$((rows - 1)); fi
  echo
  echo "$(basename "$file"): $rows rows, $(stat -c %s "$file") bytes"
  echo "| loader | wall | rows/s | server CPU s/M rows | client CPU s/M rows | rows | checksum |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  run "curl $fmt (server parses)" "$table" "$cols" "$sum" "$rows" curl -sS --fail \
      "$url/?query=INSERT%20INTO%20$table%20FORMAT%20$fmt" --data-binary @"$file"
  run "clickhouse-client $fmt (client parses)" "$table" "$cols" "$sum" "$rows" \
      sh -c "clickhouse-client --host 127.0.0.1 --port $tcp --query 'INSERT INTO $table FORMAT $fmt' < '$file'"
  run "handoff ingest --input-format $kind, native" "$table" "$cols" "$sum" "$rows" \
      "$handoff" ingest --url "$url" --table "$table" --input "$file" --input-format "$kind" \
      --format native --no-progress
  run "handoff ingest --input-format $kind, rowbinary" "$table" "$cols" "$sum" "$rows" \
      "$handoff" ingest --url "$url" --table "$table" --input "$file" --input-format "$kind" \
      --format rowbinary --no-progress
  if [ -n "${BASELINE_JAR:-}" ] && [ "$kind" = json ]; then
    run "baseline jar, --format native" "$table" "$cols" "$sum" "$rows" java -jar "$BASELINE_JAR" \
        ingest --url "$url" --table "$table" --input "$file" --format native --no-progress
  fi
}

if [ "${ONLY:-narrow}" = narrow ]; then
  loaders "$data/narrow.jsonl" JSONEachRow default.t "$narrow_cols" "$narrow_sum"
  loaders "$data/narrow.csv" CSVWithNames default.t "$narrow_cols" "$narrow_sum"
fi
if [ "${ONLY:-wide}" = wide ]; then
  loaders "$data/wide.jsonl" JSONEachRow default.w "$wide_cols" "$wide_sum"
  loaders "$data/wide.csv" CSVWithNames default.w "$wide_cols" "$wide_sum"
fi

head -1000 "$data/narrow.jsonl" > "$tmp/head.jsonl"
q "DROP TABLE IF EXISTS default.t" >/dev/null
q "CREATE TABLE default.t ($narrow_cols) ENGINE = MergeTree ORDER BY id" >/dev/null
echo
for i in 1 2; do
  /usr/bin/time -f "%U %S %e" -o "$tmp/time" "$handoff" ingest --url "$url" --table default.t \
      --input "$tmp/head.jsonl" --format native --no-progress > "$tmp/out" 2> "$tmp/err"
  awk '{ printf "start-up: handoff ingest of 1,000 lines: client CPU %.2f s, wall %.2f s\n", $1 + $2, $3 }' "$tmp/time"
done
