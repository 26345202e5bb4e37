import { assert, describe, it } from "@effect/vitest"
import { Mailer } from "@svc/domain"
import { Effect, Logger } from "effect"

describe("the default mailer", () => {
  it.effect("is the log mailer: it sends nothing and writes the whole message to the log (local use only)", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const capture = Logger.make((options) => {
        lines.push(Logger.formatJson.log(options))
      })
      const mailer = yield* Mailer
      yield* mailer
        .send({ to: "bob@example.com", subject: "You are invited", text: "token svcinv_abc" })
        .pipe(Effect.provide(Logger.layer([capture])))
      assert.lengthOf(lines, 1)
      assert.include(lines[0], "local use only")
      assert.include(lines[0], "bob@example.com")
      assert.include(lines[0], "svcinv_abc")
    })
  )
})
