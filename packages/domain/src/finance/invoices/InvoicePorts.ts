import { Context, type Effect } from "effect"
import type { OutgoingInvoice } from "./Invoice.ts"

/** Which document of an invoice to render: the invoice itself, or the receipt of a paid one. */
export type InvoiceDocumentKind = "invoice" | "receipt"

/** What a rendered invoice document shows: the invoice and the name of the team that issued it. */
export interface InvoiceDocument {
  readonly invoice: OutgoingInvoice
  readonly teamName: string
  readonly kind: InvoiceDocumentKind
}

/** Renders invoice documents (PDF), with their text selectable. */
export class InvoiceRenderer extends Context.Service<
  InvoiceRenderer,
  { readonly render: (document: InvoiceDocument) => Effect.Effect<Uint8Array> }
>()("@svc/domain/InvoiceRenderer") {}

/** A payment intent the provider opened for an invoice: its id, and the secret the payer's browser confirms it with. */
export interface PaymentIntent {
  readonly id: string
  readonly clientSecret: string
}

/** The card-payments provider invoices are paid through; it reports payments on the `payments` webhook. */
export class PaymentsProvider extends Context.Service<
  PaymentsProvider,
  { readonly createPaymentIntent: (invoice: OutgoingInvoice) => Effect.Effect<PaymentIntent> }
>()("@svc/domain/PaymentsProvider") {}
