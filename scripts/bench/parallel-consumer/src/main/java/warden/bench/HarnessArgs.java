package warden.bench;

import io.confluent.parallelconsumer.ParallelConsumerOptions.ProcessingOrder;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The harness's command line: every setting comes from the bench (scripts/bench/parallel-consumer-runs.ts), none
 * has a default here. An unknown, missing or malformed flag is a usage error naming it.
 */
record HarnessArgs(
        String brokers,
        String topic,
        String groupId,
        ProcessingOrder ordering,
        int maxConcurrency,
        int handlerMs,
        long[] endOffsets,
        int commitIntervalMs,
        long timeoutMs) {

    static final String USAGE = "usage: java -jar pc-bench-harness.jar --brokers host:port[,host:port] --topic T --group G"
            + " --ordering unordered|key|partition --max-concurrency N --handler-ms N --end-offsets N[,N...]"
            + " --commit-interval-ms N --timeout-ms N";

    private static final Set<String> FLAGS = Set.of("--brokers", "--topic", "--group", "--ordering", "--max-concurrency",
            "--handler-ms", "--end-offsets", "--commit-interval-ms", "--timeout-ms");

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static HarnessArgs parse(String[] argv) throws UsageException {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < argv.length; i += 2) {
            String flag = argv[i];
            if (!FLAGS.contains(flag)) throw new UsageException("unknown argument " + flag);
            if (i + 1 >= argv.length) throw new UsageException(flag + " needs a value");
            if (values.put(flag, argv[i + 1]) != null) throw new UsageException(flag + " given twice");
        }
        for (String flag : FLAGS) {
            if (!values.containsKey(flag)) throw new UsageException("missing " + flag);
        }
        long[] endOffsets;
        try {
            endOffsets = Arrays.stream(values.get("--end-offsets").split(",")).mapToLong(Long::parseLong).toArray();
        } catch (NumberFormatException e) {
            throw new UsageException("--end-offsets must be comma-separated integers, got " + values.get("--end-offsets"));
        }
        if (Arrays.stream(endOffsets).anyMatch(end -> end < 0) || Arrays.stream(endOffsets).allMatch(end -> end == 0)) {
            throw new UsageException("--end-offsets must be non-negative with at least one record, got " + values.get("--end-offsets"));
        }
        return new HarnessArgs(
                values.get("--brokers"),
                values.get("--topic"),
                values.get("--group"),
                ordering(values.get("--ordering")),
                positive(values, "--max-concurrency"),
                nonNegative(values, "--handler-ms"),
                endOffsets,
                nonNegative(values, "--commit-interval-ms"),
                positive(values, "--timeout-ms"));
    }

    private static ProcessingOrder ordering(String value) throws UsageException {
        return switch (value) {
            case "unordered" -> ProcessingOrder.UNORDERED;
            case "key" -> ProcessingOrder.KEY;
            case "partition" -> ProcessingOrder.PARTITION;
            default -> throw new UsageException("--ordering must be one of " + List.of("unordered", "key", "partition") + ", got " + value);
        };
    }

    private static int nonNegative(Map<String, String> values, String flag) throws UsageException {
        try {
            int value = Integer.parseInt(values.get(flag));
            if (value < 0) throw new NumberFormatException();
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " must be a non-negative integer, got " + values.get(flag));
        }
    }

    private static int positive(Map<String, String> values, String flag) throws UsageException {
        int value = nonNegative(values, flag);
        if (value == 0) throw new UsageException(flag + " must be positive, got 0");
        return value;
    }
}
