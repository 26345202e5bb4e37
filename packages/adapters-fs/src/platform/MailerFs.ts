import { mkdir, rename, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { Mailer, newIdText } from "@svc/domain"
import { Effect, Layer } from "effect"

/**
 * A mailer that writes each message as a JSON file `{to, subject, text}` into `dir` (created when missing), named by a
 * time-ordered id so the files sort in sending order. A file appears whole (written aside, then renamed), so a reader
 * polling the directory never sees half a message. Meant for local use and browser tests: nothing is sent.
 */
export const MailerFs = (dir: string) =>
  Layer.effect(
    Mailer,
    Effect.gen(function* () {
      const base = resolve(dir)
      yield* Effect.promise(() => mkdir(base, { recursive: true }))
      return {
        localDelivery: `a JSON file in ${base}`,
        send: (message) =>
          Effect.gen(function* () {
            const id = yield* newIdText
            const json = JSON.stringify({ to: message.to, subject: message.subject, text: message.text })
            yield* Effect.tryPromise(async () => {
              await writeFile(join(base, `.${id}.tmp`), json, { flag: "wx" })
              await rename(join(base, `.${id}.tmp`), join(base, `${id}.json`))
            })
          }).pipe(
            Effect.catch((error) => Effect.logError("the file mailer could not write a message", error)),
            Effect.withSpan("MailerFs.send")
          )
      }
    })
  )
