#!/usr/bin/env bash
# The simulator's sweep alone as a mutation net (docs/simulator.md, "PIT's mutants against the
# sweep alone").
#
# Runs PIT (pitest-maven 1.30.2 with pitest-junit5-plugin 1.2.3, versions in the parent POM) on
# the core classes of the stage, budget, queues, acks, driver and sink workers, with one killing
# test: dev.handoff.simulator.SweepMutationTest (swarm seeds 1..600 through every oracle, stopping
# at the first failing seed). None of core's own tests run. Then prints the score and every
# mutant that survived, grouped by class and method.
#
#   simulator/mutation/pit-sweep.sh                  # whole run (about an hour on 2 busy cores)
#   simulator/mutation/pit-sweep.sh -Dpit.threads=1  # extra Maven options are passed on
#   PIT_SWEEP_SUMMARY_ONLY=1 simulator/mutation/pit-sweep.sh   # summarise the last run again
#   PIT_SWEEP_CLASSES='dev.handoff.core.Chain*,dev.handoff.core.sink.Workers*' \
#       simulator/mutation/pit-sweep.sh              # only these classes (comma-separated globs)
#
# The first run fetches the plugin from Maven Central; MVN_OFFLINE=1 adds -o after that. The run
# is long: it runs under `nice -n 19` (NICE=0 to change). Reports:
# simulator/target/pit-sweep-reports/index.html and mutations.xml.
set -euo pipefail
root="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reports="$root/simulator/target/pit-sweep-reports"

if [ "${PIT_SWEEP_SUMMARY_ONLY:-0}" != "1" ]; then
  offline=()
  [ "${MVN_OFFLINE:-0}" = "1" ] && offline=(-o)
  # -Dpit.sweep.only activates the parent's pit profile (plugin settings; every other module
  # skips) and the simulator's pit-sweep profile (target classes, the one test), not the
  # simulator's pit profile (which adds core's tests).
  # PIT_SWEEP_CLASSES (comma-separated globs) narrows the run to some classes.
  classes=()
  [ -n "${PIT_SWEEP_CLASSES:-}" ] && classes=("-Dpit.sweep.classes=$PIT_SWEEP_CLASSES")
  (cd "$root" && nice -n "${NICE:-19}" mvn -B -ntp "${offline[@]}" -Dpit.sweep.only \
      "${classes[@]}" -pl simulator -am test-compile org.pitest:pitest-maven:mutationCoverage "$@")
fi

python3 - "$reports/mutations.xml" <<'PY'
import collections, sys
import xml.etree.ElementTree as ET

muts = ET.parse(sys.argv[1]).getroot().findall("mutation")
status = collections.Counter(m.get("status") for m in muts)
detected = sum(1 for m in muts if m.get("detected") == "true")
print(f"mutants {len(muts)}, detected {detected} ({100.0 * detected / max(1, len(muts)):.1f}%)")
print("by status: " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
per_class = collections.defaultdict(lambda: [0, 0])
for m in muts:
    c = m.findtext("mutatedClass")
    per_class[c][1] += 1
    per_class[c][0] += m.get("detected") == "true"
print("\nby class (detected / mutants):")
for c, (d, n) in sorted(per_class.items()):
    print(f"  {c.replace('dev.handoff.core.', '')}: {d} / {n}")
print("\nsurvivors (not detected), by class and method:")
groups = collections.defaultdict(list)
for m in muts:
    if m.get("detected") != "true":
        key = (m.findtext("mutatedClass").replace("dev.handoff.core.", ""),
               m.findtext("mutatedMethod"))
        groups[key].append((int(m.findtext("lineNumber")), m.get("status"),
                            m.findtext("description")))
for (c, meth), items in sorted(groups.items()):
    print(f"  {c}.{meth}")
    for line, st, desc in sorted(items):
        print(f"    line {line} [{st}] {desc}")
PY
