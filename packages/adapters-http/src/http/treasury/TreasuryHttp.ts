import {
  type AccountId,
  Ledger,
  type SpendRequest,
  SpendRequests,
  spendRequestJson,
  type TeamId,
  toPage
} from "@svc/domain"
import { ledgerAccountView, ledgerTransactionView } from "@svc/domain/model"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentTeamPrincipal, conflict, forbidden, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"

const approval = (sr: SpendRequest) => ({
  ...sr.approval!,
  object: "approval" as const,
  spendRequest: spendRequestJson(sr)
})

/** The team the principal acts for; sessions without a team get 403. */
const principalTeam = Effect.gen(function* () {
  const principal = yield* CurrentTeamPrincipal
  if (principal.teamId === null) return yield* forbidden("team_required", "create a team first (POST /teams)")
  return { principal, teamId: principal.teamId as TeamId }
})

export const TreasuryHttp = HttpApiBuilder.group(Api, "treasury", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, pageOfList, signedPage } = yield* listPaging
    const ledger = yield* Ledger
    const spend = yield* SpendRequests

    const decide = (outcome: "approve" | "deny", id: string, note: string | undefined) =>
      Effect.gen(function* () {
        const { principal } = yield* principalTeam
        const sr = yield* spend[outcome](principal, id, note ?? null)
        return approval(sr)
      }).pipe(
        Effect.catchTags({
          ApprovalNotFound: () => Effect.fail(notFound(`no approval ${id}`)),
          SpendRequestNotPending: (e) =>
            Effect.fail(
              conflict(
                "approval_not_pending",
                `the approval can no longer be decided: the spend request is ${e.status}`
              )
            ),
          ApproverNotAllowed: (e) => Effect.fail(forbidden("forbidden", e.message))
        }),
        orServiceUnavailable
      )

    return handlers
      .handle("accounts", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return yield* pageOfList(
            `treasury-accounts:${teamId}`,
            query,
            yield* ledger.accounts(teamId, {}),
            ledgerAccountView
          )
        }).pipe(orServiceUnavailable)
      )
      .handle("ledger", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `treasury-ledger:${teamId}`
          const page = yield* pageOf(scope, query)
          const rows = yield* ledger.transactions(teamId, { accountId: query.accountId as AccountId | undefined }, page)
          return yield* signedPage(scope, toPage(page, rows, ledgerTransactionView))
        }).pipe(orServiceUnavailable)
      )
      .handle("approvals", ({ query }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          const scope = `treasury-approvals:${teamId}`
          const page = yield* pageOf(scope, query)
          const rows = yield* spend.list(
            teamId,
            { approvalStatus: query.status ?? undefined, withApproval: true },
            page
          )
          return yield* signedPage(scope, toPage(page, rows, approval))
        }).pipe(orServiceUnavailable)
      )
      .handle("approve", ({ params, payload }) => decide("approve", params.id, payload.note))
      .handle("deny", ({ params, payload }) => decide("deny", params.id, payload.note))
  })
)
