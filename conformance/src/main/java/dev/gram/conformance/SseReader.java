package dev.gram.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads Server-Sent Events from a stream: {@code event:} names, {@code data:} lines, comments. */
final class SseReader implements AutoCloseable {
  /** One event; {@code name} is "message" when the stream named none. */
  record Event(String name, String data) {}

  private final BufferedReader in;

  SseReader(InputStream stream) {
    this.in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
  }

  /** The next event with data, or null at the end of the stream. */
  Event next() throws IOException {
    String name = null;
    StringBuilder data = null;
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) {
        if (data != null) {
          return new Event(name == null ? "message" : name, data.toString());
        }
        name = null; // an event without data (a primer, a keep-alive) is nothing to deliver
        continue;
      }
      if (line.startsWith(":")) {
        continue;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      if (field.equals("event")) {
        name = value;
      } else if (field.equals("data")) {
        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
      }
    }
    return data == null ? null : new Event(name == null ? "message" : name, data.toString());
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      // closing a stream the server may already have ended
    }
  }
}
