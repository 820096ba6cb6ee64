#!/usr/bin/env bash
# End to end: `handoff ingest` (Native, RowBinary) against the server's own JSONEachRow parser
# (curl --data-binary), each into a fresh MergeTree table on a running ClickHouse, in one run.
# Prints wall time, rows/s, and the CPU seconds of the server (from /proc/PID/stat) and of the
# client (GNU time) per million rows, and a checksum of the table (the same in every run when
# every loader wrote the same values).
#
#   SERVER_PID=<clickhouse-server pid> URL=http://127.0.0.1:8123 benchmarks/ingest-vs-curl.sh [FILE]
#
# BASELINE_JAR=<another handoff.jar> adds a Native run of that jar (before/after in one run).
# The last line is the start-up cost: the client CPU seconds of an ingest of the file's first
# 1,000 lines (JVM start, class loading, compiling), part of every run above.
#
# FILE defaults to target/narrow.jsonl, written here when missing: 1,000,000 lines of 6 columns
# (id UInt64, ts DateTime as epoch seconds, user_id UInt32, amount Float64, status String,
# comment String), 153 bytes a line. Builds nothing: run ./handoff once first. Take
# `flock -x /tmp/jmhruns/jmh.lock` around it on a shared machine. The table default.t is dropped.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
file=${1:-$root/benchmarks/target/narrow.jsonl}
url=${URL:-http://127.0.0.1:8123}
jar=$root/handoff-cli/target/handoff.jar
cols='id UInt64, ts DateTime, user_id UInt32, amount Float64, status String, comment String'
if [ ! -f "$file" ]; then
  mkdir -p "$(dirname "$file")"
  python3 - "$file" <<'PY'
import random, sys
random.seed(1)
st = ["created", "paid", "shipped", "delivered", "cancelled"]
with open(sys.argv[1], "w") as f:
    for i in range(1000000):
        f.write('{"id":%d,"ts":%d,"user_id":%d,"amount":%.2f,"status":"%s","comment":"%s"}\n' % (
            i, 1764748800 + i, random.randrange(10**9), random.random() * 10000,
            random.choice(st),
            "order note number %08d with some padding text here" % random.randrange(10**8)))
PY
fi
cpu() { awk '{print $14+$15}' "/proc/$SERVER_PID/stat"; }
tick=$(getconf CLK_TCK)
rows=$(wc -l < "$file")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
  local name=$1; shift
  curl -sS "$url" --data-binary "DROP TABLE IF EXISTS default.t" >/dev/null
  curl -sS "$url" --data-binary "CREATE TABLE default.t ($cols) ENGINE = MergeTree ORDER BY id" >/dev/null
  local c0 t0 t1 c1 n cu cs
  c0=$(cpu); t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err"
  t1=$(date +%s.%N); c1=$(cpu)
  n=$(curl -sS "$url" --data-binary "SELECT count() FROM default.t")
  sum=$(curl -sS "$url" --data-binary \
      "SELECT sum(cityHash64(id, ts, user_id, amount, status, comment)) FROM default.t")
  read -r cu cs < "$tmp/time"
  awk -v name="$name" -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" -v tick="$tick" -v n="$n" \
      -v cu="$cu" -v cs="$cs" -v rows="$rows" -v sum="$sum" 'BEGIN {
    w = t1 - t0; s = (c1 - c0) / tick; c = cu + cs;
    printf "%-40s %6.2f s wall %9.0f rows/s  server CPU %5.2f s/M rows  client CPU %5.2f s/M rows  rows %d  sum %s\n",
      name, w, n / w, s * 1e6 / rows, c * 1e6 / rows, n, sum }'
}
run "curl JSONEachRow (server parses)" curl -sS --fail \
    "$url/?query=INSERT%20INTO%20default.t%20FORMAT%20JSONEachRow" --data-binary @"$file"
run "handoff ingest --format native" java -jar "$jar" ingest --url "$url" --table default.t \
    --input "$file" --format native --no-progress
run "handoff ingest --format rowbinary" java -jar "$jar" ingest --url "$url" --table default.t \
    --input "$file" --format rowbinary --no-progress
run "handoff ingest native, 1 parse thread" java -jar "$jar" ingest --url "$url" \
    --table default.t --input "$file" --format native --no-progress --parse-threads 1
if [ -n "${BASELINE_JAR:-}" ]; then
  run "baseline jar, --format native" java -jar "$BASELINE_JAR" ingest --url "$url" \
      --table default.t --input "$file" --format native --no-progress
fi
head -1000 "$file" > "$tmp/head.jsonl"
curl -sS "$url" --data-binary "DROP TABLE IF EXISTS default.t" >/dev/null
curl -sS "$url" --data-binary "CREATE TABLE default.t ($cols) ENGINE = MergeTree ORDER BY id" >/dev/null
/usr/bin/time -f "%U %S" -o "$tmp/time" java -jar "$jar" ingest --url "$url" --table default.t \
    --input "$tmp/head.jsonl" --format native --no-progress > "$tmp/out" 2> "$tmp/err"
awk '{ printf "start-up: handoff ingest of 1,000 lines: client CPU %.2f s\n", $1 + $2 }' "$tmp/time"
