import {
  Checkout,
  type CheckoutIntentInvalid,
  type CheckoutIntentNotUsable,
  checkoutIntentView,
  toPage
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentAgent, conflict, notFound, serviceUnavailable } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, settlementAccountMissing } from "../shared/index.ts"

const intentInvalid = (e: CheckoutIntentInvalid) =>
  Effect.fail(badRequest("validation_failed", e.message, [{ path: e.field, message: e.message }]))

/** 409 naming the intent's status. */
const intentNotUsable = (e: CheckoutIntentNotUsable) =>
  Effect.fail(conflict("checkout_intent_not_usable", `the checkout intent is ${e.status}`))

const intentNotFound = (id: string) => () => Effect.fail(notFound(`no checkout intent ${id}`))

export const CheckoutHttp = HttpApiBuilder.group(Api, "checkout", (handlers) =>
  Effect.gen(function* () {
    const checkout = yield* Checkout
    const { pageOf, signedPage } = yield* listPaging
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return checkoutIntentView(yield* checkout.create(agent, payload))
        }).pipe(
          Effect.catchTags({
            CheckoutIntentInvalid: intentInvalid,
            SettlementAccountMissing: (e) => Effect.fail(settlementAccountMissing(e))
          }),
          orServiceUnavailable
        )
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          const scope = `checkout-intents:${agent.teamId}:${agent.mode}`
          const page = yield* pageOf(scope, query)
          const rows = yield* checkout.list(agent.teamId, { mode: agent.mode, status: query.status }, page)
          return yield* signedPage(scope, toPage(page, rows, checkoutIntentView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return checkoutIntentView(yield* checkout.get(agent.teamId, agent.mode, params.id))
        }).pipe(Effect.catchTag("CheckoutIntentNotFound", intentNotFound(params.id)), orServiceUnavailable)
      )
      .handle("cancel", ({ params }) =>
        Effect.gen(function* () {
          const agent = yield* CurrentAgent
          return checkoutIntentView(yield* checkout.cancel(agent, params.id))
        }).pipe(
          Effect.catchTags({
            CheckoutIntentNotFound: intentNotFound(params.id),
            CheckoutIntentNotUsable: intentNotUsable
          }),
          orServiceUnavailable
        )
      )
  })
)

export const CheckoutCredentialsHttp = HttpApiBuilder.group(Api, "checkoutCredentials", (handlers) =>
  Effect.gen(function* () {
    const checkout = yield* Checkout
    return handlers.handle("credentials", ({ params }) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        return yield* checkout.credentials(agent, params.id)
      }).pipe(
        Effect.catchTags({
          CheckoutIntentNotFound: intentNotFound(params.id),
          CheckoutIntentNotUsable: intentNotUsable,
          CardIssuerUnavailable: () =>
            Effect.fail(serviceUnavailable("the card issuer is unavailable; retry later", "card_issuer_unavailable"))
        }),
        orServiceUnavailable
      )
    )
  })
)
