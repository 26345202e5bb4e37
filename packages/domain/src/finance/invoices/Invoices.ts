import { Context, Effect, Layer, Option } from "effect"
import { TeamNotFound, TeamsRepo } from "../../identity/index.ts"
import {
  newId,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  randomBytes,
  type TeamId,
  Transactor,
  toBase64Url
} from "../../shared/index.ts"
import { CustomerNotFound, CustomersRepo } from "../customers/index.ts"
import type { InvalidAmount } from "../money/model.ts"
import {
  effectiveStatus,
  type Invoice,
  InvoiceId,
  invoiceNumberOf,
  isDeletable,
  isPayable,
  type OutgoingInvoice,
  outgoingInvoice
} from "./Invoice.ts"
import { invoicePatchRefusal, invoiceStatusConflict, patchedStatusOf, sentInvoice } from "./InvoiceChanges.ts"
import {
  DuplicateInvoiceNumber,
  type InvalidInvoice,
  InvoiceNotFound,
  type InvoiceStatusConflict,
  ReceiptUnavailable
} from "./InvoiceErrors.ts"
import {
  draftInputOf,
  type InvoiceDraftInput,
  type InvoicePatch,
  invoiceContentOf,
  invoiceInputOf
} from "./InvoiceInput.ts"
import { type InvoiceDocumentKind, InvoiceRenderer, type PaymentIntent, PaymentsProvider } from "./InvoicePorts.ts"
import { type InvoicePaymentStatus, type InvoiceSummary, paymentStatusOf, summarizeInvoices } from "./InvoiceSummary.ts"
import { type InvoiceFilter, InvoicesRepo } from "./InvoicesRepo.ts"

/** A new public token: 32 random bytes, base64url. */
const newToken = Effect.map(randomBytes(32), toBase64Url)

/** A team's invoices: numbering, content rules, status moves, documents and payment. */
export class Invoices extends Context.Service<
  Invoices,
  {
    /** Creates a draft; its number is the one given (409 when taken) or the team's next, handed out gaplessly. */
    readonly create: (
      teamId: TeamId,
      input: InvoiceDraftInput
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
    /** The invoice a public token names, as it may leave the team (no internal note). */
    readonly byToken: (token: string) => Effect.Effect<OutgoingInvoice, InvoiceNotFound | PersistenceUnavailable>
    /** The invoice or, for a paid one, its receipt, as a PDF (never with the internal note). */
    readonly document: (
      invoice: OutgoingInvoice,
      kind: InvoiceDocumentKind
    ) => Effect.Effect<Uint8Array, ReceiptUnavailable | TeamNotFound | PersistenceUnavailable>
    /** Opens a payment of the invoice a public token names, with the payments provider. */
    readonly paymentIntent: (
      token: string
    ) => Effect.Effect<
      { readonly invoice: OutgoingInvoice; readonly intent: PaymentIntent },
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

    const create = Effect.fn("Invoices.create")(function* (teamId: TeamId, given: InvoiceDraftInput) {
      // The caller's team exists: its principal was just resolved from it.
      const team = yield* teamOf(teamId).pipe(Effect.catchTag("TeamNotFound", Effect.die))
      const input = draftInputOf(given, team.baseCurrency, (yield* nowIso).slice(0, 10))
      const body = yield* Effect.fromResult(invoiceContentOf(yield* customerOf(teamId, input.customerId), input))
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
      if (outcome === "stale") {
        return yield* invoiceStatusConflict(current, now, "the invoice changed meanwhile; read it again")
      }
      return next
    })

    // The number is unchanged, so no other invoice can hold it.
    const storeKeepingNumber = (next: Invoice, current: Invoice, now: string) =>
      store(next, current, now).pipe(Effect.catchTag("DuplicateInvoiceNumber", Effect.die))

    const update = Effect.fn("Invoices.update")(function* (teamId: TeamId, id: string, patch: InvoicePatch) {
      const current = yield* get(teamId, id)
      const now = yield* nowIso
      const refusal = invoicePatchRefusal(current, patch, now)
      if (Option.isSome(refusal)) return yield* refusal.value
      const { status, paidAt, invoiceNumber, ...contentPatch } = patch
      let next: Invoice = { ...current, invoiceNumber: invoiceNumber ?? current.invoiceNumber, updatedAt: now }
      if (Object.keys(contentPatch).length > 0) {
        const customer =
          contentPatch.customerId === undefined ? current : yield* customerOf(teamId, contentPatch.customerId)
        const content = invoiceContentOf(customer, { ...invoiceInputOf(current), ...contentPatch })
        next = { ...next, ...(yield* Effect.fromResult(content)) }
      }
      next = yield* Effect.fromResult(patchedStatusOf(current, next, { status, paidAt }, now))
      return yield* store(next, current, now)
    })

    const send = Effect.fn("Invoices.send")(function* (teamId: TeamId, id: string, scheduledAt: string | null) {
      const current = yield* get(teamId, id)
      const now = yield* nowIso
      const next = yield* Effect.fromResult(sentInvoice(current, scheduledAt, now))
      return yield* storeKeepingNumber(next, current, now)
    })

    const remove = Effect.fn("Invoices.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      const now = yield* nowIso
      const status = effectiveStatus(current, now)
      if (!isDeletable(status)) {
        return yield* invoiceStatusConflict(current, now, `a ${status} invoice cannot be deleted`)
      }
      if (!(yield* repo.delete(teamId, id, current.status))) {
        return yield* invoiceStatusConflict(current, now, "the invoice changed meanwhile; read it again")
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

    const storedByToken = (token: string) => repo.findByToken(token).pipe(Effect.flatMap(found("token")))

    const paymentIntent = Effect.fn("Invoices.paymentIntent")(function* (token: string) {
      const current = yield* storedByToken(token)
      const now = yield* nowIso
      const status = effectiveStatus(current, now)
      if (!isPayable(status)) return yield* invoiceStatusConflict(current, now, `a ${status} invoice cannot be paid`)
      const intent = yield* payments.createPaymentIntent(outgoingInvoice(current))
      const invoice = yield* storeKeepingNumber(
        { ...current, paymentIntentId: intent.id, updatedAt: now },
        current,
        now
      )
      return { invoice: outgoingInvoice(invoice), intent }
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
      byToken: Effect.fn("Invoices.byToken")((token: string) => storedByToken(token).pipe(Effect.map(outgoingInvoice))),
      document: Effect.fn("Invoices.document")(function* (invoice: OutgoingInvoice, kind: InvoiceDocumentKind) {
        if (kind === "receipt" && invoice.status !== "paid") {
          return yield* new ReceiptUnavailable({ id: invoice.id, status: effectiveStatus(invoice, yield* nowIso) })
        }
        const team = yield* teamOf(invoice.teamId)
        return yield* renderer.render({ invoice: outgoingInvoice(invoice), teamName: team.name, kind })
      }),
      paymentIntent
    })
  })
  static readonly layer = Layer.effect(Invoices, Invoices.make)
}
