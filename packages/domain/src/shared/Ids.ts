import { Clock, Context, Effect, Schema } from "effect"
import { toHex } from "./internal/Encoding.ts"
import { randomBytes } from "./Random.ts"

const Uuid = Schema.String.check(Schema.isUUID())

/** The id the API reference shows in its examples: one UUID for every kind of id. */
export const EXAMPLE_ID = "3f0c2a9e-5b7d-4c1e-9a2f-8d6b4e1c7a90"

/** A team (workspace) id. */
export const TeamId = Uuid.pipe(Schema.brand("TeamId"))
export type TeamId = typeof TeamId.Type

/** A user id (the session JWT `sub`). */
export const UserId = Uuid.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

/** A ledger account id. */
export const AccountId = Uuid.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type

/** A ledger transaction id. */
export const LedgerTransactionId = Uuid.pipe(Schema.brand("LedgerTransactionId"))
export type LedgerTransactionId = typeof LedgerTransactionId.Type

const SEQUENCE_MAX = 0xfff

/**
 * A UUID version 7 from its parts: 48 bits of epoch milliseconds, a 12-bit sequence within that millisecond, and at
 * least 8 random bytes for the rest.
 */
export const uuidv7Of = (millis: number, sequence: number, random: Uint8Array): string => {
  const bytes = new Uint8Array(16)
  const time = BigInt(millis)
  for (let i = 0; i < 6; i++) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f)
  bytes[7] = sequence & 0xff
  for (let i = 8; i < 16; i++) bytes[i] = random[i - 8] ?? 0
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f)
  const hex = toHex(bytes)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * Time-ordered UUIDv7 ids from the `Clock` and `SecureRandom` in context: each id sorts after every id this
 * generator made before it, even within one millisecond or when the clock stands still or steps back.
 */
export const uuidv7Generator = (): Effect.Effect<string> => {
  let lastMillis = -1
  let sequence = 0
  return Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    if (now > lastMillis) {
      lastMillis = now
      sequence = 0
    } else if (sequence < SEQUENCE_MAX) {
      sequence++
    } else {
      lastMillis++
      sequence = 0
    }
    return uuidv7Of(lastMillis, sequence, yield* randomBytes(8))
  })
}

/** Where new ids come from: time-ordered UUIDv7 by default; a test may provide a deterministic source. */
export const Ids = Context.Reference<Effect.Effect<string>>("@svc/domain/Ids", { defaultValue: uuidv7Generator })

/** A fresh id (time-ordered by default) for any id schema. */
export const newId = <A>(schema: { readonly make: (s: string) => A }): Effect.Effect<A> =>
  Effect.map(Effect.flatten(Ids), (id) => schema.make(id))

/** A fresh id as plain text (events, rows without a branded id). */
export const newIdText: Effect.Effect<string> = Effect.flatten(Ids)
