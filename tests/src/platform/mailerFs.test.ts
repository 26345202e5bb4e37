import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { MailerFs } from "@svc/adapters-fs"
import { Mailer } from "@svc/domain"
import { Effect } from "effect"

describe("the file mailer (MAIL_OUTBOX_DIR)", () => {
  it.live("writes each message whole as {to, subject, text} JSON, files sorting in sending order", () =>
    Effect.gen(function* () {
      const root = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "outbox-")))
      yield* Effect.addFinalizer(() => Effect.promise(() => rm(root, { recursive: true, force: true })))
      const dir = join(root, "not", "yet", "there")
      yield* Effect.gen(function* () {
        const mailer = yield* Mailer
        for (const n of [1, 2, 3]) {
          yield* mailer.send({ to: `p${n}@example.com`, subject: `Subject ${n}`, text: `line one\nline "${n}"` })
        }
      }).pipe(Effect.provide(MailerFs(dir)))
      const files = (yield* Effect.promise(() => readdir(dir))).toSorted()
      assert.lengthOf(files, 3)
      for (const file of files) assert.match(file, /^[0-9a-f-]{36}\.json$/u)
      const messages = yield* Effect.forEach(files, (file) =>
        Effect.promise(async () => JSON.parse(await readFile(join(dir, file), "utf8")))
      )
      assert.deepStrictEqual(messages, [
        { to: "p1@example.com", subject: "Subject 1", text: 'line one\nline "1"' },
        { to: "p2@example.com", subject: "Subject 2", text: 'line one\nline "2"' },
        { to: "p3@example.com", subject: "Subject 3", text: 'line one\nline "3"' }
      ])
    }).pipe(Effect.scoped)
  )
})
