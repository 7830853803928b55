package warden.bench;

/**
 * The few JSON shapes the harness prints: nested objects and arrays of numbers, strings and nulls. Non-finite
 * numbers are written as null (JSON has no NaN).
 */
final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    /** Whether the innermost open object or array already holds a member, so the next one needs a comma. */
    private final java.util.ArrayDeque<boolean[]> open = new java.util.ArrayDeque<>();

    JsonWriter object() {
        beforeValue();
        out.append('{');
        open.push(new boolean[] {false, true});
        return this;
    }

    JsonWriter array() {
        beforeValue();
        out.append('[');
        open.push(new boolean[] {false, false});
        return this;
    }

    JsonWriter end() {
        boolean[] closing = open.pop();
        out.append(closing[1] ? '}' : ']');
        return this;
    }

    JsonWriter key(String name) {
        boolean[] current = open.peek();
        if (current == null || !current[1]) throw new IllegalStateException("a key outside an object");
        if (current[0]) out.append(',');
        current[0] = true;
        string(name);
        out.append(':');
        return this;
    }

    JsonWriter field(String name, Object value) {
        return key(name).rawValue(value);
    }

    JsonWriter value(Object value) {
        beforeValue();
        return rawValue(value);
    }

    private void beforeValue() {
        boolean[] current = open.peek();
        if (current == null || current[1]) return;
        if (current[0]) out.append(',');
        current[0] = true;
    }

    private JsonWriter rawValue(Object value) {
        if (value == null) out.append("null");
        else if (value instanceof Double d) out.append(Double.isFinite(d) ? d.toString() : "null");
        else if (value instanceof Number n) out.append(n.toString());
        else if (value instanceof Boolean b) out.append(b.toString());
        else string(value.toString());
        return this;
    }

    private void string(String value) {
        out.append('"');
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
