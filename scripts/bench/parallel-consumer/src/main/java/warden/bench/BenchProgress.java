package warden.bench;

import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one run observed, on one monotonic clock (System.nanoTime) mapped to epoch ms once at start-up. The
 * consumer's interceptor (CommitWatch) and the handler write it from the poller and the worker threads.
 * The window is Warden's: from the first partition assignment after joining the group to the acknowledged
 * commit that brought the last partition to its end offset.
 */
final class BenchProgress {
    /** Set before the consumer is created: the interceptor, which Kafka instantiates by class name, reads it. */
    static volatile BenchProgress current;

    private final long epochMicrosAtBase;
    private final long nanoBase;
    private final long[] endOffsets;
    private final AtomicLongArray committed;
    /** Per partition: nanoTime its commit reached its end offset; Long.MIN_VALUE while it has not. */
    private final AtomicLongArray doneAtNanos;
    /** Per partition and offset: nanoTime the record was returned by the consumer's poll (0: not yet). */
    private final AtomicLongArray[] fetchedAtNanos;
    private final double[] latenciesMs;
    private final AtomicInteger latencyCount = new AtomicInteger();
    private final AtomicLong handled = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong firstAssignedNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong firstHandlerStartNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong lastHandlerEndNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong finishedNanos = new AtomicLong(Long.MIN_VALUE);
    private final CountDownLatch finished = new CountDownLatch(1);

    BenchProgress(long[] endOffsets) {
        Instant now = Instant.now();
        this.nanoBase = System.nanoTime();
        this.epochMicrosAtBase = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000L;
        this.endOffsets = endOffsets.clone();
        this.committed = new AtomicLongArray(endOffsets.length);
        this.doneAtNanos = new AtomicLongArray(endOffsets.length);
        this.fetchedAtNanos = new AtomicLongArray[endOffsets.length];
        long total = 0;
        for (int p = 0; p < endOffsets.length; p++) {
            doneAtNanos.set(p, endOffsets[p] == 0 ? 0 : Long.MIN_VALUE);
            fetchedAtNanos[p] = new AtomicLongArray(Math.toIntExact(endOffsets[p]));
            total += endOffsets[p];
        }
        this.latenciesMs = new double[Math.toIntExact(total)];
    }

    long records() {
        return Arrays.stream(endOffsets).sum();
    }

    double epochMs(long nanos) {
        return epochMicrosAtBase / 1_000.0 + (nanos - nanoBase) / 1_000_000.0;
    }

    void assigned() {
        firstAssignedNanos.compareAndSet(Long.MIN_VALUE, System.nanoTime());
    }

    void fetched(int partition, long offset) {
        if (partition < 0 || partition >= fetchedAtNanos.length || offset < 0 || offset >= endOffsets[partition]) return;
        fetchedAtNanos[partition].compareAndSet((int) offset, 0, System.nanoTime());
    }

    void handlerStarted() {
        firstHandlerStartNanos.compareAndSet(Long.MIN_VALUE, System.nanoTime());
    }

    /** A handler returned for the record at partition/offset: its latency is poll-returned → handler end. */
    void handlerEnded(int partition, long offset) {
        long now = System.nanoTime();
        handled.incrementAndGet();
        lastHandlerEndNanos.accumulateAndGet(now, Math::max);
        if (partition < 0 || partition >= fetchedAtNanos.length || offset < 0 || offset >= endOffsets[partition]) return;
        long fetched = fetchedAtNanos[partition].get((int) offset);
        if (fetched == 0) return;
        int slot = latencyCount.getAndIncrement();
        if (slot < latenciesMs.length) latenciesMs[slot] = (now - fetched) / 1_000_000.0;
    }

    /** An acknowledged commit of `offset` (next to read) for `partition`. Lower offsets than seen are ignored. */
    void committed(int partition, long offset) {
        long now = System.nanoTime();
        commits.incrementAndGet();
        if (partition < 0 || partition >= endOffsets.length) return;
        committed.accumulateAndGet(partition, offset, Math::max);
        if (committed.get(partition) >= endOffsets[partition]) doneAtNanos.compareAndSet(partition, Long.MIN_VALUE, now);
        for (int p = 0; p < endOffsets.length; p++) {
            if (doneAtNanos.get(p) == Long.MIN_VALUE) return;
        }
        if (finishedNanos.compareAndSet(Long.MIN_VALUE, now)) finished.countDown();
    }

    boolean awaitFinished(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    boolean isFinished() {
        return finished.getCount() == 0;
    }

    long handled() {
        return handled.get();
    }

    long commits() {
        return commits.get();
    }

    long committedOffset(int partition) {
        return committed.get(partition);
    }

    int partitions() {
        return endOffsets.length;
    }

    long firstAssignedNanos() {
        return firstAssignedNanos.get();
    }

    long firstHandlerStartNanos() {
        return firstHandlerStartNanos.get();
    }

    long lastHandlerEndNanos() {
        return lastHandlerEndNanos.get();
    }

    long finishedNanos() {
        return finishedNanos.get();
    }

    /** Per partition: nanoTime its commit reached its end (0 for an empty one), Long.MIN_VALUE if never. */
    long doneAtNanos(int partition) {
        return doneAtNanos.get(partition);
    }

    /** The recorded latencies, sorted ascending. */
    double[] sortedLatenciesMs() {
        double[] sorted = Arrays.copyOf(latenciesMs, Math.min(latencyCount.get(), latenciesMs.length));
        Arrays.sort(sorted);
        return sorted;
    }
}
