import { Duration, Effect, Fiber } from "effect"

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

const write = (text: string) => Effect.sync(() => process.stderr.write(text))

/**
 * Runs `wait` while showing that it waits, on stderr only, from the first check that is still pending (`onPending`,
 * which `wait` calls at each such check) and not before, so a wait that needs none shows nothing: a spinner that turns
 * every 100 ms when stderr is a terminal, else `label` on one line and a plain line per later check.
 */
export const withProgress = <A, E, R>(label: string, wait: (onPending: () => void) => Effect.Effect<A, E, R>) =>
  process.stderr.isTTY === true
    ? Effect.gen(function* () {
        let frame = 0
        let pending = false
        // Suspended, so each turn writes the next frame rather than the first one again.
        const turn = Effect.suspend(() =>
          pending ? write(`\r${frames[frame++ % frames.length]} ${label}`) : Effect.void
        )
        const spinner = yield* Effect.forkChild(
          Effect.forever(turn.pipe(Effect.andThen(Effect.sleep(Duration.millis(100)))))
        )
        return yield* wait(() => {
          pending = true
        }).pipe(
          Effect.ensuring(
            Fiber.interrupt(spinner).pipe(
              Effect.andThen(Effect.suspend(() => (pending ? write("\r\u001b[2K") : Effect.void)))
            )
          )
        )
      })
    : Effect.suspend(() => {
        let checks = 0
        return wait(() => process.stderr.write(checks++ === 0 ? `${label}\n` : `${label}: still pending\n`))
      })
