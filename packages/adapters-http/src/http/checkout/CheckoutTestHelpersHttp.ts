import { type AgentPrincipal, IssuerSimulation, type PersistenceUnavailable, type TestModeOnly } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentAgent, conflict, forbidden, notFound, serviceUnavailable } from "../../api/shared/index.ts"
import { orServiceUnavailable } from "../shared/index.ts"

/** 403 for a live credential, which the helpers never act for. */
const testModeOnly = () =>
  Effect.fail(forbidden("forbidden", "the test helpers take test-mode keys only; this key is live"))

/** Runs a helper as the request's agent, its refusals answered as the contract says. */
const asAgent = <A, E>(run: (agent: AgentPrincipal) => Effect.Effect<A, E | TestModeOnly | PersistenceUnavailable>) =>
  Effect.gen(function* () {
    return yield* run(yield* CurrentAgent)
  }).pipe(Effect.catchTag("TestModeOnly", testModeOnly), orServiceUnavailable)

export const CheckoutTestHelpersHttp = HttpApiBuilder.group(Api, "checkoutTestHelpers", (handlers) =>
  Effect.gen(function* () {
    const simulation = yield* IssuerSimulation
    const cardNotFound = (e: { readonly cardId: string }) => Effect.fail(notFound(`no card ${e.cardId}`))
    const authorizationNotFound = (e: { readonly authorizationId: string }) =>
      Effect.fail(notFound(`no card authorization ${e.authorizationId}`))
    return handlers
      .handle("authorize", ({ params, payload }) =>
        asAgent((agent) =>
          simulation.authorize(agent, params.id, payload).pipe(
            Effect.catchTags({
              SimulatedCardNotFound: cardNotFound,
              AuthorizationUnavailable: () =>
                Effect.fail(serviceUnavailable("no decision was reached in time; retry", "card_issuing_unavailable"))
            })
          )
        )
      )
      .handle("advise", ({ params, payload }) =>
        asAgent((agent) =>
          simulation.advise(agent, params.id, payload.amount).pipe(
            Effect.catchTags({
              SimulatedAuthorizationNotFound: authorizationNotFound,
              CardAdviceUnmatched: (e) => Effect.fail(conflict("card_advice_unmatched", e.message))
            })
          )
        )
      )
      .handle("clear", ({ params, payload }) =>
        asAgent((agent) =>
          simulation.clear(agent, params.id, payload.amount).pipe(
            Effect.catchTags({
              SimulatedAuthorizationNotFound: authorizationNotFound,
              CardClearingUnmatched: (e) => Effect.fail(conflict("card_clearing_unmatched", e.message))
            })
          )
        )
      )
      .handle("refund", ({ params, payload }) =>
        asAgent((agent) =>
          simulation.refund(agent, params.id, payload.amount).pipe(
            Effect.catchTags({
              SimulatedAuthorizationNotFound: authorizationNotFound,
              CardRefundUnmatched: (e) => Effect.fail(conflict("card_refund_unmatched", e.message))
            })
          )
        )
      )
      .handle("cardStatus", ({ params, payload }) =>
        asAgent((agent) =>
          simulation
            .cardChanged(agent, params.id, payload.status)
            .pipe(Effect.catchTag("SimulatedCardNotFound", cardNotFound))
        )
      )
  })
)
