import { type AccountId, Ledger, type SpendRequestId, SpendRequests, spendRequestJson, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentAgent, conflict, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable } from "../shared/index.ts"

export const SpendRequestsHttp = HttpApiBuilder.group(Api, "spendRequests", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const spend = yield* SpendRequests
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const sr = yield* spend.create(agent, {
            amount: payload.amount,
            currency: payload.currency,
            merchant: payload.merchant,
            purpose: payload.purpose,
            accountId: payload.accountId as AccountId | undefined,
            metadata: payload.metadata
          })
          return spendRequestJson(sr)
        }).pipe(
          Effect.catchTags({
            SpendRequestInvalid: (e) =>
              Effect.fail(badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }])),
            SettlementAccountMissing: (e) =>
              Effect.fail(
                conflict(
                  "settlement_account_missing",
                  `the team has no ${e.mode} settlement account in ${e.currency}, so it cannot spend in ${e.currency}`
                )
              )
          }),
          orServiceUnavailable
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const scope = `spend-requests:${agent.teamId}:${agent.mode}`
          const page = yield* pageOf(scope, query)
          const rows = yield* spend.list(agent.teamId, { mode: agent.mode, status: query.status }, page)
          return yield* signedPage(scope, toPage(page, rows, spendRequestJson))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return spendRequestJson(yield* spend.get(agent.teamId, agent.mode, params.id as SpendRequestId))
        }).pipe(
          Effect.catchTag("SpendRequestNotFound", () => Effect.fail(notFound(`no spend request ${params.id}`))),
          orServiceUnavailable
        )
      )
      .handle("cancel", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return spendRequestJson(yield* spend.cancel(agent, params.id as SpendRequestId))
        }).pipe(
          Effect.catchTags({
            SpendRequestNotFound: () => Effect.fail(notFound(`no spend request ${params.id}`)),
            SpendRequestNotPending: (e) =>
              Effect.fail(
                conflict(
                  "spend_request_not_pending",
                  `the spend request is ${e.status}; only pending_approval can be canceled`
                )
              )
          }),
          orServiceUnavailable
        )
      )
  })
)

export const TestHelpersHttp = HttpApiBuilder.group(Api, "testHelpers", (handlers) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    return handlers.handle("deposit", ({ payload }) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        if (agent.mode !== "test") return yield* notFound("test helpers exist only for test-mode keys")
        const accountId = (payload.accountId ?? agent.accountId) as AccountId | null
        const account = yield* ledger.spendAccount(agent.teamId, "test", accountId).pipe(
          Effect.catchTags({
            AccountNotFound: (e) => Effect.fail(notFound(`no test spend account ${e.accountId}`)),
            NoSpendAccount: () => Effect.fail(notFound("no test spend account"))
          })
        )
        if (account.currency !== payload.currency) {
          return yield* badRequest("validation_failed", `the account holds ${account.currency}`, [
            { path: "currency", message: `the account holds ${account.currency}, not ${payload.currency}` }
          ])
        }
        const tx = yield* ledger.deposit({
          teamId: agent.teamId,
          mode: "test",
          accountId: account.id,
          amount: payload.amount,
          currency: payload.currency,
          reference: `test-helper:${crypto.randomUUID()}`
        })
        const after = yield* ledger.account(agent.teamId, account.id)
        return {
          object: "deposit" as const,
          accountId: account.id,
          amount: payload.amount,
          currency: payload.currency,
          ledgerTransactionId: tx.id,
          balance: after.balance
        }
      }).pipe(
        Effect.catchTags({
          AccountNotFound: (e) => Effect.fail(notFound(`no account ${e.accountId}`)),
          // A positive amount into the team's own spend account, in its currency, under a fresh reference.
          InsufficientFunds: Effect.die,
          UnbalancedTransaction: Effect.die,
          DuplicateLedgerTransaction: Effect.die
        }),
        orServiceUnavailable
      )
    )
  })
)
