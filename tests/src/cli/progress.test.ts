import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { withProgress } from "../../../apps/cli/src/Progress.ts"

/** A terminal that keeps what was written to it. */
const terminal = (isTTY: boolean) => {
  const written: Array<string> = []
  return { written, output: { isTTY, write: (text: string) => written.push(text) } }
}

describe("the CLI's progress while it waits", () => {
  it.effect("on a terminal, the spinner turns: each frame differs from the one before, then the line is cleared", () =>
    Effect.gen(function* () {
      const { written, output } = terminal(true)
      const waiting = yield* Effect.forkChild(
        withProgress("waiting for approval", () => Effect.sleep("1 second"), output)
      )
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(waiting)
      const spun = written.filter((text) => text.startsWith("\r") && text.endsWith("waiting for approval"))
      assert.isAtLeast(spun.length, 5)
      for (let i = 1; i < spun.length; i++) assert.notStrictEqual(spun[i], spun[i - 1], `frame ${i}`)
      assert.strictEqual(written.at(-1), "\r\u001b[2K")
    })
  )

  it.effect("elsewhere (a pipe, a log), one plain line and one line per check still pending", () =>
    Effect.gen(function* () {
      const { written, output } = terminal(false)
      yield* withProgress("waiting for approval", (onPending) => Effect.sync(() => onPending()), output)
      assert.deepStrictEqual(written, ["waiting for approval\n", "waiting for approval: still pending\n"])
    })
  )
})
