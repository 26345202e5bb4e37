import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"
import { SpendPolicy } from "../spend/model.ts"

/** Whose policy a version is: a spending key's own, or the team's defaults. */
export const PolicySubject = Schema.Literals(["spending_key", "team"])
export type PolicySubject = typeof PolicySubject.Type

/** The most a policy may weigh, as compact JSON in UTF-8 (64 KiB). */
export const MAX_POLICY_BYTES = 65_536

/** The size of a policy as compact JSON in UTF-8, which `MAX_POLICY_BYTES` bounds. */
export const policyBytes = (policy: unknown): number => new TextEncoder().encode(JSON.stringify(policy)).length

/**
 * One immutable version of a policy: who set it, when, and the whole policy. Versions are numbered per subject from
 * 1 (a key's first is its policy at creation); a decision records the versions it was made under.
 */
export const PolicyVersion = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  subject: PolicySubject,
  /** The key of a `spending_key` version; null for the team's. */
  spendingKeyId: Schema.NullOr(Schema.String),
  version: Schema.Int,
  policy: SpendPolicy,
  /** The member who set it; null when it predates versioning. */
  createdBy: Schema.NullOr(UserId),
  createdAt: Schema.String
})
export type PolicyVersion = typeof PolicyVersion.Type

/** A policy version as its team sees it. */
export const PolicyVersionView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("policy_version"),
  subject: PolicySubject,
  spendingKeyId: Schema.NullOr(Schema.String),
  version: Schema.Int,
  policy: SpendPolicy,
  createdBy: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type PolicyVersionView = typeof PolicyVersionView.Type

/** The view of a policy version. */
export const policyVersionView = (v: PolicyVersion): PolicyVersionView => ({
  id: v.id,
  object: "policy_version",
  subject: v.subject,
  spendingKeyId: v.spendingKeyId,
  version: v.version,
  policy: v.policy,
  createdBy: v.createdBy,
  createdAt: v.createdAt
})
