import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { BankAccountId, BankAccountsRepo, BankConnectionsRepo, type TeamId } from "@svc/domain"
import { Effect, type Layer } from "effect"
import { withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import {
  ATTACHMENT,
  bodyViolations,
  fieldViolations,
  type OpenApiDocument,
  specTransactionViolations
} from "./SpecShapes.ts"
import { postTransaction, SPEC_TRANSACTION_FIELDS } from "./TransactionsHttpSuite.ts"

/** A connected account of the team (with its bank connection), as an aggregator's first report opens it. */
const connectedAccount = (teamId: TeamId) =>
  Effect.gen(function* () {
    const at = new Date().toISOString()
    const connectionId = crypto.randomUUID()
    yield* (yield* BankConnectionsRepo).insert({
      id: connectionId,
      teamId,
      provider: "bank-aggregator-a",
      externalId: `item_${connectionId}`,
      status: "connected",
      createdAt: at,
      updatedAt: at
    })
    const id = BankAccountId.make(crypto.randomUUID())
    yield* (yield* BankAccountsRepo).insert({
      id,
      teamId,
      name: "Checking",
      type: "depository",
      currency: "USD",
      balanceMinor: 0,
      baseCurrency: null,
      baseBalanceMinor: null,
      enabled: true,
      manual: false,
      connectionId,
      externalId: "acc_1",
      createdAt: at,
      updatedAt: at
    })
    return id
  })

/** Live bodies of every transactions route against the served OpenAPI document and SPEC.md's Transaction shape. */
export const transactionsOpenApiSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`transactions' live bodies (${name})`, (it) => {
    it.effect("every route's body validates against the served schema and SPEC.md's Transaction", () =>
      withAppOnPorts(async (app, context) => {
        const served = await app.call("GET", "/openapi.json")
        assert.strictEqual(served.status, 200)
        const doc = served.body as OpenApiDocument
        const acme = await financeTeam(app)
        const token = acme.owner
        const checked = new Set<string>()
        const check = async (method: string, path: string, route: string, body?: unknown) => {
          const answer = await app.call(method, path, body === undefined ? { token } : { token, body })
          assert.isTrue(
            answer.status >= 200 && answer.status < 300,
            `${method} ${path}: ${JSON.stringify(answer.body)}`
          )
          assert.deepStrictEqual(
            bodyViolations(doc, method, route, answer.status, answer.body),
            [],
            `${method} ${route}`
          )
          checked.add(`${method} ${route}`)
          return answer.body
        }
        const transactions = (body: { data: ReadonlyArray<unknown> }) => {
          assert.isAbove(body.data.length, 0)
          for (const t of body.data) assert.deepStrictEqual(specTransactionViolations(t), [])
        }

        const tag = await app.call("POST", "/tags", { token, body: { name: "client" } })
        const accountId = await Effect.runPromise(connectedAccount(acme.id as TeamId).pipe(Effect.provide(context)))
        const full = await postTransaction(app, acme, {
          categorySlug: "software",
          tagIds: [tag.body.id],
          bankAccountId: accountId,
          taxRate: 20,
          note: "annual",
          frequency: "annually"
        })
        const bare = await postTransaction(app, acme, { name: "Cash", amount: 1000, currency: "JPY" })
        for (const body of [full, bare]) {
          assert.deepStrictEqual(specTransactionViolations(body), [])
          for (const field of SPEC_TRANSACTION_FIELDS) assert.property(body, field)
        }
        assert.isNotNull(full.account.connection, "a connected account shows its connection")
        const one = `/transactions/${full.id}`
        const file = { path: [acme.id, "receipts", "a.pdf"], name: "a.pdf", size: 3, type: "application/pdf" }
        const attachment = await check("POST", `${one}/attachments`, "/transactions/{id}/attachments", file)
        assert.deepStrictEqual(fieldViolations(attachment, ATTACHMENT, "attachment"), [])

        const created = await check("POST", "/transactions", "/transactions", {
          name: "Manual",
          date: "2026-03-01",
          amount: 12.34,
          currency: "USD"
        })
        assert.deepStrictEqual(specTransactionViolations(created), [])
        transactions(await check("GET", "/transactions?limit=10", "/transactions"))
        transactions(await check("GET", "/transactions?q=coffee&attachments=true", "/transactions"))
        assert.deepStrictEqual(specTransactionViolations(await check("GET", one, "/transactions/{id}")), [])
        assert.deepStrictEqual(
          specTransactionViolations(await check("PATCH", one, "/transactions/{id}", { note: null })),
          []
        )
        const bulk = await check("POST", "/transactions/bulk", "/transactions/bulk", [
          { name: "B1", date: "2026-03-01", amount: -1, currency: "EUR" },
          { name: "B2", date: "2026-03-02", amount: -2, currency: "EUR" }
        ])
        transactions(bulk)
        const ids = bulk.data.map((t: { id: string }) => t.id)
        transactions(
          await check(
            "PATCH",
            "/transactions/bulk",
            "/transactions/bulk",
            ids.map((id: string) => ({ id, status: "completed" }))
          )
        )
        await check("DELETE", "/transactions/bulk", "/transactions/bulk", ids)
        const presigned = await check(
          "POST",
          `${one}/attachments/${attachment.id}/presigned-url`,
          "/transactions/{id}/attachments/{attachmentId}/presigned-url"
        )
        assert.strictEqual(presigned.fileName, "a.pdf")
        await check("DELETE", `${one}/attachments/${attachment.id}`, "/transactions/{id}/attachments/{attachmentId}")
        assert.deepStrictEqual(specTransactionViolations(await check("DELETE", one, "/transactions/{id}")), [])
        assert.deepStrictEqual(specTransactionViolations(bare), [])

        const documented = Object.entries(doc.paths)
          .filter(([path]) => path === "/transactions" || /^\/transactions\/(bulk|\{id\})/u.test(path))
          .flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`))
        assert.deepStrictEqual([...checked].toSorted(), documented.toSorted(), "every transactions route was checked")
      })
    )
  })
