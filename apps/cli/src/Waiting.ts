import { Duration, Option } from "effect"
import { Flag } from "effect/cli"

/** `--no-wait` and `--timeout`, shared by every command that may wait for a person's approval. */
export const waitFlags = {
  noWait: Flag.Boolean("no-wait").pipe(
    Flag.withDescription("Do not wait when approval is needed (exit 4)"),
    Flag.withDefault(false)
  ),
  timeout: Flag.Int("timeout").pipe(
    Flag.withDescription("Stop waiting for approval after this many seconds (exit 4 if still pending)"),
    Flag.optional
  )
}

/** The wait's `timeoutMs` when `--timeout` was given. */
export const waitTimeout = (timeout: Option.Option<number>) =>
  Option.match(timeout, {
    onNone: () => ({}),
    onSome: (s) => ({ timeoutMs: Duration.toMillis(Duration.seconds(s)) })
  })
