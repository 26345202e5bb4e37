import { Schema, Struct } from "effect"
import { Mode, TeamId } from "../shared/model.ts"
import type { SpendingFrozenBy } from "./SpendPolicy.ts"

/** A spend freeze's id. */
export const SpendFreezeId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("SpendFreezeId"))
export type SpendFreezeId = typeof SpendFreezeId.Type

/** Why spending is frozen, as the person who froze it wrote it. */
export const FreezeReason = Schema.String.check(
  Schema.isMinLength(1, { message: "expected a reason" }),
  Schema.isMaxLength(500, { message: "expected a reason of at most 500 characters" }),
  Schema.isPattern(/\S/u, { message: "expected a reason that is not only whitespace" })
)

/**
 * The kill switch: while a freeze is active (not lifted), every new money-moving request of its team (or of its one
 * spending key) is denied with `spending_frozen`, and pending approvals cannot be approved. A lifted freeze is kept.
 */
export const SpendFreeze = Schema.Struct({
  id: SpendFreezeId,
  teamId: TeamId,
  /** The one key frozen; null when the whole team is. */
  spendingKeyId: Schema.NullOr(Schema.String),
  /** The frozen key's mode; null for a team freeze, which covers both modes. */
  mode: Schema.NullOr(Mode),
  reason: Schema.String,
  frozenBy: Schema.String,
  frozenAt: Schema.String,
  liftedBy: Schema.NullOr(Schema.String),
  liftedAt: Schema.NullOr(Schema.String)
})
export type SpendFreeze = typeof SpendFreeze.Type

/** A spend freeze as clients see it. */
export const SpendFreezeView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("spend_freeze"),
  scope: Schema.Literals(["team", "spending_key"]),
  ...Struct.omit(SpendFreeze.fields, ["id", "teamId"])
})
export type SpendFreezeView = typeof SpendFreezeView.Type

/** The view of a freeze. */
export const spendFreezeView = (f: SpendFreeze): SpendFreezeView => ({
  id: f.id,
  object: "spend_freeze",
  scope: f.spendingKeyId === null ? "team" : "spending_key",
  spendingKeyId: f.spendingKeyId,
  mode: f.mode,
  reason: f.reason,
  frozenBy: f.frozenBy,
  frozenAt: f.frozenAt,
  liftedBy: f.liftedBy,
  liftedAt: f.liftedAt
})

/** What `spending_frozen` reports of the freeze that stops a credential: the team's first, else the key's own. */
export const frozenBy = (
  active: ReadonlyArray<SpendFreeze>,
  spendingKeyId: string | null
): SpendingFrozenBy | undefined => {
  const freeze =
    active.find((f) => f.spendingKeyId === null) ??
    (spendingKeyId === null ? undefined : active.find((f) => f.spendingKeyId === spendingKeyId))
  return freeze === undefined
    ? undefined
    : {
        scope: freeze.spendingKeyId === null ? "team" : "spending_key",
        reason: freeze.reason,
        frozenAt: freeze.frozenAt
      }
}

/** Spending of the request's team or key is frozen: its approval cannot be approved until the freeze is lifted. */
export class SpendingFrozen extends Schema.TaggedError<SpendingFrozen>()("SpendingFrozen", {
  message: Schema.String
}) {}
