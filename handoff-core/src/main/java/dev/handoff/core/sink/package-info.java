/**
 * The sink workers: per shard, take chunks in order, merge them into inserts, write them through
 * an {@link dev.handoff.api.spi.InsertWriter}, then release their bytes and resolve their
 * acknowledgements. {@link dev.handoff.core.sink.SinkWorkers} is the entry point.
 *
 * <h2>Merge and order</h2>
 *
 * <p>One worker thread per shard takes the shard's chunks from {@link
 * dev.handoff.core.ShardQueues} in queue order, which is seal order. It merges consecutive chunks
 * into one {@link dev.handoff.api.spi.Insert} until the next chunk would pass {@code
 * maxInsertBytes} or {@code maxInsertRows} (that chunk starts the next insert; a chunk larger
 * than a limit goes alone), or until {@code linger} has passed on the injected clock since it took
 * the insert's first chunk. A shard writes one insert at a time and retries it before taking the
 * next, so its inserts reach the sink in seal order, retries included; a shard that is retrying
 * holds back only itself.
 *
 * <h2>Contracts</h2>
 *
 * <ol>
 *   <li><b>Budget once.</b> Every chunk a worker takes, or that shutdown finds in a queue, is
 *       released from the {@link dev.handoff.core.InflightBudget} exactly once, by its size, on
 *       every path: written, dead-lettered, abandoned after retries, failed by policy, failed by
 *       shutdown, after an exception of the writer, after an interrupt.
 *   <li><b>Acknowledgements once.</b> Every such chunk's {@link dev.handoff.api.AckSet} is resolved
 *       exactly once, after its bytes were released: {@code succeed()} when all its rows were
 *       written or dead-lettered, {@code fail(cause)} otherwise (the batches replay). A chunk is
 *       settled through a claim that one caller wins (the worker, or shutdown when the worker did
 *       not stop in time), so a late return of a stuck writer can never resolve a chunk twice.
 *   <li><b>Transient failures</b> ({@link dev.handoff.api.spi.WriteException.Kind#TRANSIENT}, and
 *       any {@link java.lang.RuntimeException} the writer throws, which is logged as an error) are
 *       retried under the {@link dev.handoff.core.sink.RetryPolicy}: exponential backoff with
 *       jitter drawn from a generator seeded per shard, waited on the injected clock. When the
 *       attempts or the elapsed time run out, the insert's chunks are abandoned: released, their
 *       acknowledgements failed.
 *   <li><b>Permanent failures</b> follow the {@link dev.handoff.core.sink.PermanentPolicy}: {@code
 *       FAIL_ACKS} fails the insert's chunks; {@code DEAD_LETTER} bisects the insert by chunk and
 *       then by the frames {@link dev.handoff.api.spi.InsertWriter#split} makes, writes the parts
 *       that succeed in order, and hands only the smallest failing parts to {@link
 *       dev.handoff.core.sink.DeadLetters}. A chunk whose failing parts were all set aside
 *       succeeds; a chunk one of whose parts could not be set aside fails. If a transient failure
 *       runs out of retries during isolation, every chunk of the insert not settled yet fails
 *       (rows of it already written may then arrive twice: delivery is at least once).
 *   <li><b>Errors.</b> An {@link java.lang.Error} thrown by the writer fails the chunks the worker
 *       holds and ends that worker; an interrupt outside shutdown does the same. The shard's queue
 *       then fills up and the stage parks; shutdown fails what is queued.
 * </ol>
 *
 * <h2>Shutdown</h2>
 *
 * <p>{@link dev.handoff.core.sink.SinkWorkers#shutdown(java.time.Duration)} closes the queues so
 * nothing new arrives, and lets every worker write what is queued without lingering until its
 * queue is empty or the deadline passes (on the injected clock, and at most as many real poll
 * intervals as the deadline holds, so a clock that never moves cannot hang it). Past the deadline
 * no new attempt starts; an attempt in progress may finish within the grace period, then the
 * worker is interrupted, and after a second grace period a worker still inside the writer is
 * given up: its chunks are failed on its behalf and the report marks the shard {@code
 * writerStuck}. Last, every chunk left in a queue is failed and released. Call it after the
 * driver closed the stage: chunks the stage still parked are the stage's to fail, and a chunk
 * sent while shutdown runs can be left in a queue.
 *
 * <h2>Threading</h2>
 *
 * <p>Each worker is the only receiver of its shard's queue. Counters are atomic and read by
 * {@link dev.handoff.core.sink.SinkWorkers#metrics()} from any thread. The writer and the dead
 * letters are called by every worker, so they are thread-safe across shards. Nothing here reads
 * the system clock or draws unseeded randomness: time and jitter come from the builder's clock
 * and seed (the real-time waits are bounded queue polls and thread joins). Those waits, and what
 * drives the loops, go through a {@link dev.handoff.core.sink.WorkerRuntime}: a worker's loop is
 * a {@link dev.handoff.core.sink.WorkerRuntime.Loop} whose {@code step()} returns whenever the
 * worker waits, so the production runtime steps it on a thread of its own (every wait blocking
 * inside the step) and the simulator steps every worker on its own thread on virtual time, under
 * its seeded faults, deterministically. The concurrency contract is in {@link
 * dev.handoff.core.sink.WorkerRuntime}.
 */
package dev.handoff.core.sink;
