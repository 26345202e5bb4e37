import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert } from "@effect/vitest"
import { FileStorageFs } from "@svc/adapters-fs"
import { MaxFileBytes } from "@svc/domain"
import { Effect, Layer } from "effect"
import { appEnv, inboundOver, newTeam, settle } from "../../inbound/InboundSetup.ts"
import { testConfig } from "../../support/InProcessApp.ts"
import { call, clientOver, post, type RunningApp, type WebhookPorts, withApp } from "../../support/WebhooksHarness.ts"
import { inboxMail as mail, pdfBytes } from "./DocumentsSetup.ts"

const LIMIT = 2 * 1024 * 1024

/** Bytes of a GET on the served app. */
const download = (app: RunningApp, path: string) => Effect.promise(() => clientOver(app).rawCall(path))

/**
 * The inbox over HTTP: e-mails posted to the real inbound webhook are processed by the worker's step into items whose
 * attachments live on disk (the app and the worker share the directory), then listed, read, matched and deleted.
 */
export const inboxHttpSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) => {
  const dir = mkdtempSync(join(tmpdir(), "svc-inbox-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const config = { ...testConfig, fileStorageDir: dir, maxFileBytes: LIMIT }
  const withInboxApp = <A, E2, R>(f: (app: RunningApp) => Effect.Effect<A, E2, R>) => withApp(appEnv(), f, config)

  inboundOver(ports, Layer.merge(FileStorageFs(dir), Layer.succeed(MaxFileBytes, LIMIT)))(
    `inbox over HTTP (${name})`,
    (it) => {
      it.effect(
        "An inbox e-mail with a PDF attachment posted to the inbox webhook becomes an inbox item whose attachment downloads byte for byte through /files/download/file (a body over 1 MiB; an attachment over the limit is skipped)",
        () =>
          withInboxApp((app) =>
            Effect.gen(function* () {
              const { teamId, token } = yield* newTeam(app)
              const pdf = pdfBytes(1_500_000)
              const tooBig = pdfBytes(LIMIT + 1)
              const received = yield* post(
                app,
                "/webhook/inbox",
                mail(teamId, "m-pdf", [
                  ["invoice.pdf", "application/pdf", pdf],
                  ["scan.pdf", "application/pdf", tooBig]
                ])
              )
              assert.strictEqual(received.status, 200, JSON.stringify(received.body))
              assert.deepStrictEqual(received.body, { success: true })
              yield* settle()

              const list = yield* call(app, "GET", "/inbox", token)
              assert.strictEqual(list.status, 200, JSON.stringify(list.body))
              assert.strictEqual(list.body.data.length, 1)
              const item = list.body.data[0]
              assert.deepInclude(item, {
                object: "inbox_item",
                messageId: "m-pdf",
                status: "pending",
                transactionId: null,
                subject: "Invoice INV-42: 1,234.50 due"
              })
              const path = `vault/${teamId}/inbox/${item.id}/1`
              assert.deepStrictEqual(item.attachments, [
                { filename: "invoice.pdf", contentType: "application/pdf", size: pdf.byteLength, path, skipped: null },
                {
                  filename: "scan.pdf",
                  contentType: "application/pdf",
                  size: tooBig.byteLength,
                  path: null,
                  skipped: `over the file limit of ${LIMIT} bytes`
                }
              ])
              const fk = (yield* call(app, "GET", "/users/me", token)).body.fileKey as string
              const file = yield* download(
                app,
                `/files/download/file?path=${encodeURIComponent(path)}&fk=${encodeURIComponent(fk)}`
              )
              assert.strictEqual(file.status, 200)
              assert.strictEqual(file.headers.get("content-type"), "application/pdf")
              assert.deepStrictEqual(file.bytes, pdf)
            })
          )
      )

      it.effect(
        "list by status, read with suggestions, match (done), unmatch (pending), archive, a deleted transaction unmatches, delete with files",
        () =>
          withInboxApp((app) =>
            Effect.gen(function* () {
              const { teamId, token } = yield* newTeam(app)
              const today = new Date().toISOString().slice(0, 10)
              const transaction = (name: string, amount: number) =>
                call(app, "POST", "/transactions", token, { name, date: today, amount, currency: "USD" }).pipe(
                  Effect.map((answer) => {
                    assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
                    return answer.body.id as string
                  })
                )
              const acme = yield* transaction("Acme Cloud", -1234.5)
              const coffee = yield* transaction("Coffee", -4.5)
              for (const id of ["m-1", "m-2"]) {
                const answer = yield* post(
                  app,
                  "/webhook/inbox",
                  mail(teamId, id, [["a.pdf", "application/pdf", pdfBytes(10)]])
                )
                assert.strictEqual(answer.status, 200)
              }
              yield* settle()
              const items = (yield* call(app, "GET", "/inbox?limit=1", token)).body
              assert.strictEqual(items.data.length, 1)
              assert.isTrue(items.meta.hasNextPage)
              const rest = (yield* call(app, "GET", `/inbox?limit=1&cursor=${items.meta.cursor}`, token)).body
              assert.isFalse(rest.meta.hasNextPage)
              const both = [...items.data, ...rest.data]
              assert.sameMembers(
                both.map((i: { messageId: string }) => i.messageId),
                ["m-1", "m-2"]
              )
              const [first, second] = both.toSorted((a: { messageId: string }, b: { messageId: string }) =>
                a.messageId.localeCompare(b.messageId)
              )

              const read = yield* call(app, "GET", `/inbox/${first.id}`, token)
              assert.strictEqual(read.status, 200)
              assert.deepStrictEqual(
                read.body.suggestions.map((s: { transactionId: string; reasons: Array<string> }) => [
                  s.transactionId,
                  s.reasons
                ]),
                [[acme, ["amount", "date", "name"]]]
              )
              assert.notInclude(JSON.stringify(read.body.suggestions), coffee)

              const matched = yield* call(app, "PATCH", `/inbox/${first.id}`, token, { transactionId: acme })
              assert.strictEqual(matched.status, 200, JSON.stringify(matched.body))
              assert.deepInclude(matched.body, { transactionId: acme, status: "done" })
              assert.deepStrictEqual(
                (yield* call(app, "GET", "/inbox?status=done", token)).body.data.map((i: { id: string }) => i.id),
                [first.id]
              )
              assert.deepStrictEqual(
                (yield* call(app, "GET", "/inbox?status=pending", token)).body.data.map((i: { id: string }) => i.id),
                [second.id]
              )
              const unmatched = yield* call(app, "PATCH", `/inbox/${first.id}`, token, { transactionId: null })
              assert.deepInclude(unmatched.body, { transactionId: null, status: "pending" })
              const archived = yield* call(app, "PATCH", `/inbox/${first.id}`, token, { status: "archived" })
              assert.deepInclude(archived.body, { transactionId: null, status: "archived" })

              const rematched = yield* call(app, "PATCH", `/inbox/${second.id}`, token, { transactionId: coffee })
              assert.deepInclude(rematched.body, { transactionId: coffee, status: "done" })
              assert.strictEqual((yield* call(app, "DELETE", `/transactions/${coffee}`, token)).status, 200)
              assert.deepInclude((yield* call(app, "GET", `/inbox/${second.id}`, token)).body, {
                transactionId: null,
                status: "done"
              })

              const unknown = yield* call(app, "PATCH", `/inbox/${first.id}`, token, {
                transactionId: crypto.randomUUID()
              })
              assert.strictEqual(unknown.status, 400)
              assert.strictEqual(unknown.body.details[0].path, "transactionId")
              assert.strictEqual(
                (yield* call(app, "PATCH", `/inbox/${first.id}`, token, { status: "lost" })).status,
                400
              )

              const fk = (yield* call(app, "GET", "/users/me", token)).body.fileKey as string
              const path = first.attachments[0].path as string
              const url = `/files/download/file?path=${encodeURIComponent(path)}&fk=${encodeURIComponent(fk)}`
              assert.strictEqual((yield* download(app, url)).status, 200)
              const deleted = yield* call(app, "DELETE", `/inbox/${first.id}`, token)
              assert.deepStrictEqual(deleted.body, { id: first.id, object: "inbox_item", deleted: true })
              assert.strictEqual((yield* call(app, "GET", `/inbox/${first.id}`, token)).status, 404)
              assert.strictEqual((yield* download(app, url)).status, 404)
            })
          )
      )

      it.effect("another team's item is 404; scopes hold; a malformed e-mail is 400 with errors", () =>
        withInboxApp((app) =>
          Effect.gen(function* () {
            const acme = yield* newTeam(app)
            const globex = yield* newTeam(app)
            yield* post(app, "/webhook/inbox", mail(globex.teamId, "m-theirs", []))
            yield* settle()
            const theirs = (yield* call(app, "GET", "/inbox", globex.token)).body.data[0]
            for (const [method, body] of [
              ["GET", undefined],
              ["PATCH", { status: "done" }],
              ["DELETE", undefined]
            ] as const) {
              const answer = yield* call(app, method, `/inbox/${theirs.id}`, acme.token, body)
              assert.strictEqual(answer.status, 404, method)
            }
            assert.deepStrictEqual((yield* call(app, "GET", "/inbox", acme.token)).body.data, [])
            const reader = yield* call(app, "POST", "/api-keys", acme.token, { name: "r", scopes: ["inbox.read"] })
            assert.strictEqual((yield* call(app, "GET", "/inbox", reader.body.secret)).status, 200)
            const refused = yield* call(app, "DELETE", `/inbox/${theirs.id}`, reader.body.secret)
            assert.strictEqual(refused.status, 403)
            const malformed = yield* post(app, "/webhook/inbox", JSON.stringify({ MessageID: "x", Attachments: 3 }))
            assert.strictEqual(malformed.status, 400)
            assert.includeMembers(
              malformed.body.errors.map((e: { path: string }) => e.path),
              ["From", "To", "Attachments"]
            )
          })
        )
      )
    }
  )
}
