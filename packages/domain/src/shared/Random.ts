import { Context, Effect } from "effect"

/**
 * Cryptographically secure random bytes. The default is WebCrypto, available on every runtime; tests may provide a
 * seeded source to make secrets and ids reproducible. Every secret, salt and id draws from it.
 */
export const SecureRandom = Context.Reference<(length: number) => Effect.Effect<Uint8Array>>(
  "@svc/domain/SecureRandom",
  { defaultValue: () => (length) => Effect.sync(() => crypto.getRandomValues(new Uint8Array(length))) }
)

/** `length` secure random bytes, by the `SecureRandom` in context. */
export const randomBytes = (length: number): Effect.Effect<Uint8Array> =>
  Effect.flatMap(SecureRandom, (draw) => draw(length))
