import { paymentHeaderOf, toPage, type X402Payment, X402Payments, x402PaymentView } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentAgent, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, settlementAccountMissing } from "../shared/index.ts"

/** The payment as its agent sees it: the view and the header to retry the resource with. */
const paymentAnswer = (p: X402Payment) => ({ ...x402PaymentView(p), paymentHeader: paymentHeaderOf(p) })

export const X402PaymentsHttp = HttpApiBuilder.group(Api, "x402Payments", (handlers) =>
  Effect.gen(function* () {
    const payments = yield* X402Payments
    const { pageOf, signedPage } = yield* listPaging
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return paymentAnswer(yield* payments.create(agent, payload))
        }).pipe(
          Effect.catchTags({
            X402PaymentInvalid: (e) =>
              Effect.fail(badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }])),
            SettlementAccountMissing: (e) => Effect.fail(settlementAccountMissing(e))
          }),
          orServiceUnavailable
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const scope = `x402-payments:${agent.teamId}:${agent.mode}`
          const page = yield* pageOf(scope, query)
          const rows = yield* payments.list(agent.teamId, { mode: agent.mode, status: query.status }, page)
          return yield* signedPage(scope, toPage(page, rows, x402PaymentView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return paymentAnswer(yield* payments.get(agent.teamId, agent.mode, params.id))
        }).pipe(
          Effect.catchTag("X402PaymentNotFound", () => Effect.fail(notFound(`no x402 payment ${params.id}`))),
          orServiceUnavailable
        )
      )
      .handle("wallet", () =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return {
            object: "x402_wallet" as const,
            mode: agent.mode,
            address: yield* payments.walletAddress(agent.teamId, agent.mode)
          }
        }).pipe(orServiceUnavailable)
      )
  })
)
