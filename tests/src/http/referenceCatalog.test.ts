import { afterAll, assert, describe, it } from "@effect/vitest"
import { REFERENCE_CATALOG, referenceProblems } from "@svc/adapters-http/api"
import { inProcessApp } from "../support/InProcessApp.ts"

const app = inProcessApp()
afterAll(() => app.dispose())

interface Document {
  readonly paths: Record<string, Record<string, { readonly summary?: string; readonly tags?: Array<string> }>>
  readonly tags: Array<{ readonly name: string; readonly description?: string }>
  readonly "x-tagGroups": Array<{ readonly name: string; readonly tags: Array<string> }>
}

const served = async () => (await app.call("GET", "/openapi.json")).body as Document

describe("the reference page", () => {
  it("names tags for readers and groups every one, in the catalog's order", async () => {
    const document = await served()
    const names = document.tags.map((tag) => tag.name)
    assert.include(names, "Spend requests")
    assert.include(names, "Spending keys")
    assert.notInclude(names, "spendRequests")
    assert.deepStrictEqual(
      document["x-tagGroups"].map((group) => group.name),
      [
        "Agent spend",
        "Transfers and checkout",
        "Crypto",
        "Treasury and governance",
        "Business finance",
        "OAuth and keys",
        "Webhooks",
        "Operations"
      ]
    )
    assert.deepStrictEqual(document["x-tagGroups"].length, REFERENCE_CATALOG.length)
    assert.deepStrictEqual(referenceProblems(document as unknown as Record<string, unknown>), [])
  })

  it("/docs renders the grouped document with reader names", async () => {
    const page = new TextDecoder().decode((await app.rawCall("/docs")).bytes)
    assert.include(page, "x-tagGroups")
    assert.include(page, "Transfers and checkout")
    assert.include(page, "Spending keys")
  })

  it("files every operation under a reader name", async () => {
    const document = await served()
    const names = new Set(document.tags.map((tag) => tag.name))
    const operationTags = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => operation.tags ?? [])
    )
    assert.isAbove(operationTags.length, 50)
    assert.deepStrictEqual(
      operationTags.filter((tag) => !names.has(tag)),
      []
    )
    assert.include(document.paths["/v1/spend-requests"]?.post?.tags ?? [], "Spend requests")
  })

  it("the lint names an operation without a summary, a tag without a description or group, an unknown group tag", () => {
    const problems = referenceProblems({
      paths: { "/a": { get: { summary: "Read a" }, post: {} } },
      tags: [{ name: "A", description: "The a." }, { name: "B" }],
      "x-tagGroups": [{ name: "Things", tags: ["A", "C"] }]
    })
    assert.deepStrictEqual(problems, [
      "operation POST /a has no summary",
      'tag "B" has no description',
      'tag "B" is in no group',
      'group "Things" names unknown tag "C"'
    ])
  })
})
