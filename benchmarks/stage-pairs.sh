#!/usr/bin/env bash
# Issue 19's ratios measured in pairs: for each schema and format, ROUNDS rounds of one JMH fork
# of StageBenchmark.encoderAlone and one of StageBenchmark.stage, run back to back (ABBA order:
# odd rounds encoder first, even rounds stage first), so the two sides of each ratio share the
# same minutes of a shared machine. Prints each round's ratio and, per pair, the median rows/s
# of each side and the median of the rounds' ratios. One fork of client-v2's writer per round
# and schema gives stage ÷ writer the same way.
#
#   benchmarks/stage-pairs.sh [ROUNDS]     (default 5; about 8 s per fork)
#
# SCHEMAS (default "narrow wide fixedWidth") and FORMATS (default "rowbinary native") narrow
# the run; JMH_ARGS overrides the per-fork settings (default: -wi 3 -w 1s -i 2 -r 1s -prof gc).
# Needs the benchmarks jar (mvn -pl benchmarks -am package -DskipTests) and python3. Take
# `flock -x /tmp/jmhruns/jmh.lock` around it on a shared machine. Results: benchmarks/target/pairs/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar=$root/benchmarks/target/benchmarks.jar
rounds=${1:-5}
schemas=${SCHEMAS:-narrow wide fixedWidth}
formats=${FORMATS:-rowbinary native}
read -r -a jmh_args <<<"${JMH_ARGS:--wi 3 -w 1s -i 2 -r 1s -prof gc}"
out=$root/benchmarks/target/pairs
mkdir -p "$out"
rm -f "$out"/*.json

# fork NAME REGEX PARAMS...: one fork, its JSON result in $out/NAME.json
fork() {
  local name=$1 regex=$2
  shift 2
  java -jar "$jar" "$regex" "$@" -f 1 "${jmh_args[@]}" -rf json -rff "$out/$name.json" \
    >"$out/$name.log" 2>&1 || { echo "fork $name failed: see $out/$name.log" >&2; exit 1; }
}

for schema in $schemas; do
  for r in $(seq 1 "$rounds"); do
    for format in $formats; do
      p=(-p "schema=$schema" -p "format=$format")
      if ((r % 2)); then
        fork "$schema-$format-enc-$r" 'StageBenchmark.encoderAlone$' "${p[@]}"
        fork "$schema-$format-stage-$r" 'StageBenchmark.stage$' "${p[@]}"
      else
        fork "$schema-$format-stage-$r" 'StageBenchmark.stage$' "${p[@]}"
        fork "$schema-$format-enc-$r" 'StageBenchmark.encoderAlone$' "${p[@]}"
      fi
    done
    fork "$schema-writer-$r" 'StageClientV2Benchmark.clientV2Writer$' -p "schema=$schema"
  done
done

python3 - "$out" "$rounds" "$schemas" "$formats" <<'EOF'
import json, statistics, sys
out, rounds, schemas, formats = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()

def result(name):
    b = json.load(open(f"{out}/{name}.json"))[0]
    alloc = b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
    return b["primaryMetric"]["score"], alloc

print("| schema, format | encoder alone M/s | stage M/s | stage ÷ encoder, median (rounds) "
      "| stage ÷ writer, median | stage B/row |")
print("| --- | ---: | ---: | --- | ---: | ---: |")
for s in schemas:
    writer = [result(f"{s}-writer-{r}")[0] for r in range(1, rounds + 1)]
    for f in formats:
        enc = [result(f"{s}-{f}-enc-{r}")[0] for r in range(1, rounds + 1)]
        st = [result(f"{s}-{f}-stage-{r}") for r in range(1, rounds + 1)]
        ratios = [b[0] / a for a, b in zip(enc, st)]
        vs_writer = [b[0] / w for w, b in zip(writer, st)]
        alloc = max((b[1] for b in st if b[1] is not None), default=float("nan"))
        print(f"| {s}, {f} | {statistics.median(enc) / 1e6:.2f} | "
              f"{statistics.median([b[0] for b in st]) / 1e6:.2f} | "
              f"{statistics.median(ratios):.2f}x ({', '.join(f'{x:.2f}' for x in ratios)}) | "
              f"{statistics.median(vs_writer):.2f}x | {alloc:.3f} |")
EOF
