import {
  type CustomerNotFound,
  type DuplicateInvoiceNumber,
  type InvalidAmount,
  type InvalidInvoice,
  type Invoice,
  type InvoiceNotFound,
  type InvoiceStatusConflict,
  Invoices,
  invoiceView,
  isoOfMillis,
  millisOfIso,
  nowIso,
  toPage
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../api/Api.ts"
import { conflict, notFound } from "../../../api/shared/index.ts"
import {
  invalidField,
  listPaging,
  missingResource,
  orServiceUnavailable,
  principalTeam,
  principalTeamId
} from "../../shared/index.ts"

/** An instant from the contract's ISO text, in the service's own ISO form (so instants compare as text). */
const instant = (text: string) => isoOfMillis(millisOfIso(text))

const invalid = {
  InvalidAmount: (e: InvalidAmount) => Effect.fail(invalidField(e.field, e.message)),
  InvalidInvoice: (e: InvalidInvoice) => Effect.fail(invalidField(e.field, e.message)),
  CustomerNotFound: (e: CustomerNotFound) => Effect.fail(missingResource("customer", e.id, "customerId")),
  DuplicateInvoiceNumber: (e: DuplicateInvoiceNumber) =>
    Effect.fail(conflict("invoice_number_taken", `the team already has an invoice ${e.invoiceNumber}`))
}
const missing = { InvoiceNotFound: (e: InvoiceNotFound) => Effect.fail(notFound(`no invoice ${e.id}`)) }
const refusedMove = {
  InvoiceStatusConflict: (e: InvoiceStatusConflict) => Effect.fail(conflict("invalid_status_transition", e.message))
}

export const InvoicesHttp = HttpApiBuilder.group(Api, "invoices", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const invoices = yield* Invoices
    const view = (invoice: Invoice) => Effect.map(nowIso, (now) => invoiceView(now)(invoice))
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          const filter = { status: query.status ?? null, customerId: query.customerId ?? null }
          const scope = `invoices:${teamId}:${filter.status ?? ""}:${filter.customerId ?? ""}`
          const page = yield* pageOf(scope, query)
          const now = yield* nowIso
          return yield* signedPage(scope, toPage(page, yield* invoices.list(teamId, filter, page), invoiceView(now)))
        }).pipe(orServiceUnavailable)
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const { teamId } = yield* principalTeam
          return yield* view(yield* invoices.create(teamId, payload))
        }).pipe(Effect.catchTags(invalid), orServiceUnavailable)
      )
      .handle("summary", ({ query }) =>
        Effect.gen(function* () {
          const teamId = yield* principalTeamId
          // The caller's team exists: its principal was just resolved from it.
          return yield* invoices
            .summary(teamId, query.currency ?? null)
            .pipe(Effect.catchTag("TeamNotFound", Effect.die))
        }).pipe(orServiceUnavailable)
      )
      .handle("paymentStatus", () =>
        Effect.gen(function* () {
          return yield* invoices.paymentStatus(yield* principalTeamId)
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          return yield* view(yield* invoices.get(yield* principalTeamId, params.id))
        }).pipe(Effect.catchTags(missing), orServiceUnavailable)
      )
      .handle("update", ({ params, payload }) =>
        Effect.gen(function* () {
          const { paidAt, ...patch } = payload
          const changed = yield* invoices.update(yield* principalTeamId, params.id, {
            ...patch,
            ...(paidAt === undefined ? {} : { paidAt: instant(paidAt) })
          })
          return yield* view(changed)
        }).pipe(Effect.catchTags({ ...invalid, ...missing, ...refusedMove }), orServiceUnavailable)
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          const removed = yield* invoices.remove(yield* principalTeamId, params.id)
          return { id: removed.id, object: "invoice" as const, deleted: true as const }
        }).pipe(Effect.catchTags({ ...missing, ...refusedMove }), orServiceUnavailable)
      )
      .handle("send", ({ params, query }) =>
        Effect.gen(function* () {
          const scheduledAt = query.scheduledAt === undefined ? null : instant(query.scheduledAt)
          return yield* view(yield* invoices.send(yield* principalTeamId, params.id, scheduledAt))
        }).pipe(Effect.catchTags({ ...missing, ...refusedMove }), orServiceUnavailable)
      )
  })
)
