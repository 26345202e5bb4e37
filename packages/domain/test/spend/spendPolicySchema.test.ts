import { assert, describe, it } from "@effect/vitest"
import { Result, Schema, SchemaIssue } from "effect"
import {
  ApprovalTtlSeconds,
  CategorySlug,
  DEFAULT_APPROVAL_TTL_SECONDS,
  DecisionReasonCode,
  SpendDecision,
  SpendPolicy
} from "../../src/spend/SpendPolicy.ts"

const decodeIssues = (input: unknown) => {
  const result = Schema.decodeUnknownResult(SpendPolicy)(input, { errors: "all" })
  if (Result.isSuccess(result)) return assert.fail(`expected ${JSON.stringify(input)} to be rejected`)
  return SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues.map((issue) => ({
    path: issue.path?.map((segment) => (typeof segment === "object" ? segment.key : segment)),
    message: issue.message
  }))
}

const decodes = (input: unknown) => Result.isSuccess(Schema.decodeUnknownResult(SpendPolicy)(input))

describe("SpendPolicy schema", () => {
  it("decodes an empty and a full policy", () => {
    assert.isTrue(decodes({}))
    const full = {
      perRequestLimit: 0,
      dailyBudget: 10_000,
      monthlyBudget: Number.MAX_SAFE_INTEGER,
      approvalThreshold: 5000,
      allowedCategories: ["software", "travel_agency", "web-3"],
      blockedCategories: [],
      allowedMerchants: ["Acme Cloud", "x".repeat(200)],
      blockedMerchants: Array.from({ length: 100 }, (_, i) => `m${i}`),
      approvalTtlSeconds: 3600
    }
    assert.deepStrictEqual(Schema.decodeUnknownSync(SpendPolicy)(full), full)
  })

  it("drops unknown keys", () => {
    assert.deepStrictEqual(Schema.decodeUnknownSync(SpendPolicy)({ dailyBudget: 1, extra: true }), { dailyBudget: 1 })
  })

  it("rejects negative amounts with the field path", () => {
    for (const field of ["perRequestLimit", "dailyBudget", "monthlyBudget", "approvalThreshold"]) {
      assert.deepStrictEqual(decodeIssues({ [field]: -1 }), [
        { path: [field], message: "expected a non-negative integer amount in minor units" }
      ])
    }
  })

  it("rejects fractional, unsafe and non-numeric amounts", () => {
    assert.deepStrictEqual(decodeIssues({ dailyBudget: 10.5 }), [
      { path: ["dailyBudget"], message: "amounts are integers in minor units: 1999 for 19.99 USD" }
    ])
    assert.deepStrictEqual(
      decodeIssues({ monthlyBudget: Number.MAX_SAFE_INTEGER + 1 }).map((i) => i.path),
      [["monthlyBudget"], ["monthlyBudget"]]
    )
    assert.deepStrictEqual(
      decodeIssues({ perRequestLimit: "100" }).map((i) => i.path),
      [["perRequestLimit"]]
    )
    assert.isFalse(decodes({ approvalThreshold: Number.POSITIVE_INFINITY }))
    assert.isFalse(decodes({ approvalThreshold: Number.NaN }))
  })

  it("rejects non-slug categories with the element path", () => {
    const message = 'expected a lowercase slug (a-z, 0-9, single "-" or "_" separators), e.g. "software"'
    assert.deepStrictEqual(decodeIssues({ allowedCategories: ["software", "Travel"] }), [
      { path: ["allowedCategories", 1], message }
    ])
    for (const bad of ["", "a b", "-travel", "travel-", "a--b", "a_-b", "café", "TRAVEL"]) {
      assert.deepStrictEqual(decodeIssues({ blockedCategories: [bad] }), [{ path: ["blockedCategories", 0], message }])
    }
    for (const good of ["a", "software", "travel_agency", "web-3", "b2b-saas_tools"]) {
      assert.isTrue(Schema.is(CategorySlug)(good))
    }
  })

  it("rejects empty, blank, overlong and too many merchants", () => {
    assert.deepStrictEqual(decodeIssues({ blockedMerchants: ["ok", ""] }), [
      { path: ["blockedMerchants", 1], message: "expected a non-empty merchant name" },
      { path: ["blockedMerchants", 1], message: "expected a merchant name that is not only whitespace" }
    ])
    assert.deepStrictEqual(decodeIssues({ allowedMerchants: ["   "] }), [
      { path: ["allowedMerchants", 0], message: "expected a merchant name that is not only whitespace" }
    ])
    assert.deepStrictEqual(decodeIssues({ allowedMerchants: ["x".repeat(201)] }), [
      { path: ["allowedMerchants", 0], message: "expected a merchant name of at most 200 characters" }
    ])
    assert.deepStrictEqual(decodeIssues({ allowedMerchants: Array.from({ length: 101 }, (_, i) => `m${i}`) }), [
      { path: ["allowedMerchants"], message: "expected at most 100 merchants" }
    ])
  })

  it("enforces approvalTtlSeconds bounds", () => {
    const message = "expected an approval TTL between 60 and 2592000 seconds"
    assert.deepStrictEqual(decodeIssues({ approvalTtlSeconds: 59 }), [{ path: ["approvalTtlSeconds"], message }])
    assert.deepStrictEqual(decodeIssues({ approvalTtlSeconds: 2_592_001 }), [{ path: ["approvalTtlSeconds"], message }])
    assert.deepStrictEqual(decodeIssues({ approvalTtlSeconds: 90.5 }), [
      { path: ["approvalTtlSeconds"], message: "Expected an integer" }
    ])
    assert.isTrue(decodes({ approvalTtlSeconds: 60 }))
    assert.isTrue(decodes({ approvalTtlSeconds: 2_592_000 }))
    assert.isTrue(Schema.is(ApprovalTtlSeconds)(DEFAULT_APPROVAL_TTL_SECONDS))
  })

  it("reports every invalid field at once", () => {
    assert.deepStrictEqual(
      decodeIssues({
        perRequestLimit: -5,
        blockedCategories: ["ok", "Not Ok"],
        approvalTtlSeconds: 1,
        allowedMerchants: [""]
      }).map((i) => i.path),
      [
        ["perRequestLimit"],
        ["blockedCategories", 1],
        ["allowedMerchants", 0],
        ["allowedMerchants", 0],
        ["approvalTtlSeconds"]
      ]
    )
  })

  it("exposes its constraints in JSON Schema", () => {
    const { schema } = Schema.toJsonSchemaDocument(SpendPolicy)
    const json = JSON.stringify(schema)
    assert.include(json, '"pattern":"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"')
    assert.include(json, '"minimum":60,"maximum":2592000')
    assert.include(json, `"type":"integer","minimum":0,"maximum":${Number.MAX_SAFE_INTEGER}`)
    assert.include(json, '"maxItems":100')
  })
})

describe("DecisionReasonCode", () => {
  it("accepts exactly the contract codes", () => {
    for (const code of [
      "merchant_blocked",
      "category_blocked",
      "amount_over_limit",
      "daily_budget_exceeded",
      "monthly_budget_exceeded",
      "insufficient_funds",
      "approval_threshold"
    ]) {
      assert.isTrue(Schema.is(DecisionReasonCode)(code))
    }
    assert.isFalse(Schema.is(DecisionReasonCode)("over_budget"))
  })

  it("SpendDecision rejects unknown outcomes", () => {
    assert.isFalse(Schema.is(SpendDecision)({ outcome: "expired", reasons: [] }))
  })
})
