package dev.gram.base;

/** The error codes of the tool contract. The name is the code on the wire. */
public enum ErrorCode {
  E_ARGUMENT,
  E_PATH,
  E_READ_ONLY,
  STALE_READ,
  STALE_CURSOR,
  E_CURSOR,
  E_REQUEST_REUSE,
  E_REQUEST_ID,
  E_CAS_REQUIRED,
  STALE_REVISION,
  COMMIT_UNKNOWN,
  E_STORAGE,
  E_INTEGRITY,
  E_TIMEOUT,
  E_INTERNAL,
  E_UNKNOWN_TOOL,
  E_CONTEXT_BUDGET,
  E_TOO_MANY_DOCUMENTS,
  E_TIME_NOT_RECORDED
}
