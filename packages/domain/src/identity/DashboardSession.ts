import { Schema } from "effect"
import { EXAMPLE_ID, UserId } from "../shared/model.ts"

/**
 * A one-time sign-in link: the raw token is mailed once and stored only as its SHA-256 hash; it can be consumed once,
 * before `expiresAt`. `requestedFrom` is the client it was asked from (`signInClientOf`), whose allowance it spends.
 */
export const SignInLink = Schema.Struct({
  tokenHash: Schema.String,
  userId: UserId,
  requestedFrom: Schema.String,
  expiresAt: Schema.String,
  consumedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type SignInLink = typeof SignInLink.Type

/**
 * A request for a sign-in link as it is queued, in one shape whether or not the address belongs to anyone: the
 * address (normalised), the client it came from (`signInClientOf`) and when.
 */
export const QueuedLinkRequest = Schema.Struct({
  email: Schema.String,
  requestedFrom: Schema.String,
  requestedAt: Schema.String
})
export type QueuedLinkRequest = typeof QueuedLinkRequest.Type

/**
 * A dashboard session: the `svc_session` cookie of a browser that signed in, or a personal token (ADR 0057) that its
 * person created in the dashboard for the CLI and other tools, sent as a bearer token. The opaque token is stored only
 * as its SHA-256 hash; the CSRF token is random and stored as it is (it is worthless without the cookie). Live until
 * `expiresAt` or `revokedAt`.
 */
export const DashboardSession = Schema.Struct({
  id: Schema.String,
  tokenHash: Schema.String,
  userId: UserId,
  csrfToken: Schema.String,
  createdAt: Schema.String,
  expiresAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String),
  /** A personal token's name; null for a browser's sign-in session. */
  name: Schema.NullOr(Schema.String),
  /** A personal token's recognisable, non-secret part (`svcsess_…` and its last four characters); null otherwise. */
  preview: Schema.NullOr(Schema.String)
})
export type DashboardSession = typeof DashboardSession.Type

/** How long a personal token works unless its person chooses: 90 days. */
export const DEFAULT_PERSONAL_TOKEN_DAYS = 90

/** The longest a personal token may work: a year. */
export const MAX_PERSONAL_TOKEN_DAYS = 365

/** Whether the session is a personal token (a bearer credential), not a browser's sign-in. */
export const isPersonalToken = (session: DashboardSession): boolean => session.name !== null

/** A personal token as its person sees it: never the secret. */
export const PersonalTokenView = Schema.Struct({
  id: Schema.String.annotate({ description: "The token's id.", examples: [EXAMPLE_ID] }),
  object: Schema.Literal("personal_token"),
  name: Schema.String.annotate({
    description: "What the token is for, as its person named it.",
    examples: ["laptop CLI"]
  }),
  preview: Schema.String.annotate({
    description: "The token's prefix and last four characters, to recognise it (never the secret).",
    examples: ["svcsess_…x7Qa"]
  }),
  createdAt: Schema.String.annotate({
    description: "When it was created (ISO 8601 UTC).",
    examples: ["2026-11-29T09:30:00.000Z"]
  }),
  expiresAt: Schema.String.annotate({
    description: "When it stops working (ISO 8601 UTC).",
    examples: ["2027-02-27T09:30:00.000Z"]
  }),
  revokedAt: Schema.NullOr(Schema.String).annotate({
    description: "When it was revoked (ISO 8601 UTC); null while it works.",
    examples: [null]
  })
})
export type PersonalTokenView = typeof PersonalTokenView.Type

/** The view of a personal token. */
export const personalTokenView = (session: DashboardSession): PersonalTokenView => ({
  id: session.id,
  object: "personal_token",
  name: session.name ?? "",
  preview: session.preview ?? "",
  createdAt: session.createdAt,
  expiresAt: session.expiresAt,
  revokedAt: session.revokedAt
})

/** The answer to a sign-in link request: the same whether or not the address belongs to a user. */
export const SignInLinkRequestView = Schema.Struct({
  object: Schema.Literal("sign_in_link_request"),
  email: Schema.String.annotate({
    description: "The address, normalized, that the link is for.",
    examples: ["ada@acme.test"]
  }),
  localDelivery: Schema.NullOr(Schema.String).annotate({
    description:
      "In local mode (no mail provider configured), where the link is written instead of mailed, in words; null when " +
      "the service mails it.",
    examples: ['the service\'s log (the line "mail (log mailer, local use only)")']
  })
})
export type SignInLinkRequestView = typeof SignInLinkRequestView.Type

/** A dashboard session as its browser sees it: the user, when it ends and the CSRF token to send on unsafe requests. */
export const DashboardSessionView = Schema.Struct({
  object: Schema.Literal("dashboard_session"),
  user: Schema.Struct({ id: Schema.String, email: Schema.String, fullName: Schema.NullOr(Schema.String) }),
  expiresAt: Schema.String,
  csrfToken: Schema.String
})
export type DashboardSessionView = typeof DashboardSessionView.Type

/** The view of a session of `user`. */
export const dashboardSessionView = (
  session: DashboardSession,
  user: { readonly id: string; readonly email: string; readonly fullName: string | null }
): DashboardSessionView => ({
  object: "dashboard_session",
  user: { id: user.id, email: user.email, fullName: user.fullName },
  expiresAt: session.expiresAt,
  csrfToken: session.csrfToken
})

/** Whether the session is usable at `nowMs`: not revoked, not expired. */
export const isSessionLive = (session: DashboardSession, nowMs: number): boolean =>
  session.revokedAt === null && Date.parse(session.expiresAt) > nowMs
