import { Duration, Effect, Fiber } from "effect"

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

/** Where progress is shown: stderr unless a caller gives another stream (a test records it). */
export interface ProgressOutput {
  readonly isTTY?: boolean | undefined
  readonly write: (text: string) => unknown
}

/**
 * Runs `wait` while showing that it waits, on `output` (stderr) only: a spinner that turns every 100 ms when the
 * output is a terminal, else one plain line per check (`onPending` is called by `wait` at each check still pending).
 */
export const withProgress = <A, E, R>(
  label: string,
  wait: (onPending: () => void) => Effect.Effect<A, E, R>,
  output: ProgressOutput = process.stderr
) => {
  const write = (text: string) => Effect.sync(() => output.write(text))
  if (output.isTTY !== true) {
    return write(`${label}\n`).pipe(Effect.andThen(wait(() => output.write(`${label}: still pending\n`))))
  }
  return Effect.gen(function* () {
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
}
