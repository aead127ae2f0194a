package dev.gram.web;

import java.util.function.Predicate;

/**
 * Who is asking, once {@link WebAccess} has checked the credential: a person, who is an agent
 * with a name. The name is what a person's edits are recorded as ({@code by}); the two tests say
 * which documents the person may see and change. Today every visitor may see and change what an
 * agent on the same port may; per-agent approvals (the identity work) plug in here, and every page
 * and edit asks these two tests, never anything else.
 *
 * @param name the name edits are attributed to, e.g. {@code person:alice}
 * @param readable whether a document path (or folder path) may be shown
 * @param writable whether a document path may be changed
 */
public record Visitor(String name, Predicate<String> readable, Predicate<String> writable) {

  /** A visitor who may see and change every document. */
  public static Visitor everything(String name) {
    return new Visitor(name, p -> true, p -> true);
  }

  public boolean mayRead(String path) {
    return readable.test(path);
  }

  public boolean mayWrite(String path) {
    return writable.test(path);
  }
}
