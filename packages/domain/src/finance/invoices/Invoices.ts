import { Context, Effect, Layer, Option } from "effect"
import { TeamNotFound, TeamsRepo } from "../../identity/index.ts"
import { EventOutbox } from "../../platform/index.ts"
import {
  newId,
  newIdText,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  randomBytes,
  type TeamId,
  Transactor,
  toBase64Url
} from "../../shared/index.ts"
import { CustomerNotFound, CustomersRepo } from "../customers/index.ts"
import { type InvalidAmount, parseMajor, renderMinor } from "../money/model.ts"
import { TransactionsRepo } from "../transactions/index.ts"
import { TransactionId } from "../transactions/model.ts"
import {
  canMove,
  dayOf,
  effectiveStatus,
  type Invoice,
  InvoiceId,
  type InvoiceLineItem,
  type InvoicePaymentView,
  type InvoiceTarget,
  invoiceNumberOf,
  invoiceTotals,
  isDeletable,
  isEditable,
  isPayable,
  paidAtTime,
  totalsInRange
} from "./Invoice.ts"
import {
  DuplicateInvoiceNumber,
  InvalidInvoice,
  InvoiceNotFound,
  InvoicePaymentMismatch,
  InvoiceStatusConflict,
  ReceiptUnavailable
} from "./InvoiceErrors.ts"
import { type InvoiceDocumentKind, InvoiceRenderer, type PaymentIntent, PaymentsProvider } from "./InvoicePorts.ts"
import { type InvoicePaymentStatus, type InvoiceSummary, paymentStatusOf, summarizeInvoices } from "./InvoiceSummary.ts"
import { type InvoiceFilter, InvoicesRepo } from "./InvoicesRepo.ts"

/** A line item as a client gives it: the unit price in major units of the invoice's currency. */
export interface InvoiceLineInput {
  readonly name: string
  readonly quantity: number
  readonly unitPrice: number
  readonly taxRate?: number | null | undefined
  readonly vatRate?: number | null | undefined
}

/** What a client gives to create an invoice; without `invoiceNumber` the team's next number is used. */
export interface InvoiceInput {
  readonly customerId: string
  readonly invoiceNumber?: string | undefined
  readonly currency: string
  readonly issueDate: string
  readonly dueDate: string
  readonly lineItems: ReadonlyArray<InvoiceLineInput>
  readonly discount?: number | undefined
  readonly note?: string | null | undefined
}

/**
 * A change to an invoice: content fields replace the stored ones (while it is not paid or canceled), `status` moves it
 * (`paidAt` only with `paid`, default now).
 */
export type InvoicePatch = Partial<InvoiceInput> & {
  readonly status?: InvoiceTarget | undefined
  readonly paidAt?: string | undefined
}

/** A payment the payments provider reports for an invoice, in minor units. */
export interface ProviderPayment {
  readonly provider: string
  readonly paymentIntentId: string
  readonly invoiceId: string
  readonly amountMinor: number
  readonly currency: string
}

type InvoiceContent = Pick<
  Invoice,
  "customerId" | "customerName" | "currency" | "issueDate" | "dueDate" | "lineItems" | "discountMinor" | "note"
>

const conflict = (invoice: Invoice, nowIso: string, message: string) =>
  new InvoiceStatusConflict({ id: invoice.id, status: effectiveStatus(invoice, nowIso), message })

/** A new public token: 32 random bytes, base64url. */
const newToken = Effect.map(randomBytes(32), toBase64Url)

/** The input an invoice was made from, amounts back in major units (to apply a partial change over). */
const inputOf = (invoice: Invoice): Omit<InvoiceInput, "customerId"> => ({
  currency: invoice.currency,
  issueDate: invoice.issueDate,
  dueDate: invoice.dueDate,
  lineItems: invoice.lineItems.map((item) => ({
    ...item,
    unitPrice: renderMinor(item.unitPriceMinor, invoice.currency)
  })),
  discount: renderMinor(invoice.discountMinor, invoice.currency),
  note: invoice.note
})

/** A team's invoices: numbering, content rules, status moves, documents and payment. */
export class Invoices extends Context.Service<
  Invoices,
  {
    /** Creates a draft; its number is the one given (409 when taken) or the team's next, handed out gaplessly. */
    readonly create: (
      teamId: TeamId,
      input: InvoiceInput
    ) => Effect.Effect<
      Invoice,
      InvalidAmount | InvalidInvoice | CustomerNotFound | DuplicateInvoiceNumber | PersistenceUnavailable
    >
    readonly get: (teamId: TeamId, id: string) => Effect.Effect<Invoice, InvoiceNotFound | PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      filter: Omit<InvoiceFilter, "nowIso">,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<Invoice>, PersistenceUnavailable>
    readonly update: (
      teamId: TeamId,
      id: string,
      patch: InvoicePatch
    ) => Effect.Effect<
      Invoice,
      | InvoiceNotFound
      | InvalidAmount
      | InvalidInvoice
      | CustomerNotFound
      | DuplicateInvoiceNumber
      | InvoiceStatusConflict
      | PersistenceUnavailable
    >
    /** Sends a draft now (unpaid), or schedules it when `scheduledAt` is in the future. */
    readonly send: (
      teamId: TeamId,
      id: string,
      scheduledAt: string | null
    ) => Effect.Effect<Invoice, InvoiceNotFound | InvoiceStatusConflict | PersistenceUnavailable>
    /** Deletes a draft or a canceled invoice. */
    readonly remove: (
      teamId: TeamId,
      id: string
    ) => Effect.Effect<Invoice, InvoiceNotFound | InvoiceStatusConflict | PersistenceUnavailable>
    readonly summary: (
      teamId: TeamId,
      currency: string | null
    ) => Effect.Effect<InvoiceSummary, TeamNotFound | PersistenceUnavailable>
    readonly paymentStatus: (teamId: TeamId) => Effect.Effect<InvoicePaymentStatus, PersistenceUnavailable>
    /** The invoice with this id, whatever its team (the caller proves access to the team). */
    readonly byId: (id: string) => Effect.Effect<Invoice, InvoiceNotFound | PersistenceUnavailable>
    readonly byToken: (token: string) => Effect.Effect<Invoice, InvoiceNotFound | PersistenceUnavailable>
    /** The invoice or, for a paid one, its receipt, as a PDF. */
    readonly document: (
      invoice: Invoice,
      kind: InvoiceDocumentKind
    ) => Effect.Effect<Uint8Array, ReceiptUnavailable | TeamNotFound | PersistenceUnavailable>
    /** Opens a payment of the invoice a public token names, with the payments provider. */
    readonly paymentIntent: (
      token: string
    ) => Effect.Effect<
      { readonly invoice: Invoice; readonly intent: PaymentIntent },
      InvoiceNotFound | InvoiceStatusConflict | PersistenceUnavailable
    >
  }
>()("@svc/domain/Invoices") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* InvoicesRepo
    const customers = yield* CustomersRepo
    const teams = yield* TeamsRepo
    const transactor = yield* Transactor
    const renderer = yield* InvoiceRenderer
    const payments = yield* PaymentsProvider

    const get = Effect.fn("Invoices.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new InvoiceNotFound({ id })
      return found.value
    })

    const customerOf = Effect.fn("Invoices.customerOf")(function* (teamId: TeamId, id: string) {
      const customer = yield* customers.find(teamId, id)
      if (Option.isNone(customer)) return yield* new CustomerNotFound({ id })
      return { customerId: customer.value.id, customerName: customer.value.name }
    })

    /** The content of an invoice from its input, for the customer given (already checked to be the team's). */
    const content = Effect.fn("Invoices.content")(function* (
      customer: Pick<Invoice, "customerId" | "customerName">,
      input: Omit<InvoiceInput, "customerId">
    ) {
      const lineItems: Array<InvoiceLineItem> = []
      for (const [i, item] of input.lineItems.entries()) {
        lineItems.push({
          name: item.name,
          quantity: item.quantity,
          unitPriceMinor: yield* Effect.fromResult(
            parseMajor(item.unitPrice, input.currency, `lineItems.${i}.unitPrice`)
          ),
          taxRate: item.taxRate ?? null,
          vatRate: item.vatRate ?? null
        })
      }
      const discountMinor = yield* Effect.fromResult(parseMajor(input.discount ?? 0, input.currency, "discount"))
      if (input.dueDate < input.issueDate) {
        return yield* new InvalidInvoice({ field: "dueDate", message: "must not be before issueDate" })
      }
      const totals = invoiceTotals({ lineItems, discountMinor })
      if (discountMinor > totals.subtotalMinor) {
        return yield* new InvalidInvoice({ field: "discount", message: "must not exceed the subtotal" })
      }
      if (!totalsInRange(totals)) {
        return yield* new InvalidInvoice({ field: "lineItems", message: "the total is too large" })
      }
      return {
        customerId: customer.customerId,
        customerName: customer.customerName,
        currency: input.currency,
        issueDate: input.issueDate,
        dueDate: input.dueDate,
        lineItems,
        discountMinor,
        note: input.note ?? null
      } satisfies InvoiceContent
    })

    const create = Effect.fn("Invoices.create")(function* (teamId: TeamId, input: InvoiceInput) {
      const body = yield* content(yield* customerOf(teamId, input.customerId), input)
      const now = yield* nowIso
      const draft: Invoice = {
        id: yield* newId(InvoiceId),
        teamId,
        invoiceNumber: input.invoiceNumber ?? "",
        status: "draft",
        ...body,
        token: yield* newToken,
        scheduledAt: null,
        sentAt: null,
        paidAt: null,
        canceledAt: null,
        paymentIntentId: null,
        paidTransactionId: null,
        createdAt: now,
        updatedAt: now
      }
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          if (input.invoiceNumber !== undefined) {
            if (!(yield* repo.insert(draft))) {
              return yield* new DuplicateInvoiceNumber({ invoiceNumber: input.invoiceNumber })
            }
            return draft
          }
          // A number an explicit invoice already took is skipped, so the counter never hands out a taken one.
          while (true) {
            const numbered = { ...draft, invoiceNumber: invoiceNumberOf(yield* repo.nextNumber(teamId)) }
            if (yield* repo.insert(numbered)) return numbered
          }
        })
      )
    })

    const store = Effect.fn("Invoices.store")(function* (next: Invoice, current: Invoice, now: string) {
      const outcome = yield* repo.replace(next, current.status)
      if (outcome === "number_taken") return yield* new DuplicateInvoiceNumber({ invoiceNumber: next.invoiceNumber })
      if (outcome === "stale") return yield* conflict(current, now, "the invoice changed meanwhile; read it again")
      return next
    })

    // The number is unchanged, so no other invoice can hold it.
    const storeKeepingNumber = (next: Invoice, current: Invoice, now: string) =>
      store(next, current, now).pipe(Effect.catchTag("DuplicateInvoiceNumber", Effect.die))

    const move = (invoice: Invoice, target: InvoiceTarget, now: string, paidAt: string | undefined): Invoice => {
      switch (target) {
        case "unpaid":
          return { ...invoice, status: "unpaid", sentAt: invoice.sentAt ?? now }
        case "paid":
          return paidAtTime(invoice, paidAt ?? now)
        case "canceled":
          return { ...invoice, status: "canceled", canceledAt: now }
      }
    }

    const update = Effect.fn("Invoices.update")(function* (teamId: TeamId, id: string, patch: InvoicePatch) {
      const current = yield* get(teamId, id)
      const now = yield* nowIso
      const status = effectiveStatus(current, now)
      if (patch.paidAt !== undefined && patch.status !== "paid") {
        return yield* new InvalidInvoice({ field: "paidAt", message: "only with status paid" })
      }
      const { status: target, paidAt, invoiceNumber, ...contentPatch } = patch
      const changesContent = invoiceNumber !== undefined || Object.keys(contentPatch).length > 0
      if (changesContent && !isEditable(status)) {
        return yield* conflict(current, now, `a ${status} invoice cannot be edited`)
      }
      let next: Invoice = { ...current, invoiceNumber: invoiceNumber ?? current.invoiceNumber, updatedAt: now }
      if (Object.keys(contentPatch).length > 0) {
        const customer =
          contentPatch.customerId === undefined ? current : yield* customerOf(teamId, contentPatch.customerId)
        next = { ...next, ...(yield* content(customer, { ...inputOf(current), ...contentPatch })) }
      }
      if (target !== undefined && target !== status) {
        if (!canMove(status, target))
          return yield* conflict(current, now, `a ${status} invoice cannot become ${target}`)
        next = move(next, target, now, paidAt)
      }
      return yield* store(next, current, now)
    })

    const send = Effect.fn("Invoices.send")(function* (teamId: TeamId, id: string, scheduledAt: string | null) {
      const current = yield* get(teamId, id)
      const now = yield* nowIso
      const status = effectiveStatus(current, now)
      if (status !== "draft" && status !== "scheduled") {
        return yield* conflict(current, now, `a ${status} invoice cannot be sent`)
      }
      const next: Invoice =
        scheduledAt !== null && scheduledAt > now
          ? { ...current, status: "scheduled", scheduledAt, updatedAt: now }
          : { ...move(current, "unpaid", now, undefined), updatedAt: now }
      return yield* storeKeepingNumber(next, current, now)
    })

    const remove = Effect.fn("Invoices.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      const now = yield* nowIso
      const status = effectiveStatus(current, now)
      if (!isDeletable(status)) return yield* conflict(current, now, `a ${status} invoice cannot be deleted`)
      if (!(yield* repo.delete(teamId, id, current.status))) {
        return yield* conflict(current, now, "the invoice changed meanwhile; read it again")
      }
      return current
    })

    const found = (id: string) => (invoice: Option.Option<Invoice>) =>
      Option.match(invoice, { onNone: () => Effect.fail(new InvoiceNotFound({ id })), onSome: Effect.succeed })

    const teamOf = (teamId: TeamId) =>
      teams
        .findById(teamId)
        .pipe(
          Effect.flatMap(
            Option.match({ onNone: () => Effect.fail(new TeamNotFound({ teamId })), onSome: Effect.succeed })
          )
        )

    const byToken = Effect.fn("Invoices.byToken")((token: string) =>
      repo.findByToken(token).pipe(Effect.flatMap(found("token")))
    )

    const paymentIntent = Effect.fn("Invoices.paymentIntent")(function* (token: string) {
      const current = yield* byToken(token)
      const now = yield* nowIso
      const status = effectiveStatus(current, now)
      if (!isPayable(status)) return yield* conflict(current, now, `a ${status} invoice cannot be paid`)
      const intent = yield* payments.createPaymentIntent(current)
      const invoice = yield* storeKeepingNumber(
        { ...current, paymentIntentId: intent.id, updatedAt: now },
        current,
        now
      )
      return { invoice, intent }
    })

    return Invoices.of({
      create,
      get,
      list: Effect.fn("Invoices.list")(function* (teamId, filter, page) {
        return yield* repo.list(teamId, { ...filter, nowIso: yield* nowIso }, page)
      }),
      update,
      send,
      remove,
      summary: Effect.fn("Invoices.summary")(function* (teamId: TeamId, currency: string | null) {
        const target = currency ?? (yield* teamOf(teamId)).baseCurrency
        return summarizeInvoices(yield* repo.all(teamId), target, yield* nowIso)
      }),
      paymentStatus: Effect.fn("Invoices.paymentStatus")(function* (teamId: TeamId) {
        return paymentStatusOf(yield* repo.all(teamId), yield* nowIso)
      }),
      byId: Effect.fn("Invoices.byId")((id: string) => repo.findById(id).pipe(Effect.flatMap(found(id)))),
      byToken,
      document: Effect.fn("Invoices.document")(function* (invoice: Invoice, kind: InvoiceDocumentKind) {
        if (kind === "receipt" && invoice.status !== "paid") {
          return yield* new ReceiptUnavailable({ id: invoice.id, status: effectiveStatus(invoice, yield* nowIso) })
        }
        const team = yield* teamOf(invoice.teamId)
        return yield* renderer.render({ invoice, teamName: team.name, kind })
      }),
      paymentIntent
    })
  })
  static readonly layer = Layer.effect(Invoices, Invoices.make)
}

/**
 * Applies a provider's payment of an invoice in one transaction, exactly once: the invoice becomes paid, the payment is
 * recorded as a business-finance transaction (linked from the invoice) and `invoice.paid` is published. A payment of an
 * invoice already paid changes nothing (`already_paid`); concurrent deliveries serialise on the invoice's row.
 */
export const invoicePaymentRecorder = Effect.gen(function* () {
  const repo = yield* InvoicesRepo
  const transactions = yield* TransactionsRepo
  const outbox = yield* EventOutbox
  const transactor = yield* Transactor

  const apply = (payment: ProviderPayment) =>
    Effect.gen(function* () {
      const now = yield* nowIso
      const invoice = yield* repo.findById(payment.invoiceId).pipe(
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(new InvoiceNotFound({ id: payment.invoiceId })),
            onSome: Effect.succeed
          })
        )
      )
      if (invoice.status === "paid") return "already_paid" as const
      const status = effectiveStatus(invoice, now)
      if (!isPayable(status)) return yield* conflict(invoice, now, `a ${status} invoice cannot be paid`)
      const { totalMinor } = invoiceTotals(invoice)
      if (payment.currency !== invoice.currency || payment.amountMinor !== totalMinor) {
        return yield* new InvoicePaymentMismatch({
          id: invoice.id,
          message: `paid ${payment.amountMinor} ${payment.currency}, due ${totalMinor} ${invoice.currency}`
        })
      }
      const transactionId = yield* newId(TransactionId)
      const paid: Invoice = {
        ...paidAtTime(invoice, now),
        paymentIntentId: payment.paymentIntentId,
        paidTransactionId: transactionId,
        updatedAt: now
      }
      const outcome = yield* repo.replace(paid, invoice.status)
      if (outcome !== "updated") {
        // Another delivery paid it first (it held the row until it committed): read what it left.
        const again = yield* repo.findById(invoice.id)
        if (Option.isSome(again) && again.value.status === "paid") return "already_paid" as const
        return yield* conflict(invoice, now, "the invoice changed meanwhile")
      }
      const recorded = yield* transactions.insertImported({
        id: transactionId,
        teamId: invoice.teamId,
        date: dayOf(now),
        name: `Payment of invoice ${invoice.invoiceNumber}`,
        description: null,
        amountMinor: payment.amountMinor,
        currency: invoice.currency,
        baseAmountMinor: null,
        baseCurrency: null,
        status: "posted",
        internal: false,
        recurring: false,
        frequency: null,
        manual: false,
        note: null,
        categoryId: null,
        bankAccountId: null,
        taxRate: null,
        taxType: null,
        counterpartyName: invoice.customerName,
        provider: payment.provider,
        providerTransactionId: payment.paymentIntentId,
        createdAt: now,
        updatedAt: now
      })
      if (recorded.outcome === "existing") {
        return yield* new InvoicePaymentMismatch({
          id: invoice.id,
          message: `payment ${payment.paymentIntentId} is already recorded for another invoice`
        })
      }
      yield* outbox.publish({
        id: yield* newIdText,
        teamId: invoice.teamId,
        mode: "live",
        type: "invoice.paid",
        data: {
          id: invoice.id,
          invoiceNumber: invoice.invoiceNumber,
          customerName: invoice.customerName,
          amount: renderMinor(payment.amountMinor, invoice.currency),
          currency: invoice.currency,
          paidAt: now,
          transactionId
        } satisfies InvoicePaymentView,
        createdAt: now
      })
      return "paid" as const
    })

  return Effect.fn("Invoices.recordPayment")((payment: ProviderPayment) => transactor.withTransaction(apply(payment)))
})
