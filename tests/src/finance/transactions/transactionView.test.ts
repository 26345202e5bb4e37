import { assert, describe, it } from "@effect/vitest"
import {
  AttachmentId,
  BankAccountId,
  type Category,
  CategoryId,
  TagId,
  TeamId,
  type Transaction,
  TransactionId,
  TransactionView,
  transactionView
} from "@svc/domain"
import { Schema } from "effect"

const team = TeamId.make(crypto.randomUUID())
const AT = "2026-03-01T10:00:00.000Z"

const category: Category = {
  id: CategoryId.make(crypto.randomUUID()),
  teamId: team,
  slug: "software",
  name: "Software",
  color: "#2980B9",
  description: null,
  taxRate: 25,
  taxType: "vat",
  parentId: null,
  type: "expense",
  excluded: false,
  system: true,
  createdAt: AT,
  updatedAt: AT
}

const transaction: Transaction = {
  id: TransactionId.make(crypto.randomUUID()),
  teamId: team,
  date: "2026-02-28",
  name: "Design tool",
  description: null,
  amountMinor: -12_500,
  currency: "EUR",
  baseAmountMinor: -13_556,
  baseCurrency: "USD",
  status: "posted",
  internal: false,
  recurring: true,
  frequency: "monthly",
  manual: true,
  note: null,
  categoryId: category.id,
  bankAccountId: null,
  taxRate: null,
  taxType: null,
  counterpartyName: "Figma",
  provider: null,
  providerTransactionId: null,
  createdAt: AT,
  updatedAt: AT
}

describe("the transaction view", () => {
  it("renders SPEC.md's Transaction: major units, the category's tax when the transaction has none, date-time", () => {
    const view = transactionView({ transaction, category, account: null, tags: [], attachments: [] })
    assert.isTrue(Schema.is(TransactionView)(view))
    assert.deepInclude(view, {
      amount: -125,
      baseAmount: -135.56,
      baseCurrency: "USD",
      // -125.00 at 25% includes -125 * 25 / 125 = -25.00
      taxAmount: -25,
      taxRate: 25,
      taxType: "vat",
      date: "2026-02-28T00:00:00.000Z",
      isFulfilled: false,
      recurring: true,
      frequency: "monthly"
    })
    assert.deepStrictEqual(view.category, {
      id: category.id,
      name: "Software",
      color: "#2980B9",
      taxRate: 25,
      taxType: "vat",
      slug: "software"
    })
  })

  it("prefers the transaction's own tax, shows account, tags and attachments; an attachment fulfils it", () => {
    const account = {
      id: BankAccountId.make(crypto.randomUUID()),
      teamId: team,
      name: "Main",
      type: "depository" as const,
      currency: "EUR",
      balanceMinor: 0,
      baseCurrency: "USD",
      baseBalanceMinor: 0,
      enabled: true,
      manual: false,
      connectionId: crypto.randomUUID(),
      externalId: "acc",
      createdAt: AT,
      updatedAt: AT
    }
    const tag = { id: TagId.make(crypto.randomUUID()), teamId: team, name: "tools", createdAt: AT }
    const attachment = {
      id: AttachmentId.make(crypto.randomUUID()),
      teamId: team,
      transactionId: transaction.id,
      path: ["vault", team, "receipt.pdf"],
      filename: "receipt.pdf",
      size: 1_024,
      type: "application/pdf",
      createdAt: AT
    }
    const connection = { id: account.connectionId, name: "Bank", logoUrl: null }
    const view = transactionView({
      transaction: {
        ...transaction,
        taxRate: 7.5,
        taxType: "gst",
        amountMinor: -1_000,
        baseAmountMinor: null,
        baseCurrency: null
      },
      category,
      account: { account, connection },
      tags: [tag],
      attachments: [attachment]
    })
    // -10.00 at 7.5%: -1000 * 7.5 / 107.5 = -69.77 minor -> -70 -> -0.70
    assert.deepInclude(view, { amount: -10, taxAmount: -0.7, taxRate: 7.5, taxType: "gst", baseAmount: null })
    assert.isTrue(view.isFulfilled)
    assert.deepStrictEqual(view.account, { id: account.id, name: "Main", currency: "EUR", connection })
    assert.deepStrictEqual(view.tags, [{ id: tag.id, name: "tools" }])
    assert.deepStrictEqual(view.attachments, [
      { id: attachment.id, path: attachment.path, size: 1_024, type: "application/pdf", filename: "receipt.pdf" }
    ])
    const uncategorised = transactionView({
      transaction: { ...transaction, categoryId: null },
      category: null,
      account: null,
      tags: [],
      attachments: []
    })
    assert.deepInclude(uncategorised, { category: null, taxAmount: null, taxRate: null, taxType: null })
  })
})
