import { ApprovalChains, SpendFreezes, spendFreezeView, type TeamId } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentTeamPrincipal, conflict, forbidden, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"

/** The team the principal acts for; sessions without a team get 403. */
const principalTeam = Effect.gen(function* () {
  const principal = yield* CurrentTeamPrincipal
  if (principal.teamId === null) return yield* forbidden("team_required", "create a team first (POST /teams)")
  return { principal, teamId: principal.teamId as TeamId }
})

export const GovernanceHttp = HttpApiBuilder.group(Api, "governance", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const chains = yield* ApprovalChains
    const freezes = yield* SpendFreezes
    const notAllowed = (e: { readonly message: string }) => Effect.fail(forbidden("forbidden", e.message))
    return handlers
      .handle("getApprovalRules", () =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return yield* chains.get(teamId)
        }).pipe(orServiceUnavailable)
      )
      .handle("setApprovalRules", ({ payload }) =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          return yield* chains.set(principal, teamId, payload)
        }).pipe(
          Effect.catchTags({
            ApproverNotAllowed: notAllowed,
            ApprovalRulesInvalid: (e) =>
              Effect.fail(badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }]))
          }),
          orServiceUnavailable
        )
      )
      .handle("listSpendFreezes", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const active = (yield* freezes.active(teamId)).map((freeze) => ({
            createdAt: freeze.frozenAt,
            id: freeze.id,
            freeze
          }))
          return yield* pageOfList(`spend-freezes:${teamId}`, query, active, (row) => spendFreezeView(row.freeze))
        }).pipe(orServiceUnavailable)
      )
      .handle("freezeSpending", ({ payload }) =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          return spendFreezeView(yield* freezes.freeze(principal, teamId, payload))
        }).pipe(
          Effect.catchTags({
            FreezeNotAllowed: notAllowed,
            FreezeKeyNotFound: (e) => Effect.fail(notFound(`no live key ${e.keyId}`)),
            AlreadyFrozen: (e) =>
              Effect.fail(conflict("already_frozen", `spending of that scope is already frozen (freeze ${e.freezeId})`))
          }),
          orServiceUnavailable
        )
      )
      .handle("liftSpendFreeze", ({ query }) =>
        Effect.gen(function* () {
          const { principal, teamId } = yield* principalTeam
          return spendFreezeView(yield* freezes.lift(principal, teamId, query.spendingKeyId ?? null))
        }).pipe(
          Effect.catchTags({
            FreezeNotAllowed: notAllowed,
            NotFrozen: (e) => Effect.fail(notFound(e.message))
          }),
          orServiceUnavailable
        )
      )
  })
)
