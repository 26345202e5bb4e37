import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert } from "@effect/vitest"
import { Effect, Logger, References } from "effect"
import { fileKeyOf, inboxMail, jsonOf, pdfBytes, type RawAnswer, upload } from "../finance/documents/DocumentsSetup.ts"
import { settle } from "../inbound/InboundSetup.ts"
import { type Client, setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { post } from "../support/WebhooksHarness.ts"
import { storeDir, userFilesSuite, withServedApp } from "./UserFilesSetup.ts"

const dir = storeDir()
const bytes = (text: string) => new TextEncoder().encode(text)
const text = (answer: RawAnswer) => new TextDecoder().decode(answer.bytes)
const q = encodeURIComponent

/** The headers every stored user file is served with, whatever its type. */
const assertInert = (answer: RawAnswer, filename: string, disposition = `attachment; filename="${filename}"`) => {
  assert.strictEqual(answer.status, 200, text(answer))
  assert.strictEqual(answer.headers.get("content-disposition"), disposition)
  assert.strictEqual(answer.headers.get("x-content-type-options"), "nosniff")
  assert.strictEqual(answer.headers.get("content-security-policy"), "default-src 'none'; sandbox")
}

/** The team's inbox item (processed by the worker's step) of an e-mail carrying `attachments`, and its file key. */
const receive = (
  client: Client,
  app: Parameters<typeof post>[0],
  attachments: ReadonlyArray<readonly [string, string, Uint8Array]>
) =>
  Effect.gen(function* () {
    const team = yield* Effect.promise(() => setUpKeyedTeam(client))
    const received = yield* post(app, "/webhook/inbox", inboxMail(team.id, `m-${crypto.randomUUID()}`, attachments))
    assert.strictEqual(received.status, 200, JSON.stringify(received.body))
    yield* settle()
    const inbox = yield* Effect.promise(() => client.call("GET", "/inbox", { token: team.owner }))
    const fk = yield* Effect.promise(() => fileKeyOf(client, team.owner))
    return {
      team,
      fk,
      attachments: inbox.body.data[0].attachments as ReadonlyArray<{ path: string; filename: string }>
    }
  })

/** Every log line the app writes, as text. */
const lines: Array<string> = []
const capture = Logger.make((options) => {
  lines.push(Logger.formatSimple.log(options))
})

userFilesSuite(dir)("stored user files served inert (HTTP on Postgres, files on disk)", (it) => {
  it.effect(
    "HTML and SVG attachments download as attachments under default-src 'none' and sandbox, with nosniff, from both file routes",
    () =>
      withServedApp(dir, (client, app) =>
        Effect.gen(function* () {
          const html = bytes("<script>alert(document.cookie)</script>")
          const svg = bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')
          const { fk, attachments } = yield* receive(client, app, [
            ["page.html", "text/html; charset=utf-8", html],
            ["logo.svg", "image/svg+xml", svg]
          ])
          for (const [attachment, type, content] of [
            [attachments[0]!, "text/html; charset=utf-8", html],
            [attachments[1]!, "image/svg+xml", svg]
          ] as const) {
            const downloaded = yield* Effect.promise(() =>
              client.rawCall(`/files/download/file?path=${q(attachment.path)}&fk=${q(fk)}`)
            )
            assertInert(downloaded, attachment.filename)
            assert.strictEqual(downloaded.headers.get("content-type"), type)
            assert.deepStrictEqual(downloaded.bytes, content)
            const proxied = yield* Effect.promise(() =>
              client.rawCall(`/files/proxy?filePath=${q(attachment.path)}&fk=${q(fk)}`)
            )
            assertInert(proxied, attachment.filename)
            assert.strictEqual(proxied.headers.get("content-type"), "application/octet-stream")
          }
        })
      )
  )

  it.effect("a document downloads under the same headers, named as uploaded or as asked", () =>
    withServedApp(dir, (client) =>
      Effect.promise(async () => {
        const team = await setUpKeyedTeam(client)
        const created = await upload(client, team.owner, [
          ["file", { filename: "lease.pdf", type: "application/pdf", content: pdfBytes(300) }]
        ])
        const path = jsonOf(created).path as string
        const fk = await fileKeyOf(client, team.owner)
        assertInert(await client.rawCall(`/files/download/file?path=${q(path)}&fk=${q(fk)}`), "lease.pdf")
        const renamed = await client.rawCall(
          `/files/download/file?path=${q(path)}&fk=${q(fk)}&filename=${q('a"b.pdf')}`
        )
        assertInert(renamed, 'a"b.pdf', `attachment; filename="a_b.pdf"; filename*=UTF-8''a%22b.pdf`)
      })
    )
  )

  it.effect("a content type stored before intake checked it (CR/LF inside) is served as application/octet-stream", () =>
    withServedApp(dir, (client, app) =>
      Effect.gen(function* () {
        const { fk, attachments } = yield* receive(client, app, [["notes.txt", "text/plain", bytes("plain notes")]])
        const path = attachments[0]!.path
        writeFileSync(
          join(dir, ".meta", `${path}.json`),
          JSON.stringify({ contentType: "text/html\r\nSet-Cookie: stolen=1", name: "notes.txt" })
        )
        const downloaded = yield* Effect.promise(() =>
          client.rawCall(`/files/download/file?path=${q(path)}&fk=${q(fk)}`)
        )
        assertInert(downloaded, "notes.txt")
        assert.strictEqual(downloaded.headers.get("content-type"), "application/octet-stream")
        assert.isNull(downloaded.headers.get("set-cookie"))
        assert.strictEqual(text(downloaded), "plain notes")
      })
    )
  )

  it.effect(
    "a symbolic link in the store is never followed: 500 internal_error with its request id, logged, and not a byte of its target",
    () =>
      withServedApp(dir, (client) =>
        Effect.gen(function* () {
          const outside = mkdtempSync(join(tmpdir(), "svc-outside-"))
          yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(outside, { recursive: true, force: true })))
          const secret = join(outside, "secret.txt")
          writeFileSync(secret, "SECRET-OUTSIDE-THE-STORE")
          const team = yield* Effect.promise(() => setUpKeyedTeam(client))
          const created = yield* Effect.promise(() =>
            upload(client, team.owner, [
              ["file", { filename: "a.pdf", type: "application/pdf", content: pdfBytes(50) }]
            ])
          )
          const path = jsonOf(created).path as string
          rmSync(join(dir, path))
          symlinkSync(secret, join(dir, path))
          const fk = yield* Effect.promise(() => fileKeyOf(client, team.owner))
          for (const route of [
            `/files/download/file?path=${q(path)}&fk=${q(fk)}`,
            `/files/proxy?filePath=${q(path)}&fk=${q(fk)}`
          ]) {
            const answer = yield* Effect.promise(() => client.rawCall(route))
            assert.strictEqual(answer.status, 500, text(answer))
            assert.notInclude(text(answer), "SECRET")
            const requestId = answer.headers.get("x-request-id") ?? ""
            assert.isNotEmpty(requestId)
            assert.deepStrictEqual(jsonOf(answer), {
              error: "internal_error",
              code: 500,
              message: `unexpected failure; request id ${requestId}`
            })
            assert.isTrue(
              lines.some((line) => line.includes(requestId)),
              `a log line names ${requestId}`
            )
          }
        }).pipe(Effect.scoped)
      ).pipe(Effect.provide(Logger.layer([capture])), Effect.provideService(References.MinimumLogLevel, "All"))
  )
})
