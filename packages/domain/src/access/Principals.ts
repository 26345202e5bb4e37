import type { Role } from "../identity/model.ts"
import type { AccountId, Mode, TeamId, UserId } from "../shared/model.ts"
import type { SpendPolicy } from "../spend/model.ts"

/** Scopes a team API key may carry on /v1, and that OAuth tokens need on /treasury. */
export const SPEND_SCOPES = ["spend.read", "spend.write", "accounts.read"] as const
export type SpendScope = (typeof SPEND_SCOPES)[number]

/** An agent calling /v1 with a spending key or a team API key; it sees only its team and mode. */
export interface AgentPrincipal {
  readonly kind: "spending_key" | "team_key"
  readonly keyId: string
  readonly teamId: TeamId
  readonly mode: Mode
  /** The spending key's account; null for team API keys. */
  readonly accountId: AccountId | null
  /** null grants every /v1 scope (spending keys). */
  readonly scopes: ReadonlyArray<string> | null
  /** The spending key's own policy as of authentication; null for team API keys (team defaults only). */
  readonly policy: SpendPolicy | null
  /** The version of `policy`, read with it; null (or absent) for team API keys. */
  readonly policyVersion?: number | null | undefined
}

/** A person or app acting for a team: a session, an OAuth token, a generic API key, or a linked chat user. */
export interface TeamPrincipal {
  readonly kind: "session" | "oauth" | "api_key" | "chat"
  readonly userId: UserId
  /** The team acted for; null only for a session user who has no team yet. */
  readonly teamId: TeamId | null
  /** The user's role in that team, when known. */
  readonly role: Role | null
  /** null grants every scope (sessions, and API keys created without scopes). */
  readonly scopes: ReadonlyArray<string> | null
  readonly credentialId: string
}

/** Whether a principal's scopes grant a scope. */
export const hasScope = (scopes: ReadonlyArray<string> | null, scope: string): boolean =>
  scopes === null || scopes.includes(scope)
