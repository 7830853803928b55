package warden.bench;

import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelConsumerOptions.CommitMode;
import io.confluent.parallelconsumer.ParallelEoSStreamProcessor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;

/**
 * Confluent Parallel Consumer on one of the bench's pre-produced topics, from its beginning, with a no-op or a
 * fixed-latency (Thread.sleep) handler. Prints one JSON line on stdout: the measurement (the fields of
 * scripts/bench/protocol.ts Measurement) or {"error": ...}; everything else goes to stderr. Exit 0 only with
 * a measurement, 2 on a usage error, 1 otherwise.
 */
public final class ParallelConsumerBench {
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final long FAILURE_POLL_MS = 100;

    public static void main(String[] argv) {
        HarnessArgs args;
        try {
            args = HarnessArgs.parse(argv);
        } catch (HarnessArgs.UsageException e) {
            System.err.println("pc-bench-harness: " + e.getMessage() + "\n" + HarnessArgs.USAGE);
            printError(e.getMessage());
            System.exit(2);
            return;
        }
        int exitCode = 0;
        try {
            System.out.println(run(args));
            System.out.flush();
        } catch (Exception e) {
            e.printStackTrace(System.err);
            printError(e.toString());
            exitCode = 1;
        }
        // The answer is out before Parallel Consumer closes: a slow close cannot cost the bench its measurement.
        ParallelEoSStreamProcessor<?, ?> processor = running;
        if (processor != null) processor.closeDontDrainFirst(CLOSE_TIMEOUT);
        System.exit(exitCode);
    }

    /** The processor of this run, closed by main once the answer is printed. */
    private static volatile ParallelEoSStreamProcessor<?, ?> running;

    private static void printError(String message) {
        System.out.println(new JsonWriter().object().field("error", message).end());
        System.out.flush();
    }

    static String run(HarnessArgs args) throws Exception {
        BenchProgress progress = new BenchProgress(args.endOffsets());
        BenchProgress.current = progress;
        long baselineRssBytes = procStatusBytes("VmRSS");

        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args.brokers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args.groupId());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-pc-" + args.groupId());
        // Parallel Consumer commits itself and refuses a consumer that auto-commits.
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, CommitWatch.class.getName());
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);

        ParallelConsumerOptions<byte[], byte[]> options = ParallelConsumerOptions.<byte[], byte[]>builder()
                .consumer(consumer)
                .ordering(args.ordering())
                .maxConcurrency(args.maxConcurrency())
                .commitMode(CommitMode.PERIODIC_CONSUMER_ASYNCHRONOUS)
                .commitInterval(Duration.ofMillis(args.commitIntervalMs()))
                // Its check reads KafkaConsumer internals that kafka-clients 3.9 moved; auto-commit is off above.
                .ignoreReflectiveAccessExceptionsForAutoCommitDisabledCheck(true)
                .build();
        ParallelEoSStreamProcessor<byte[], byte[]> processor = new ParallelEoSStreamProcessor<>(options);
        running = processor;
        int handlerMs = args.handlerMs();
        processor.subscribe(List.of(args.topic()), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                if (!partitions.isEmpty()) progress.assigned();
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            }
        });
        processor.poll(context -> {
            progress.handlerStarted();
            ConsumerRecord<byte[], byte[]> record = context.getSingleConsumerRecord();
            if (handlerMs > 0) {
                try {
                    Thread.sleep(handlerMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("handler interrupted", e);
                }
            }
            progress.handlerEnded(record.partition(), record.offset());
        });
        awaitFinished(progress, processor, args.timeoutMs());
        long peakRssBytes = procStatusBytes("VmHWM");
        return measurement(progress, args, baselineRssBytes, peakRssBytes);
    }

    /** Waits until every partition's commit reached its end; throws when the processor failed or time ran out. */
    private static void awaitFinished(BenchProgress progress, ParallelEoSStreamProcessor<?, ?> processor, long timeoutMs)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (!progress.awaitFinished(FAILURE_POLL_MS)) {
            if (processor.isClosedOrFailed()) {
                Exception cause = processor.getFailureCause();
                throw new IllegalStateException("Parallel Consumer stopped before the end: "
                        + (cause == null ? "closed" : cause.toString()), cause);
            }
            if (System.nanoTime() > deadline) {
                StringBuilder committed = new StringBuilder();
                for (int p = 0; p < progress.partitions(); p++) {
                    committed.append(p == 0 ? "" : ",").append(progress.committedOffset(p));
                }
                throw new IllegalStateException("not finished within " + timeoutMs + " ms: handled " + progress.handled()
                        + ", committed offsets " + committed);
            }
        }
    }

    private static String measurement(BenchProgress progress, HarnessArgs args, long baselineRssBytes, long peakRssBytes) {
        long start = progress.firstAssignedNanos();
        long end = progress.finishedNanos();
        if (start == Long.MIN_VALUE) throw new IllegalStateException("finished without a partition assignment");
        double[] latencies = progress.sortedLatenciesMs();
        JsonWriter json = new JsonWriter().object()
                .field("records", progress.records())
                .field("startEpochMs", progress.epochMs(start))
                .field("endEpochMs", progress.epochMs(end))
                .key("latency").object()
                .field("count", latencies.length)
                .field("p50", percentileOfSorted(latencies, 50))
                .field("p99", percentileOfSorted(latencies, 99))
                .field("max", latencies.length == 0 ? null : latencies[latencies.length - 1])
                .end()
                .field("peakRssBytes", peakRssBytes)
                .field("baselineRssBytes", baselineRssBytes)
                .key("partitionDoneMs").array();
        for (int p = 0; p < progress.partitions(); p++) {
            long done = progress.doneAtNanos(p);
            json.value(done == Long.MIN_VALUE ? null : done == 0 ? 0.0 : Math.max(0.0, (done - start) / 1_000_000.0));
        }
        json.end().key("details").object()
                .field("ordering", args.ordering().name().toLowerCase())
                .field("maxConcurrency", args.maxConcurrency())
                .field("handled", progress.handled())
                .field("commits", progress.commits())
                .field("firstHandlerStartEpochMs", progress.epochMs(progress.firstHandlerStartNanos()))
                .field("lastHandlerEndEpochMs", progress.epochMs(progress.lastHandlerEndNanos()))
                .field("javaVersion", System.getProperty("java.version"))
                .end();
        return json.end().toString();
    }

    /** Nearest rank, as scripts/bench/stats.ts percentileOfSorted. */
    private static Double percentileOfSorted(double[] sorted, int p) {
        if (sorted.length == 0) return null;
        int rank = Math.max(1, (int) Math.ceil(p / 100.0 * sorted.length));
        return sorted[rank - 1];
    }

    /** A kB line of /proc/self/status (VmRSS, VmHWM) in bytes; 0 where the file does not exist. */
    private static long procStatusBytes(String field) throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) return 0;
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim()) * 1024;
            }
        }
        return 0;
    }
}
