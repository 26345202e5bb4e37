import { Schema } from "effect"

const Uuid = Schema.String.check(Schema.isUUID())

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

let lastMillis = 0
let sequence = 0

/** A time-ordered UUID (version 7): ids created later in this process sort after earlier ones. */
export const uuidv7 = (): string => {
  const now = Date.now()
  sequence = now === lastMillis ? sequence + 1 : 0
  lastMillis = now
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const time = BigInt(now)
  for (let i = 0; i < 6; i++) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f)
  bytes[7] = sequence & 0xff
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f)
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A fresh time-ordered id for any id schema. */
export const newId = <A>(schema: { readonly make: (s: string) => A }): A => schema.make(uuidv7())
