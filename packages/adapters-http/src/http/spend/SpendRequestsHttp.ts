import {
  type AccountId,
  type CreateSpendError,
  Ledger,
  SettlementAccountMissing,
  type SpendRequest,
  type SpendRequestId,
  SpendRequestInvalid,
  SpendRequests,
  SpendRequestView,
  spendRequestJson,
  storedSpendOutcome,
  toPage
} from "@svc/domain"
import { Effect, Option, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { IdempotentCall } from "../../api/platform/index.ts"
import { badRequest, CurrentAgent, conflict, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, settlementAccountMissing } from "../shared/index.ts"

const encodeSpendRequest = Schema.encodeEffect(SpendRequestView)

/**
 * The answer to a new spend request's outcome: 201 with the request, or the error its refusal maps to. Built here,
 * not by the HttpApi, because a retry with the same Idempotency-Key renders the stored outcome again into these exact
 * bytes (ADR 0047).
 */
const respond = <E>(outcome: Effect.Effect<SpendRequest, E | CreateSpendError>) =>
  outcome.pipe(
    Effect.flatMap((sr) => Effect.orDie(encodeSpendRequest(spendRequestJson(sr)))),
    Effect.map((body) => HttpServerResponse.jsonUnsafe(body, { status: 201 })),
    Effect.mapError(refusal)
  )

/** A stored outcome of `createOnce` as the answer it was first (ADR 0047). */
const renderStored = (outcome: Schema.Json) => respond(storedSpendOutcome(outcome))

/** The answer to a refused spend request body, for create and its dry run alike. */
const refusal = <E>(e: E | CreateSpendError) =>
  e instanceof SpendRequestInvalid
    ? badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }])
    : e instanceof SettlementAccountMissing
      ? settlementAccountMissing(e)
      : (e as Exclude<E, CreateSpendError>)

export const SpendEvaluationHttp = HttpApiBuilder.group(Api, "spendEvaluation", (handlers) =>
  Effect.gen(function* () {
    const spend = yield* SpendRequests
    return handlers.handle("evaluate", ({ payload }) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        return yield* spend.evaluate(agent, payload).pipe(Effect.mapError(refusal))
      }).pipe(orServiceUnavailable)
    )
  })
)

export const SpendRequestsHttp = HttpApiBuilder.group(Api, "spendRequests", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const spend = yield* SpendRequests
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const call = yield* Effect.serviceOption(IdempotentCall)
          if (Option.isNone(call)) return yield* respond(spend.create(agent, payload))
          const { once, stored, replayed, unanswered } = call.value
          if (Option.isSome(stored)) return yield* replayed(renderStored(stored.value))
          return yield* respond(spend.createOnce(agent, payload, once)).pipe(
            Effect.catchTags({
              IdempotencyKeyInUse: (e) => unanswered(e, renderStored),
              AnsweredMeanwhile: (e) => unanswered(e, renderStored)
            })
          )
        }).pipe(orServiceUnavailable)
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
