import { type Approval, type ApprovalView, approvalView, displayNameOf, UserId, UsersRepo } from "@svc/domain"
import { Effect, Option, Schema } from "effect"

/**
 * The views of approvals as the Postgres reads make them: each decider named as `displayNameOf` names people (the
 * full name, else the e-mail), read through the users port.
 */
export const approvalViews = Effect.gen(function* () {
  const users = yield* UsersRepo
  return (approval: Approval) =>
    approval.decidedBy === null || !Schema.is(UserId)(approval.decidedBy)
      ? Effect.succeed(approvalView(approval, null))
      : Effect.map(
          users.findById(approval.decidedBy),
          (user): ApprovalView => approvalView(approval, Option.getOrNull(Option.map(user, displayNameOf)))
        )
})

/** The view of an approval found or not (null), through `approvalViews`. */
export const viewOrNull = (viewOf: Effect.Success<typeof approvalViews>) => (approval: Option.Option<Approval>) =>
  Option.match(approval, { onNone: () => Effect.succeed(null), onSome: viewOf })
