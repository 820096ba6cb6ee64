#!/usr/bin/env python3
"""Applies each mutant (a realistic bug written into a core class) to a scratch copy of the class,
compiles it over the built core classes, runs the simulator's swarm sweep over N seeds with it
first on the class path, and reports which mutants the sweep catches (and by which oracle).

Usage (after `mvn -pl simulator -am test-compile` or any build that fills target/classes):
    python3 simulator/mutants/run-mutants.py [--seeds N | --range A..B] [--only NAME[,NAME]]
    python3 simulator/mutants/run-mutants.py --stress [--rounds N] [--only NAME[,NAME]]
With --stress it runs the thread stress test (StressRun, N rounds from seed 1 on real threads)
against each mutant instead of the sweep.
Nothing in the repository is changed: the mutant sources and classes live in a temp directory.
"""
import argparse, glob, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CORE = 'handoff-core/src/main/java/dev/handoff/core/'

# name, file (under CORE), exact text, replacement, what the bug is
MUTANTS = [
    ('merge-past-bytes', 'sink/ShardWorker.java',
     'if (batchBytes + h.chunk.sizeBytes() > maxInsertBytes\n',
     'if (batchBytes > maxInsertBytes\n',
     'the merge checks the insert without the next chunk: an insert passes maxInsertBytes'),
    ('merge-past-rows', 'sink/ShardWorker.java',
     '|| batchRows + h.chunk.rows() > maxInsertRows)',
     '|| batchRows + h.chunk.rows() > maxInsertRows + 1)',
     'the row limit is off by one'),
    ('success-keeps-budget', 'sink/ShardWorker.java',
     '        held.remove(h);\n        release(h.chunk);\n        h.chunk.acks().succeed();',
     '        held.remove(h);\n        h.chunk.frame().release();\n        h.chunk.acks().succeed();',
     'a written chunk gives its array back but not its bytes'),
    ('success-leaks-frame', 'sink/ShardWorker.java',
     '      budget.release(chunk.chargedBytes());\n      if (frame) {\n        chunk.frame().release();',
     '      budget.release(chunk.chargedBytes());\n      if (frame && chunk.rows() > 1) {\n        chunk.frame().release();',
     'the frame of a one-row chunk is never released: its array leaks from the pool'),
    ('abandoned-succeeds', 'sink/ShardWorker.java',
     '    } else if (result.outcome() == Outcome.ABANDONED) {\n      fail(batch, result.error(), aborting);',
     '    } else if (result.outcome() == Outcome.ABANDONED) {\n      succeed(batch);',
     'an insert that ran out of retries is acknowledged as written'),
    ('permanent-retried', 'sink/InsertWrite.java',
     '      if (!we.isTransient()) {',
     '      if (!we.isTransient() && n >= w.retry.maxAttempts()) {',
     'a permanent failure is retried like a transient one'),
    ('one-attempt-too-many', 'sink/InsertWrite.java',
     '    if (n >= w.retry.maxAttempts()) {',
     '    if (n > w.retry.maxAttempts()) {',
     'the worker makes one attempt more than the policy allows'),
    ('lost-dead-letter-acked', 'sink/Isolation.java',
     '          if (t.lost[0] != null) {',
     '          if (t.lost[0] != null && false) {',
     'a chunk whose dead letter could not be written is acknowledged'),
    ('isolation-out-of-order', 'sink/Isolation.java',
     'tasks.push(new Task(WRITE_PARTS, null, t.held, t.parts.subList(mid, t.parts.size()),\n'
     '                null, t.lost));\n'
     '            tasks.push(new Task(WRITE_PARTS, null, t.held, t.parts.subList(0, mid), null, t.lost));',
     'tasks.push(new Task(WRITE_PARTS, null, t.held, t.parts.subList(0, mid),\n'
     '                null, t.lost));\n'
     '            tasks.push(new Task(WRITE_PARTS, null, t.held, t.parts.subList(mid, t.parts.size()), null, t.lost));',
     'isolation writes the second half of a chunk before the first'),
    ('isolation-chunks-out-of-order', 'sink/Isolation.java',
     'tasks.push(new Task(WRITE_CHUNKS, t.chunks.subList(mid, t.chunks.size()), null, null,\n'
     '                null, null));\n'
     '            tasks.push(new Task(WRITE_CHUNKS, t.chunks.subList(0, mid), null, null, null, null));',
     'tasks.push(new Task(WRITE_CHUNKS, t.chunks.subList(0, mid), null, null,\n'
     '                null, null));\n'
     '            tasks.push(new Task(WRITE_CHUNKS, t.chunks.subList(mid, t.chunks.size()), null, null, null, null));',
     'isolation writes the later chunks of an insert before the earlier ones'),
    ('drain-ends-early', 'sink/ShardWorker.java',
     'return !(draining && queues.isClosed() && queues.size(shard) == 0);',
     'return !(draining && queues.isClosed());',
     'a draining worker stops at its first empty poll, with chunks still queued'),
    ('shutdown-leaves-queue', 'sink/Workers.java',
     '      if (!left.isEmpty()) {\n        w.failQueued(left, w.shutdownCause());',
     '      if (left.size() > 1) {\n        w.failQueued(left.subList(1, left.size()), w.shutdownCause());',
     'shutdown fails what is queued but forgets the first chunk of each queue'),
    ('shutdown-ignores-deadline', 'sink/Workers.java',
     'for (long i = 0; i < slices && clock.nanoTime() < end && anyAlive(); ) {',
     'for (long i = 0; i < 2 * slices && clock.nanoTime() < end + deadline.toNanos() && anyAlive(); ) {',
     'shutdown drains for twice its deadline'),
    ('early-end-uses-slice', 'sink/Workers.java',
     '        if (joinFirstAlive(pollNanos)) {\n          i++;\n        }',
     '        joinFirstAlive(pollNanos);\n        i++;',
     'a worker that ends early uses up a slice of the drain (the bug of seed 15782, put back)'),
    ('no-abort-after-deadline', 'sink/Workers.java',
     '      for (ShardWorker w : shards) {\n        w.aborting = true;\n      }',
     '      for (ShardWorker w : shards) {\n        w.aborting = w.shard > 0;\n      }',
     'shutdown never tells shard 0 its deadline passed'),
    ('stuck-worker-not-forced', 'sink/Workers.java',
     '          shards[i].force(shards[i].shutdownCause());',
     '          // shards[i].force(shards[i].shutdownCause());',
     "shutdown gives up on a stuck writer without failing the chunks its worker holds"),
    ('claim-not-atomic', 'sink/Held.java',
     '    return settled.compareAndSet(false, true);',
     '    settled.set(true);\n    return true;',
     'the settle-once claim lets every caller win'),
    ('linger-ignores-full-budget', 'sink/ShardWorker.java',
     'if (remaining <= 0 || draining || !budget.hasRoom()) {',
     'if (remaining <= 0 || draining) {',
     'a worker lingers while the budget is full'),
    ('budget-room-at-limit', 'InflightBudget.java',
     '    return inflight.get() < limitBytes;',
     '    return inflight.get() <= limitBytes;',
     'the budget has room when it is exactly full'),
    ('seal-past-target', 'SinkHandoff.java',
     'if (buffer.length() + encoder.bufferedBytes() >= targetBytes) {',
     'if (buffer.length() + encoder.bufferedBytes() > targetBytes) {',
     'a chunk seals one row after the row that reached the target exactly'),
    ('ingest-time-every-row', 'SinkHandoff.java',
     '    shard.rows++;\n    if (ack != shard.lastAck) {',
     '    shard.rows++;\n    shard.firstIngestNanos = clock.nanoTime();\n    if (ack != shard.lastAck) {',
     "a chunk's first ingest time moves with every row"),
    ('oldest-event-newest', 'SinkHandoff.java',
     '    if (eventTimeMs < shard.oldestEventTimeMs) {',
     '    if (eventTimeMs < shard.oldestEventTimeMs || shard.rows > 1) {',
     "a chunk's oldest event time is its last row's"),
    ('no-rollback', 'SinkHandoff.java',
     '    shard.buffer.truncate(rowStart);',
     '    if (shard.rows == 0) shard.buffer.truncate(rowStart);',
     'a failed row is rolled back only in an empty chunk'),
    ('parked-bytes-drift', 'SinkHandoff.java',
     '        parkedBytes -= head.sizeBytes();',
     '        parkedBytes -= head.rows();',
     'relieve lowers the parked bytes by the rows'),
    ('fail-held-forgets-release', 'sink/ShardWorker.java',
     '        try {\n          release(h.chunk, frames);\n        } finally {',
     '        try {\n          if (!atShutdown) release(h.chunk, frames);\n        } finally {',
     'chunks failed at shutdown keep their bytes and arrays'),
    ('backoff-not-slept', 'sink/InsertWrite.java',
     '      w.clock.sleep(backoff);',
     '      if (n > 1) {\n        w.clock.sleep(backoff);\n      }',
     'the first retry does not wait its backoff'),
    ('backoff-stops-doubling', 'sink/RetryPolicy.java',
     '    return Math.min(max, initial << shift);',
     '    return Math.min(max, initial << Math.min(shift, 1));',
     'the backoff doubles only once'),
    ('dead-letter-uncounted', 'sink/Isolation.java',
     '    worker.counters.deadLetteredInserts.incrementAndGet();\n',
     '',
     'a dead letter is missing from the report'),
    ('no-grace-before-interrupt', 'sink/Workers.java',
     '      joinAll(graceNanos); // an attempt in progress may finish\n',
     '',
     'shutdown interrupts the workers right at the deadline, without the grace period'),
    ('drained-if-any', 'sink/Workers.java',
     '      drained &= failedAtShutdown == 0 && !stuck[w.shard];',
     '      drained |= failedAtShutdown == 0 && !stuck[w.shard];',
     'the report says drained when any one shard drained'),
    ('retries-past-the-limit', 'sink/InsertWrite.java',
     '      return new Attempt(Outcome.ABANDONED, failed, false, n);\n    }\n    long backoff',
     '      return null;\n    }\n    long backoff',
     'an insert that used up its attempts is tried again and again under the same attempt number'),
    # The gauges-exact oracle, the abandoned counters, the retry budget and the stage's drain.
    ('oldest-open-counts-empty', 'SinkHandoff.java',
     'if (shard.rows > 0 && shard.firstIngestNanos - oldest < 0) {',
     'if (shard.rows >= 0 && shard.firstIngestNanos - oldest < 0) {',
     "the oldest open chunk's gauge counts shards whose chunk is empty"),
    ('parked-gauge-stale', 'SinkHandoff.java',
     '        shard.parked.pollFirst();\n        shard.publishOldestParked();',
     '        shard.parked.pollFirst();',
     "the oldest parked chunk's gauge is not updated when relieve sends a parked chunk"),
    ('flush-parked-bytes-as-chunks', 'SinkHandoff.java',
     '        parkedChunks, parkedBytes);',
     '        parkedChunks, parkedChunks);',
     "the metrics flush reports the parked chunk count as the parked bytes"),
    ('metrics-dead-letters-swapped', 'sink/Workers.java',
     'c.deadLetteredRows.get(), c.deadLetteredInserts.get(), c.abandonedChunks.get(),',
     'c.deadLetteredInserts.get(), c.deadLetteredRows.get(), c.abandonedChunks.get(),',
     "the workers' metrics swap dead-lettered rows and inserts"),
    ('unacked-age-held-only', 'sink/ShardWorker.java',
     '    EncodedChunk head = queues.peek(shard);',
     '    EncodedChunk head = null;',
     "the oldest unacknowledged chunk's age counts only the chunks the worker holds, not the queue"),
    ('report-retries-sum-inserts', 'sink/WorkersReport.java',
     'return shards.stream().mapToLong(PerShard::retries).sum();',
     'return shards.stream().mapToLong(PerShard::inserts).sum();',
     "the workers' report's total retries sums the inserts"),
    ('delivered-counts-failed', 'ack/SourceAcks.java',
     '      } else {\n        delivered++;\n      }',
     '      }\n      delivered++;',
     "a source's delivered batches count the failed ones too"),
    ('abandoned-rows-per-chunk', 'sink/ShardWorker.java',
     '        n++;\n        rows += h.chunk.rows();',
     '        n++;\n        rows += 1;',
     'an abandoned chunk counts as one row, in the report and the listener alike'),
    ('retry-past-elapsed', 'sink/InsertWrite.java',
     'if (w.clock.nanoTime() - start + backoff > w.retry.maxElapsed().toNanos()) {',
     'if (w.clock.nanoTime() - start > w.retry.maxElapsed().toNanos()) {',
     "the retry budget ignores the backoff about to be slept: the last retry starts past maxElapsed"),
    ('gives-up-early', 'sink/InsertWrite.java',
     'if (w.clock.nanoTime() - start + backoff > w.retry.maxElapsed().toNanos()) {',
     'if (w.clock.nanoTime() - start + 2 * backoff > w.retry.maxElapsed().toNanos()) {',
     "the worker gives up while a retry would still fit in maxElapsed"),
    ('stage-drain-one-backoff-late', 'Chain.java',
     'if (clock.nanoTime() - drainDeadline >= 0) {',
     'if (clock.nanoTime() - drainDeadline > 0) {',
     "the stage's drain backs off once more when its deadline falls exactly on a step"),
    ('push-blocks-when-parked', 'SinkHandoff.java',
     '      seal(shard); // B4\n    }\n    return FlowControl.CONTINUE;',
     '      seal(shard); // B4\n    }\n    return parkedChunks > 0 ? FlowControl.BLOCKED : FlowControl.CONTINUE;',
     'push answers BLOCKED while chunks are parked'),
    ('no-linger', 'sink/ShardWorker.java',
     'if (remaining <= 0 || draining || !budget.hasRoom()) {',
     'if (remaining <= lingerNanos || draining || !budget.hasRoom()) {',
     'a worker never lingers: an insert goes out with what was queued when its first chunk came'),
    ('linger-twice', 'sink/ShardWorker.java',
     'long remaining = lingerNanos - (clock.nanoTime() - lingerStart);',
     'long remaining = 2 * lingerNanos - (clock.nanoTime() - lingerStart);',
     'a worker lingers twice as long as configured'),
    ('merge-one-row-short', 'sink/ShardWorker.java',
     'while (batchBytes < maxInsertBytes && batchRows < maxInsertRows && !aborting) {',
     'while (batchBytes < maxInsertBytes && batchRows + 1 < maxInsertRows && !aborting) {',
     'a worker stops merging one row before the row limit'),
    ('no-second-grace', 'sink/Workers.java',
     '      joinAll(graceNanos);\n      for (int i = 0;',
     '      for (int i = 0;',
     'shutdown gives up on a worker right after the interrupt, without the second grace period'),
    ('close-keeps-parked-count', 'SinkHandoff.java',
     '        shard.publishOldestParked();\n        parkedChunks--;\n        parkedBytes -= chunk.sizeBytes();\n        shard.chunksFailedBack++;',
     '        shard.publishOldestParked();\n        parkedBytes -= chunk.sizeBytes();\n        shard.chunksFailedBack++;',
     'close() fails the parked chunks back but still counts them as parked'),
    ('source-throw-loses-counters', 'Chain.java',
     '      stage.onBatchEnd(Duration.ofNanos(clock.nanoTime() - start));\n      throw e;',
     '      throw e;',
     "the counters of a payload whose source threw never reach the metrics listener (swarm seed 2712's bug)"),
    ('fatal-payload-uncounted', 'Chain.java',
     '      fatal = f.get();\n      return finish(); // stop at once: no drain after a fatal',
     '      fatal = f.get();\n      payloads--;\n      return finish(); // stop at once: no drain after a fatal',
     "the driver's report leaves out the payload that ended in a fatal error"),
    ('listener-exception-escapes', 'sink/ShardWorker.java',
     '    try {\n      event.run();\n    } catch (RuntimeException e) {\n      LOG.warn("sink worker listener threw on shard {}", shard, e);\n    }',
     '    event.run();',
     "an exception from the workers' listener escapes into the worker's loop"),
    ('aged-one-tick-late', 'SinkHandoff.java',
     'if (shard.rows > 0 && now - shard.firstIngestNanos >= maxChunkAgeNanos) {',
     'if (shard.rows > 0 && now - shard.firstIngestNanos > maxChunkAgeNanos) {',
     'a chunk seals for its age one tick after it reached the maximum age'),
    ('backoff-never-grows', 'Chain.java',
     'nextBackoffNanos = Math.min(maxBackoffNanos, nextBackoffNanos * 2);',
     'nextBackoffNanos = Math.min(maxBackoffNanos, nextBackoffNanos);',
     "the driver's back-off never doubles"),
    ('insert-time-from-first-attempt', 'sink/InsertWrite.java',
     'long nanos = w.clock.nanoTime() - t0;',
     'long nanos = w.clock.nanoTime() - start;',
     'the time announced for a written insert counts from its first attempt, retries included'),
    ('no-jitter', 'sink/RetryPolicy.java',
     'if (jitter == 0.0) {',
     'if (jitter >= 0.0) {',
     'the backoff is never shortened by the jitter'),
    ('router-skipped', 'SinkHandoff.java',
     'this.onlyShard = n == 1 ? shards[0] : null;',
     'this.onlyShard = shards[0];',
     'the stage skips the router as if it had one shard: every record goes to shard 0'),
    ('reject-after-close-taken', 'SinkHandoff.java',
     '      refused++;\n      refuseStoppedOrClosed(ack);\n    } else {',
     '      refused++;\n    } else {',
     "a record rejected after close() does not fail its batch"),
    ('writer-bug-is-permanent', 'sink/InsertWrite.java',
     '      last = new WriteException(WriteException.Kind.TRANSIENT, -1, "writer threw " + e, e);',
     '      return new Attempt(Outcome.PERMANENT, new WriteException(WriteException.Kind.PERMANENT, -1, "writer threw " + e, e), false, n);',
     "a RuntimeException from the writer is taken as a permanent failure"),
    # The checks of issue 17's round for the 90% goal (docs/simulator.md, "PIT's mutants against
    # the sweep alone"): the sink's outage during isolation, the causes chunks fail with, the
    # batches' first cause, splits into parts of several rows.
    ('empty-abandonment-announced', 'sink/ShardWorker.java',
     '    if (n > 0) {\n      recordAbandoned(n, rows, cause, atShutdown);',
     '    if (n >= 0) {\n      recordAbandoned(n, rows, cause, atShutdown);',
     'a settle that failed no chunk (each was claimed already) is announced as an abandonment'),
    ('isolation-stop-leaves-chunks', 'sink/ShardWorker.java',
     '    if (!left.isEmpty()) {\n      fail(left,',
     '    if (left.size() > 1) {\n      fail(left,',
     'isolation stopped by a give-up leaves a lone unsettled chunk held until the worker ends'),
    ('isolation-stop-permanent-cause', 'sink/ShardWorker.java',
     'fail(left, stopped != null ? stopped.error() : result.error(),',
     'fail(left, result.error(),',
     'the chunks of a stopped isolation fail with the permanent failure it started from, not the'
     ' transient one that stopped it'),
    ('isolation-stop-at-shutdown', 'sink/ShardWorker.java',
     'stopped != null && aborting);',
     'stopped != null);',
     'the chunks of an isolation stopped by running out of retries count as failed at shutdown'),
    ('lost-dead-letter-other-cause', 'sink/Isolation.java',
     '            worker.fail(List.of(t.held), t.lost[0], false);',
     '            worker.fail(List.of(t.held), t.failure.error(), false);',
     'a chunk whose dead letter could not be stored fails with the permanent failure, not the'
     " store's error"),
    ('lost-dead-letters-not-attached', 'sink/Isolation.java',
     '        lost[0].addSuppressed(e);',
     '        lost[0] = e;',
     'a chunk with several lost dead letters fails with the last error only'),
    ('batch-keeps-last-cause', 'ack/SourceBatch.java',
     '    failure.compareAndSet(null, cause == null ? new IllegalStateException("failed") : cause);',
     '    failure.set(cause == null ? new IllegalStateException("failed") : cause);',
     'a batch failed twice reports the last cause instead of the first'),
    ('split-rows-at-the-end', 'sink/Isolation.java',
     'int rows = part.rows / k + (i < part.rows % k ? 1 : 0);',
     'int rows = part.rows / k + (i >= k - part.rows % k ? 1 : 0);',
     "isolation's estimate puts the extra rows of an uneven split on the last parts"),
    ('split-accepts-whole-frame', 'sink/Isolation.java',
     'if (f == null || f.length() >= part.frame.length()) {',
     'if (f == null || f.length() > part.frame.length()) {',
     'isolation takes a split holding a part as long as the frame (a broken writer) as a split'),
    ('native-seal-ignores-buffered', 'SinkHandoff.java',
     'if (buffer.length() + encoder.bufferedBytes() >= targetBytes) {',
     'if (buffer.length() >= targetBytes) {',
     "the stage's seal decision leaves out the rows a columnar (Native) encoder holds"),
    ('isolation-stop-not-at-shutdown', 'sink/ShardWorker.java',
     'stopped != null && aborting);',
     'false);',
     "the chunks of an isolation that shutdown's deadline stopped are not counted as failed at"
     ' shutdown'),
]


def classpath():
    m2 = os.path.expanduser('~/.m2/repository')
    jars = []
    for pat in ['com/fasterxml/jackson/core/jackson-databind/2.23.0/*.jar',
                'com/fasterxml/jackson/core/jackson-core/2.23.0/*.jar',
                'com/fasterxml/jackson/core/jackson-annotations/*/jackson-annotations-*.jar',
                'org/slf4j/slf4j-api/2.0.20/slf4j-api-2.0.20.jar']:
        found = sorted(glob.glob(os.path.join(m2, pat)))
        found = [j for j in found if not j.endswith(('-sources.jar', '-javadoc.jar'))]
        if found:
            jars.append(found[-1])
    dirs = [os.path.join(ROOT, d, 'target/classes') for d in
            ['handoff-api', 'handoff-core', 'simulator', 'clickhouse-types', 'encoders-rowbinary',
             'encoders-clickhouse']]
    return dirs + [os.path.join(ROOT, 'simulator/target/test-classes')] + jars


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', type=int, default=300)
    ap.add_argument('--only', default='')
    ap.add_argument('--stress', action='store_true')
    ap.add_argument('--rounds', type=int, default=300)
    ap.add_argument('--range', default='', help='seeds A..B instead of 1..--seeds')
    a = ap.parse_args()
    lo, hi = (a.range.split('..') if a.range else ('1', str(a.seeds)))
    only = set(x for x in a.only.split(',') if x)
    cp = classpath()
    tmp = tempfile.mkdtemp(prefix='handoff-mutants-')
    caught = 0
    ran = 0
    rows = []
    for name, rel, old, new, what in MUTANTS:
        if only and name not in only:
            continue
        src = open(os.path.join(ROOT, CORE, rel)).read()
        if src.count(old) != 1:
            print(f'{name}: the text to mutate is not in {rel} exactly once; skipped')
            continue
        out = os.path.join(tmp, name)
        srcdir = os.path.join(out, 'src')
        os.makedirs(srcdir)
        path = os.path.join(srcdir, os.path.basename(rel))
        open(path, 'w').write(src.replace(old, new))
        classes = os.path.join(out, 'classes')
        r = subprocess.run(['javac', '-nowarn', '-d', classes, '-cp', os.pathsep.join(cp), path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f'{name}: does not compile:\n{r.stderr}')
            continue
        t0 = time.time()
        if a.stress:
            run = ['dev.handoff.simulator.StressRun', str(a.rounds), '1']
        else:
            run = [os.path.join(os.path.dirname(__file__), 'MutantSweep.java'), lo, hi]
        r = subprocess.run(['java', '-cp', os.pathsep.join([classes] + cp)] + run,
                           capture_output=True, text=True)
        line = next((x for x in r.stdout.splitlines() if x.startswith('RESULT')),
                    'RESULT error ' + ' / '.join(r.stderr.strip().splitlines()[:3]))
        ran += 1
        hit = line.split()[1] == 'caught'
        caught += hit
        rows.append((name, what, line[7:]))
        print(f'{name:32} {"CAUGHT  " if hit else "SURVIVED"} {time.time() - t0:5.1f}s  {line[7:][:200]}',
              flush=True)
    net = f'{a.rounds} stress rounds' if a.stress else f'the sweep of seeds {lo}..{hi}'
    print(f'\n{caught} of {ran} mutants caught by {net}')
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
