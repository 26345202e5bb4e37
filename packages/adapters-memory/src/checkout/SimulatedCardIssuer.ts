import { CardIssuer, type IssuedCard, luhnValid, randomBytes, toHex } from "@svc/domain"
import { Clock, Effect, Layer, Ref } from "effect"

/** The test BIN the simulated issuer's numbers start with (a Visa test range, never a real card). */
export const SIMULATED_BIN = "400000"

/** `count` uniformly random decimal digits from the secure random source. */
const randomDigits = (count: number): Effect.Effect<string> =>
  Effect.gen(function* () {
    let digits = ""
    while (digits.length < count) {
      for (const byte of yield* randomBytes(count)) {
        // Bytes from 250 up would favour the digits 0 to 5.
        if (byte < 250 && digits.length < count) digits += String(byte % 10)
      }
    }
    return digits
  })

/** The Luhn check digit that completes `partial`. */
const luhnCheckDigit = (partial: string): string => {
  const digit = Array.from({ length: 10 }, (_, d) => String(d)).find((d) => luhnValid(`${partial}${d}`))
  // One of the ten digits always completes a number.
  return digit ?? "0"
}

/**
 * The built-in card issuer, the default adapter and the test double: 16-digit Luhn-valid Visa numbers from a test BIN,
 * expiring three years ahead, with a 3-digit CVC and a `card_tok_` token. Issuing is idempotent by intent within the
 * process, as a real issuer's idempotency key makes it; closing records nothing.
 */
export const SimulatedCardIssuer = Layer.effect(
  CardIssuer,
  Effect.gen(function* () {
    const issued = yield* Ref.make(new Map<string, IssuedCard>())
    const newCard = Effect.gen(function* () {
      const partial = `${SIMULATED_BIN}${yield* randomDigits(9)}`
      const now = new Date(yield* Clock.currentTimeMillis)
      const card: IssuedCard = {
        token: `card_tok_${toHex(yield* randomBytes(12))}`,
        number: `${partial}${luhnCheckDigit(partial)}`,
        cvc: yield* randomDigits(3),
        expMonth: now.getUTCMonth() + 1,
        expYear: now.getUTCFullYear() + 3,
        brand: "visa"
      }
      return card
    })
    return CardIssuer.of({
      issue: (request) =>
        Effect.gen(function* () {
          const known = (yield* Ref.get(issued)).get(request.intentId)
          if (known !== undefined) return known
          const card = yield* newCard
          return yield* Ref.modify(issued, (map) => {
            const raced = map.get(request.intentId)
            return raced !== undefined ? [raced, map] : [card, new Map(map).set(request.intentId, card)]
          })
        }),
      close: () => Effect.void
    })
  })
)
