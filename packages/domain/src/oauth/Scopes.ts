import { Result } from "effect"

/** The scopes of the OAuth scheme (SPEC.md): what clients may request and API keys may carry. */
export const OAUTH_SCOPES = [
  "bank-accounts.read",
  "bank-accounts.write",
  "customers.read",
  "customers.write",
  "documents.read",
  "documents.write",
  "inbox.read",
  "inbox.write",
  "invoices.read",
  "invoices.write",
  "reports.read",
  "search.read",
  "tags.read",
  "tags.write",
  "teams.read",
  "teams.write",
  "tracker-entries.read",
  "tracker-entries.write",
  "tracker-projects.read",
  "tracker-projects.write",
  "transactions.read",
  "transactions.write",
  "users.read",
  "users.write",
  "notifications.read",
  "notifications.write",
  "spend.read",
  "spend.write",
  "accounts.read"
] as const
export type OAuthScope = (typeof OAUTH_SCOPES)[number]

/** The scopes the authorization decision accepts in addition to the OAuth scheme's. */
export const DECISION_EXTRA_SCOPES = [
  "compliance.read",
  "compliance.write",
  "trade.read",
  "trade.write",
  "payment_requests.read",
  "payment_requests.create",
  "apis.all",
  "apis.read"
] as const

/** Every scope a user may grant in the authorization decision. */
export const DECISION_SCOPES = [...OAUTH_SCOPES, ...DECISION_EXTRA_SCOPES] as const

/**
 * Parses an RFC 6749 space-separated scope string against the allowed scopes: duplicates collapse, order is kept;
 * fails with the first unknown scope, or with `""` when nothing is requested.
 */
export const parseScope = (
  raw: string,
  allowed: ReadonlyArray<string>
): Result.Result<ReadonlyArray<string>, string> => {
  const requested = [...new Set(raw.split(" ").filter((s) => s !== ""))]
  if (requested.length === 0) return Result.fail("")
  const unknown = requested.find((s) => !allowed.includes(s))
  return unknown === undefined ? Result.succeed(requested) : Result.fail(unknown)
}

/** The RFC 6749 space-separated form of a scope list. */
export const formatScope = (scopes: ReadonlyArray<string>): string => scopes.join(" ")

/** Whether every scope of `requested` is in `granted`. */
export const isSubset = (requested: ReadonlyArray<string>, granted: ReadonlyArray<string>): boolean =>
  requested.every((s) => granted.includes(s))
