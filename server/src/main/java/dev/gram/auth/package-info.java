/**
 * Credentials: how an HTTP request proves who sent it, for {@link dev.gram.access.Authenticator}.
 *
 * <h2>What it owns</h2>
 *
 * <ul>
 *   <li>{@link dev.gram.auth.Credentials}: the server's authenticator, combining what its flags
 *       configure: the shared {@code --token} ({@code SharedToken}, one caller with every
 *       approval and no name), the agents file, OAuth access tokens.
 *   <li>{@link dev.gram.auth.AgentsFile} (the file's format, its checks, new tokens and their
 *       digests, the atomic rewrite {@code agents add} and {@code agents revoke} use) and {@link
 *       dev.gram.auth.AgentDirectory} (the file as a running server holds it, re-read every second
 *       so changes apply without a restart).
 *   <li>{@link dev.gram.auth.OAuthResource} with {@link dev.gram.auth.OAuthSettings} and {@code
 *       Scopes}: the OAuth 2.1 resource server of the MCP specification — issuer discovery, the
 *       issuer's keys (fetched again on an unknown key id), the token's checks, scopes as
 *       approvals, the protected-resource metadata and the challenges.
 * </ul>
 *
 * <h2>Design</h2>
 *
 * <p>Every credential resolves to an {@link dev.gram.access.Identity} or a {@link
 * dev.gram.access.Refusal}; nothing here decides what an identity may reach beyond giving it its
 * approvals (the decision is {@link dev.gram.access.Approvals}'). Tokens are never stored (only
 * SHA-256 digests of random 256-bit tokens) and never logged. JWT signatures are checked by
 * Vert.x's JWT support, not by code of ours.
 *
 * <h2>What it may not touch</h2>
 *
 * <p>Only {@code dev.gram.base}, {@code dev.gram.async} and {@code dev.gram.access}; the server
 * alone wires it, and front ends see it only as an {@code Authenticator}.
 */
package dev.gram.auth;
