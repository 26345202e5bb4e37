import { Duration, Effect, Fiber } from "effect"

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

const write = (text: string) => Effect.sync(() => process.stderr.write(text))

/**
 * Runs `wait` while showing that it waits, on stderr only: a spinner that turns every 100 ms when stderr is a
 * terminal, else one plain line per check (`onPending` is called by `wait` at each check that is still pending).
 */
export const withProgress = <A, E, R>(label: string, wait: (onPending: () => void) => Effect.Effect<A, E, R>) =>
  process.stderr.isTTY === true
    ? Effect.gen(function* () {
        let frame = 0
        // Suspended, so each turn writes the next frame rather than the first one again.
        const turn = Effect.suspend(() => write(`\r${frames[frame++ % frames.length]} ${label}`))
        const spinner = yield* Effect.forkChild(
          Effect.forever(turn.pipe(Effect.andThen(Effect.sleep(Duration.millis(100)))))
        )
        return yield* wait(() => undefined).pipe(
          Effect.ensuring(Fiber.interrupt(spinner).pipe(Effect.andThen(write("\r\u001b[2K"))))
        )
      })
    : write(`${label}\n`).pipe(Effect.andThen(wait(() => process.stderr.write(`${label}: still pending\n`))))
