import { assert, describe, it } from "@effect/vitest"
import { bodyViolations, type OpenApiDocument, specTransactionViolations } from "./SpecShapes.ts"

const doc: OpenApiDocument = {
  paths: {
    "/x": {
      get: {
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { a: { type: "number" }, b: { anyOf: [{ type: "string" }, { type: "null" }] } },
                  required: ["a", "b"],
                  additionalProperties: false
                }
              }
            }
          }
        }
      }
    }
  },
  components: { schemas: {} }
}

const transaction = {
  id: "t",
  name: "n",
  amount: 1.5,
  taxAmount: null,
  taxRate: null,
  taxType: null,
  currency: "USD",
  counterpartyName: null,
  date: "2026-03-01T00:00:00.000Z",
  category: null,
  status: "posted",
  internal: false,
  recurring: null,
  manual: true,
  frequency: null,
  isFulfilled: false,
  note: null,
  account: null,
  tags: [],
  attachments: null
}

describe("the shape checkers of the live-body test", () => {
  it("accept a conforming body and name every breach", () => {
    assert.deepStrictEqual(bodyViolations(doc, "GET", "/x", 200, { a: 1, b: null }), [])
    assert.deepStrictEqual(bodyViolations(doc, "GET", "/x", 200, { a: "1", b: 2, c: 3 }), [
      "body.a: expected number, got string",
      'body.b: matches none of ["string","null"]',
      "body.c: not in the schema"
    ])
    assert.deepStrictEqual(bodyViolations(doc, "GET", "/x", 201, {}), ["no 201 JSON response for GET /x"])
    assert.deepStrictEqual(specTransactionViolations(transaction), [])
    const { note: _, ...noNote } = transaction
    assert.deepStrictEqual(specTransactionViolations(noNote), ["transaction.note: missing"])
    assert.deepStrictEqual(specTransactionViolations({ ...transaction, amount: "1.50", isFulfilled: null }), [
      "transaction.amount: expected number, got string",
      "transaction.isFulfilled: expected boolean, got null"
    ])
    assert.deepStrictEqual(specTransactionViolations({ ...transaction, date: "2026-03-01" }), [
      "transaction.date: not ISO 8601"
    ])
    assert.deepStrictEqual(specTransactionViolations({ ...transaction, tags: [{ id: "x" }] }), [
      "transaction.tags[0].name: missing"
    ])
  })
})
