package dev.gram.tools.spi;

import dev.gram.access.Identity;
import java.util.List;
import java.util.Map;

/**
 * MCP prompts: ready-made requests that help an agent use the memory well. {@link #get} throws a
 * {@link dev.gram.base.GramException} with {@code E_ARGUMENT} for an unknown prompt or a missing
 * required argument.
 */
public interface Prompts {

  List<Prompt> list();

  /** The prompt's messages with {@code arguments} filled in. */
  Rendered get(String name, Map<String, String> arguments);

  /**
   * These prompts as {@code caller} may use them: a prompt that names a path or folder outside
   * the caller's approvals is refused as a tool would refuse it.
   */
  default Prompts as(Identity caller) {
    return this;
  }

  /** A prompt as {@code prompts/list} shows it. */
  record Prompt(String name, String title, String description, List<Argument> arguments) {}

  /** One argument a prompt takes. */
  record Argument(String name, String description, boolean required) {}

  /** What {@code prompts/get} answers: a description and the messages (role, text). */
  record Rendered(String description, List<Message> messages) {}

  /** One message of a prompt; {@code role} is {@code user} or {@code assistant}. */
  record Message(String role, String text) {}
}
