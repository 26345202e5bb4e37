import { newIdText, PaymentsProvider, randomBytes, toHex } from "@svc/domain"
import { Effect, Layer } from "effect"

/**
 * The built-in payments provider, the default adapter and the test double: a payment intent `pi_sim_<id>` from the id
 * service (deterministic when the ids are) and a client secret `<id>_secret_<random hex>`. Nothing is charged; a
 * payment is reported on the `payments` webhook.
 */
export const SimulatedPaymentsProvider = Layer.succeed(
  PaymentsProvider,
  PaymentsProvider.of({
    createPaymentIntent: () =>
      Effect.gen(function* () {
        const id = `pi_sim_${(yield* newIdText).replaceAll("-", "")}`
        return { id, clientSecret: `${id}_secret_${toHex(yield* randomBytes(16))}` }
      })
  })
)
