package dev.gram.web;

import dev.gram.access.Approvals;
import dev.gram.access.Identity;

/**
 * Who is asking, once {@link WebAccess} has checked the credential: a person, who is an agent
 * with a name and the approvals its credential carries ({@link Identity}, the same as an agent
 * calling {@code /mcp} with that credential). The name is what a person's edits are recorded as
 * ({@code by}); every page, search and edit asks {@link #mayRead} and {@link #mayWrite}, which
 * read the approvals as they are now, and calls the tools as {@link #identity()}.
 *
 * @param name the name edits are attributed to, e.g. {@code person:alice}
 * @param identity who the credential proves: its approvals decide what the person reaches
 */
public record Visitor(String name, Identity identity) {

  /** A visitor who may see and change every document. */
  public static Visitor everything(String name) {
    return new Visitor(name, Identity.local());
  }

  private Approvals approvals() {
    return identity.approvals();
  }

  /** A document may be shown when it is readable; a folder when it may be named (it leads to one). */
  public boolean mayRead(String path) {
    return path.endsWith(".gram") ? approvals().mayRead(path) : approvals().mayName(path);
  }

  public boolean mayWrite(String path) {
    return approvals().mayWrite(path);
  }
}
