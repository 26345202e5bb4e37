import { CryptoPayouts, cryptoPayoutView, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentAgent, conflict, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, settlementAccountMissing } from "../shared/index.ts"

export const CryptoPayoutsHttp = HttpApiBuilder.group(Api, "cryptoPayouts", (handlers) =>
  Effect.gen(function* () {
    const payouts = yield* CryptoPayouts
    const { pageOf, signedPage } = yield* listPaging
    const payoutNotFound = (id: string) => () => Effect.fail(notFound(`no crypto payout ${id}`))
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return cryptoPayoutView(yield* payouts.create(agent, { quoteId: payload.quoteId }))
        }).pipe(
          Effect.catchTags({
            CryptoQuoteNotFound: (e) => Effect.fail(notFound(`no crypto quote ${e.id}`)),
            CryptoQuoteNotUsable: (e) =>
              Effect.fail(
                e.reason === "used"
                  ? conflict("quote_used", `the quote ${e.id} was paid out already`)
                  : conflict("quote_expired", `the quote ${e.id} has expired; ask for a new one`)
              ),
            CryptoDestinationNotFound: (e) =>
              Effect.fail(notFound(`the quote's destination ${e.id} is no longer on the allow-list`)),
            CryptoPayoutInvalid: (e) =>
              Effect.fail(badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }])),
            SettlementAccountMissing: (e) => Effect.fail(settlementAccountMissing(e))
          }),
          orServiceUnavailable
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const scope = `crypto-payouts:${agent.teamId}:${agent.mode}`
          const page = yield* pageOf(scope, query)
          const rows = yield* payouts.list(agent.teamId, { mode: agent.mode, status: query.status }, page)
          return yield* signedPage(scope, toPage(page, rows, cryptoPayoutView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return cryptoPayoutView(yield* payouts.get(agent.teamId, agent.mode, params.id))
        }).pipe(Effect.catchTag("CryptoPayoutNotFound", payoutNotFound(params.id)), orServiceUnavailable)
      )
      .handle("cancel", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return cryptoPayoutView(yield* payouts.cancel(agent, params.id))
        }).pipe(
          Effect.catchTags({
            CryptoPayoutNotFound: payoutNotFound(params.id),
            CryptoPayoutNotPending: (e) =>
              Effect.fail(conflict("payout_not_pending", `the payout is ${e.status}; it can no longer be canceled`))
          }),
          orServiceUnavailable
        )
      )
  })
)
