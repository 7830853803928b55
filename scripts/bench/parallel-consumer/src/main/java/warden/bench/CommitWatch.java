package warden.bench;

import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.Map;

/**
 * The consumer's interceptor (interceptor.classes): stamps each record when the consumer's poll returns it,
 * and feeds every acknowledged commit to the run's BenchProgress. Kafka calls onCommit only for a commit the
 * coordinator accepted, so the window ends on the same event as Warden's ("committed" after the response).
 */
public final class CommitWatch implements ConsumerInterceptor<byte[], byte[]> {
    @Override
    public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
        BenchProgress progress = BenchProgress.current;
        if (progress != null) {
            for (ConsumerRecord<byte[], byte[]> record : records) progress.fetched(record.partition(), record.offset());
        }
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        BenchProgress progress = BenchProgress.current;
        if (progress == null) return;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : offsets.entrySet()) {
            progress.committed(entry.getKey().partition(), entry.getValue().offset());
        }
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
