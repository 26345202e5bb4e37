import { Schema } from "effect"
import { AccountId, Mode, TeamId, UserId } from "../shared/model.ts"
import { SpendPolicy } from "../spend/model.ts"

/** A spending key's id. */
export const SpendingKeyId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("SpendingKeyId"))
export type SpendingKeyId = typeof SpendingKeyId.Type

/** What is shown of a key after creation: never the secret, only its first characters. */
const keyBase = {
  id: Schema.String,
  teamId: TeamId,
  mode: Mode,
  name: Schema.String,
  displayPrefix: Schema.String,
  createdBy: UserId,
  createdAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String)
}

/** A spending key: bound to a team, a mode and an account, with its own policy. */
export const SpendingKey = Schema.Struct({
  ...keyBase,
  accountId: AccountId,
  policy: SpendPolicy,
  /** The version of `policy` (1 at creation, one more at each change). */
  policyVersion: Schema.Int
})
export type SpendingKey = typeof SpendingKey.Type

/** A team API key (`svcteam_`): /v1 access by scope, no account of its own. */
export const TeamApiKey = Schema.Struct({ ...keyBase, scopes: Schema.Array(Schema.String) })
export type TeamApiKey = typeof TeamApiKey.Type

/** A spending key as its team sees it: never its secret. */
export const SpendingKeyView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("spending_key"),
  name: Schema.String,
  mode: Mode,
  accountId: Schema.String,
  policy: SpendPolicy,
  policyVersion: Schema.Int,
  prefix: Schema.String,
  createdAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String)
})
export type SpendingKeyView = typeof SpendingKeyView.Type

/** The view of a spending key. */
export const spendingKeyView = (key: SpendingKey): SpendingKeyView => ({
  id: key.id,
  object: "spending_key",
  name: key.name,
  mode: key.mode,
  accountId: key.accountId,
  policy: key.policy,
  policyVersion: key.policyVersion,
  prefix: key.displayPrefix,
  createdAt: key.createdAt,
  revokedAt: key.revokedAt
})

/** A team API key as its team sees it: never its secret. */
export const TeamApiKeyView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("team_api_key"),
  name: Schema.String,
  mode: Mode,
  scopes: Schema.Array(Schema.String),
  prefix: Schema.String,
  createdAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String)
})
export type TeamApiKeyView = typeof TeamApiKeyView.Type

/** The view of a team API key. */
export const teamApiKeyView = (key: TeamApiKey): TeamApiKeyView => ({
  id: key.id,
  object: "team_api_key",
  name: key.name,
  mode: key.mode,
  scopes: key.scopes,
  prefix: key.displayPrefix,
  createdAt: key.createdAt,
  revokedAt: key.revokedAt
})
