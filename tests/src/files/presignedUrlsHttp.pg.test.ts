import { assert } from "@effect/vitest"
import { FileLinks, StorageKey, TeamId } from "@svc/domain"
import { Effect, Redacted } from "effect"
import { inboxMail, jsonOf, pdfBytes, type RawAnswer, upload } from "../finance/documents/DocumentsSetup.ts"
import { financeTeam, scopedKey } from "../finance/FinanceHttpSetup.ts"
import { postTransaction } from "../finance/transactions/TransactionsHttpSuite.ts"
import { settle } from "../inbound/InboundSetup.ts"
import type { Client } from "../support/HttpScenarios.ts"
import { type Answer, testConfig } from "../support/InProcessApp.ts"
import { post } from "../support/WebhooksHarness.ts"
import { storeDir, userFilesSuite, withServedApp } from "./UserFilesSetup.ts"

const dir = storeDir()
const text = (answer: RawAnswer) => new TextDecoder().decode(answer.bytes)

/** The route and query of a presigned URL, as the client fetches it (the base is the app's public URL). */
const routeOf = (url: string) => {
  const parsed = new URL(url)
  assert.strictEqual(parsed.origin, "http://svc.test")
  assert.strictEqual(parsed.pathname, "/files/presigned")
  return `${parsed.pathname}${parsed.search}`
}

/** The route of a presigned URL with one query parameter replaced. */
const withParam = (route: string, name: string, value: string) => {
  const url = new URL(route, "http://svc.test")
  url.searchParams.set(name, value)
  return `${url.pathname}${url.search}`
}

/** A presigned URL's answer: 200, its fields, an expiry `seconds` from now (give or take the request's second). */
const assertPresigned = (answer: Answer, fileName: string, seconds = 60) => {
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  assert.deepStrictEqual(Object.keys(answer.body).toSorted(), ["expiresAt", "fileName", "url"])
  assert.strictEqual(answer.body.fileName, fileName)
  const left = (Date.parse(answer.body.expiresAt) - Date.now()) / 1000
  assert.isTrue(left > seconds - 2 && left <= seconds, `expires in ${left}s, not ${seconds}s`)
  return routeOf(answer.body.url)
}

/** A file served through a presigned URL: the bytes, with the inert headers and a private cache of at most `seconds`. */
const assertServed = (answer: RawAnswer, content: Uint8Array, disposition: string, seconds = 60) => {
  assert.strictEqual(answer.status, 200, text(answer))
  assert.deepStrictEqual(answer.bytes, content)
  assert.strictEqual(answer.headers.get("content-disposition"), disposition)
  assert.strictEqual(answer.headers.get("x-content-type-options"), "nosniff")
  assert.strictEqual(answer.headers.get("content-security-policy"), "default-src 'none'; sandbox")
  const cache = /^private, max-age=(\d+)$/u.exec(answer.headers.get("cache-control") ?? "")
  assert.isNotNull(cache, `cache-control ${answer.headers.get("cache-control")}`)
  assert.isTrue(Number(cache?.[1]) <= seconds && Number(cache?.[1]) >= seconds - 2)
}

/** A 401 in the contract's error body, naming why. */
const assertRefused = (answer: RawAnswer, message: string) => {
  assert.strictEqual(answer.status, 401, text(answer))
  assert.deepStrictEqual(jsonOf(answer), { error: "unauthorized", code: 401, message })
  assert.notInclude(text(answer), "%PDF")
}

const SIGNATURE_REFUSED = "the URL's signature does not hold for its path, expiry and disposition"

/** A new team with a document of `content`: the team and the document's id and path. */
const teamWithDocument = async (client: Client, content: Uint8Array) => {
  const team = await financeTeam(client)
  const created = await upload(client, team.owner, [
    ["file", { filename: "lease.pdf", type: "application/pdf", content }]
  ])
  assert.strictEqual(created.status, 201, text(created))
  const document = jsonOf(created) as { id: string; path: string }
  return { team, document }
}

userFilesSuite(dir)("presigned file URLs (HTTP on Postgres, files on disk)", (it) => {
  it.effect("a document's URL downloads its bytes with no credential, as an attachment or inline", () =>
    withServedApp(dir, (client) =>
      Effect.promise(async () => {
        const content = pdfBytes(300)
        const { team, document } = await teamWithDocument(client, content)
        const key = await scopedKey(client, team, ["documents.read"])
        const route = assertPresigned(
          await client.call("POST", `/documents/${document.id}/presigned-url`, { token: key }),
          "lease.pdf"
        )
        assertServed(await client.rawCall(route), content, 'attachment; filename="lease.pdf"')
        assert.strictEqual(new URL(route, "http://svc.test").searchParams.get("path"), document.path)
        const inline = assertPresigned(
          await client.call("POST", `/documents/${document.id}/presigned-url?download=false&expireIn=3600`, {
            token: key
          }),
          "lease.pdf",
          3600
        )
        const shown = await client.rawCall(inline)
        assertServed(shown, content, 'inline; filename="lease.pdf"', 3600)
        assert.strictEqual(shown.headers.get("content-type"), "application/pdf")
      })
    )
  )

  it.effect("a transaction attachment's URL downloads the file at its attached path", () =>
    withServedApp(dir, (client) =>
      Effect.promise(async () => {
        const content = pdfBytes(120)
        const { team, document } = await teamWithDocument(client, content)
        const transaction = await postTransaction(client, team, {})
        const attached = await client.call("POST", `/transactions/${transaction.id}/attachments`, {
          token: team.owner,
          body: { path: document.path.split("/").slice(1), name: "receipt.pdf", size: 120, type: "application/pdf" }
        })
        assert.strictEqual(attached.status, 201, JSON.stringify(attached.body))
        const key = await scopedKey(client, team, ["transactions.read"])
        const route = assertPresigned(
          await client.call("POST", `/transactions/${transaction.id}/attachments/${attached.body.id}/presigned-url`, {
            token: key
          }),
          "receipt.pdf"
        )
        assertServed(await client.rawCall(route), content, 'attachment; filename="lease.pdf"')
        const unknown = await client.call(
          "POST",
          `/transactions/${transaction.id}/attachments/${crypto.randomUUID()}/presigned-url`,
          { token: key }
        )
        assert.strictEqual(unknown.status, 404, JSON.stringify(unknown.body))
      })
    )
  )

  it.effect("an inbox item's URL downloads its first stored attachment; an item without one is 400", () =>
    withServedApp(dir, (client, app) =>
      Effect.gen(function* () {
        const team = yield* Effect.promise(() => financeTeam(client))
        const content = new TextEncoder().encode("invoice 42")
        for (const [message, attachments] of [
          ["m-with", [["invoice.txt", "text/plain", content]]],
          ["m-without", []]
        ] as const) {
          const received = yield* post(
            app,
            "/webhook/inbox",
            inboxMail(TeamId.make(team.id), `${message}-${team.id}`, attachments)
          )
          assert.strictEqual(received.status, 200, JSON.stringify(received.body))
        }
        yield* settle()
        const key = yield* Effect.promise(() => scopedKey(client, team, ["inbox.read"]))
        const inbox = yield* Effect.promise(() => client.call("GET", "/inbox", { token: key }))
        const items = inbox.body.data as ReadonlyArray<{ id: string; attachments: ReadonlyArray<unknown> }>
        const withFile = items.find((item) => item.attachments.length === 1)!
        const withoutFile = items.find((item) => item.attachments.length === 0)!
        const route = assertPresigned(
          yield* Effect.promise(() => client.call("POST", `/inbox/${withFile.id}/presigned-url`, { token: key })),
          "invoice.txt"
        )
        assertServed(yield* Effect.promise(() => client.rawCall(route)), content, 'attachment; filename="invoice.txt"')
        const none = yield* Effect.promise(() =>
          client.call("POST", `/inbox/${withoutFile.id}/presigned-url`, { token: key })
        )
        assert.strictEqual(none.status, 400, JSON.stringify(none.body))
        assert.strictEqual(none.body.error, "file_not_available")
      })
    )
  )

  it.effect("a URL whose path, expiry, disposition or signature was changed is 401, and a bare path is 400", () =>
    withServedApp(dir, (client) =>
      Effect.promise(async () => {
        const { team, document } = await teamWithDocument(client, pdfBytes(80))
        const other = await teamWithDocument(client, pdfBytes(90))
        const made = await client.call("POST", `/documents/${document.id}/presigned-url`, { token: team.owner })
        const route = routeOf(made.body.url)
        const params = new URL(route, "http://svc.test").searchParams
        const expires = Number(params.get("expires"))
        const signature = params.get("signature") ?? ""
        for (const tampered of [
          withParam(route, "path", other.document.path),
          withParam(route, "path", `${document.path.replace(/[^/]+$/u, "")}${crypto.randomUUID()}`),
          withParam(route, "expires", String(expires + 3600)),
          withParam(route, "download", "false"),
          withParam(route, "signature", `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`),
          withParam(route, "signature", "x")
        ]) {
          assertRefused(await client.rawCall(tampered), SIGNATURE_REFUSED)
        }
        const traversal = await client.rawCall(withParam(route, "path", `${team.id}/../${other.team.id}/x`))
        assertRefused(traversal, SIGNATURE_REFUSED)
        const bare = await client.rawCall(`/files/presigned?path=${encodeURIComponent(document.path)}`)
        assert.strictEqual(bare.status, 400, text(bare))
      })
    )
  )

  it.effect("a URL signed by the service's key is 401 from its expiry on, and serves nothing", () =>
    withServedApp(dir, (client) =>
      Effect.gen(function* () {
        const { team, document } = yield* Effect.promise(() => teamWithDocument(client, pdfBytes(70)))
        // The app signs with the file key secret when PRESIGNED_URL_KEY is unset; sign as it would, already expired.
        const links = yield* FileLinks
        const expires = Math.floor(Date.now() / 1000) - 1
        const grant = { teamId: TeamId.make(team.id), key: StorageKey.make(document.path), expires, download: true }
        const signature = yield* links.sign(grant)
        const query = new URLSearchParams({
          path: document.path,
          expires: String(expires),
          download: "true",
          signature
        })
        const expired = yield* Effect.promise(() => client.rawCall(`/files/presigned?${query.toString()}`))
        assertRefused(expired, "the URL has expired")
        const live = new URLSearchParams({
          path: document.path,
          expires: String(expires + 121),
          download: "true",
          signature: yield* links.sign({ ...grant, expires: expires + 121 })
        })
        const served = yield* Effect.promise(() => client.rawCall(`/files/presigned?${live.toString()}`))
        assertServed(served, pdfBytes(70), 'attachment; filename="lease.pdf"', 120)
      }).pipe(Effect.provide(FileLinks.layer(Redacted.value(testConfig.fileKeySecret))))
    )
  )

  it.effect("creating a URL needs the resource's read scope; another team's resource is 404", () =>
    withServedApp(dir, (client) =>
      Effect.promise(async () => {
        const { team, document } = await teamWithDocument(client, pdfBytes(60))
        const other = await financeTeam(client)
        const stranger = await client.call("POST", `/documents/${document.id}/presigned-url`, { token: other.owner })
        assert.strictEqual(stranger.status, 404, JSON.stringify(stranger.body))
        assert.notProperty(stranger.body, "url")
        const noAuth = await client.call("POST", `/documents/${document.id}/presigned-url`)
        assert.strictEqual(noAuth.status, 401, JSON.stringify(noAuth.body))
        const transactionsOnly = await scopedKey(client, team, ["transactions.read"])
        const scoped = await client.call("POST", `/documents/${document.id}/presigned-url`, { token: transactionsOnly })
        assert.strictEqual(scoped.status, 403, JSON.stringify(scoped.body))
        assert.include(scoped.body.message, "documents.read")
        const inbox = await client.call("POST", `/inbox/${crypto.randomUUID()}/presigned-url`, { token: team.owner })
        assert.strictEqual(inbox.status, 404, JSON.stringify(inbox.body))
      })
    )
  )

  it.effect("expireIn outside 1 to 3600 seconds, or not an integer, is 400 naming expireIn", () =>
    withServedApp(dir, (client) =>
      Effect.promise(async () => {
        const { team, document } = await teamWithDocument(client, pdfBytes(40))
        for (const expireIn of ["0", "3601", "-5", "1.5", "soon"]) {
          const answer = await client.call("POST", `/documents/${document.id}/presigned-url?expireIn=${expireIn}`, {
            token: team.owner
          })
          assert.strictEqual(answer.status, 400, `${expireIn}: ${JSON.stringify(answer.body)}`)
          assert.include(JSON.stringify(answer.body), "expireIn")
        }
        const download = await client.call("POST", `/documents/${document.id}/presigned-url?download=yes`, {
          token: team.owner
        })
        assert.strictEqual(download.status, 400, JSON.stringify(download.body))
        assert.include(JSON.stringify(download.body), "download")
        const longest = await client.call("POST", `/documents/${document.id}/presigned-url?expireIn=3600`, {
          token: team.owner
        })
        assertPresigned(longest, "lease.pdf", 3600)
        const shortest = await client.call("POST", `/documents/${document.id}/presigned-url?expireIn=1`, {
          token: team.owner
        })
        assertPresigned(shortest, "lease.pdf", 1)
      })
    )
  )
})
