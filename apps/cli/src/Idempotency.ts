import { Option } from "effect"
import { Flag } from "effect/cli"

/** `--idempotency-key`: the key to send, so that a repeated command replays the first answer. */
export const idempotencyKeyFlag = Flag.String("idempotency-key").pipe(
  Flag.withDescription("Send this Idempotency-Key (a repeated command then replays the first answer)"),
  Flag.optional
)

/** The headers of a call with the user's idempotency key, if given (the SDK makes one otherwise). */
export const idempotencyHeaders = (key: Option.Option<string>) =>
  Option.isSome(key) ? { headers: { "idempotency-key": key.value } } : {}
