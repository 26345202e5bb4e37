import { assert, layer } from "@effect/vitest"
import { PortsMemory, SimulatedCardIssuer } from "@svc/adapters-memory"
import { CardIssuer, CardIssuerUnavailable, CardsRepo, Checkout } from "@svc/domain"
import { Effect, Layer, Option, Ref } from "effect"
import { fundedAgent } from "../spend/SpendSetup.ts"
import { checkoutDomainOver, intent } from "./CheckoutDomainSetup.ts"

/** Whether the issuer answers. */
const issuerUp = Effect.runSync(Ref.make(true))

/** The simulated issuer, unreachable while `issuerUp` is false. */
const FlakyIssuer = Layer.effect(
  CardIssuer,
  Effect.gen(function* () {
    const simulated = yield* CardIssuer
    const down = new CardIssuerUnavailable({ message: "the issuer did not answer" })
    const whenUp = <A>(self: Effect.Effect<A, CardIssuerUnavailable>) =>
      Effect.flatMap(Ref.get(issuerUp), (up) => (up ? self : Effect.fail(down)))
    return CardIssuer.of({
      issue: (request) => whenUp(simulated.issue(request)),
      close: (token) => whenUp(simulated.close(token))
    })
  })
).pipe(Layer.provide(SimulatedCardIssuer))

layer(checkoutDomainOver(PortsMemory, FlakyIssuer))("card credentials while the issuer is down (in-memory)", (it) => {
  it.effect("the request fails and keeps no card; a retry once the issuer is back gets the number", () =>
    Effect.gen(function* () {
      const { agent } = yield* fundedAgent({ funds: 100_000 })
      const created = yield* intent(agent)
      yield* Ref.set(issuerUp, false)
      const refused = yield* Effect.flip(Checkout.use((c) => c.credentials(agent, created.id)))
      assert.strictEqual(refused._tag, "CardIssuerUnavailable")
      const after = yield* Checkout.use((c) => c.get(agent.teamId, agent.mode, created.id))
      assert.deepStrictEqual([after.status, after.card], ["approved", null])
      assert.isTrue(Option.isNone(yield* CardsRepo.use((r) => r.findByIntent(created.id))))
      yield* Ref.set(issuerUp, true)
      const credentials = yield* Checkout.use((c) => c.credentials(agent, created.id))
      assert.isString(credentials.number)
      assert.strictEqual(
        (yield* Checkout.use((c) => c.get(agent.teamId, agent.mode, created.id))).card?.id,
        credentials.cardId
      )
    })
  )
})
