import { Option, Result } from "effect"
import { canMove, effectiveStatus, type Invoice, type InvoiceTarget, isEditable, paidAtTime } from "./Invoice.ts"
import { InvalidInvoice, InvoiceStatusConflict } from "./InvoiceErrors.ts"
import type { InvoicePatch } from "./InvoiceInput.ts"

/** The invoice's status at `nowIso` does not allow what was asked. */
export const invoiceStatusConflict = (invoice: Invoice, nowIso: string, message: string) =>
  new InvoiceStatusConflict({ id: invoice.id, status: effectiveStatus(invoice, nowIso), message })

/** The invoice moved to `target` at `nowIso`: sent (once), paid at `paidAt` (default now) or canceled. */
export const movedInvoice = (
  invoice: Invoice,
  target: InvoiceTarget,
  nowIso: string,
  paidAt: string | undefined
): Invoice => {
  switch (target) {
    case "unpaid":
      return { ...invoice, status: "unpaid", sentAt: invoice.sentAt ?? nowIso }
    case "paid":
      return paidAtTime(invoice, paidAt ?? nowIso)
    case "canceled":
      return { ...invoice, status: "canceled", canceledAt: nowIso }
  }
}

/** What a patch may change on a paid or canceled invoice too: its status, and the team's internal note. */
const ALWAYS_EDITABLE = new Set(["status", "paidAt", "internalNote"])

/** Why a patch is refused before its content is read: `paidAt` without `paid`, or new content for a final invoice. */
export const invoicePatchRefusal = (
  current: Invoice,
  patch: InvoicePatch,
  nowIso: string
): Option.Option<InvalidInvoice | InvoiceStatusConflict> => {
  if (patch.paidAt !== undefined && patch.status !== "paid") {
    return Option.some(new InvalidInvoice({ field: "paidAt", message: "only with status paid" }))
  }
  const status = effectiveStatus(current, nowIso)
  const changesContent = Object.keys(patch).some((key) => !ALWAYS_EDITABLE.has(key))
  if (changesContent && !isEditable(status)) {
    return Option.some(invoiceStatusConflict(current, nowIso, `a ${status} invoice cannot be edited`))
  }
  return Option.none()
}

/**
 * `next` (the patched `current`) moved to the status a patch asks for, refused when `current` cannot make that move;
 * unchanged when the patch asks for none or for the status it has.
 */
export const patchedStatusOf = (
  current: Invoice,
  next: Invoice,
  patch: Pick<InvoicePatch, "status" | "paidAt">,
  nowIso: string
): Result.Result<Invoice, InvoiceStatusConflict> => {
  const status = effectiveStatus(current, nowIso)
  if (patch.status === undefined || patch.status === status) return Result.succeed(next)
  if (!canMove(status, patch.status)) {
    return Result.fail(invoiceStatusConflict(current, nowIso, `a ${status} invoice cannot become ${patch.status}`))
  }
  if (patch.status !== "canceled" && next.lineItems.length === 0) {
    return Result.fail(
      invoiceStatusConflict(current, nowIso, `an invoice without line items cannot become ${patch.status}`)
    )
  }
  return Result.succeed(movedInvoice(next, patch.status, nowIso, patch.paidAt))
}

/** A draft or scheduled invoice sent now, or scheduled when `scheduledAt` is later; refused in any other status. */
export const sentInvoice = (
  current: Invoice,
  scheduledAt: string | null,
  nowIso: string
): Result.Result<Invoice, InvoiceStatusConflict> => {
  const status = effectiveStatus(current, nowIso)
  if (status !== "draft" && status !== "scheduled") {
    return Result.fail(invoiceStatusConflict(current, nowIso, `a ${status} invoice cannot be sent`))
  }
  if (current.lineItems.length === 0) {
    return Result.fail(invoiceStatusConflict(current, nowIso, "an invoice without line items cannot be sent"))
  }
  return Result.succeed(
    scheduledAt !== null && scheduledAt > nowIso
      ? { ...current, status: "scheduled", scheduledAt, updatedAt: nowIso }
      : { ...movedInvoice(current, "unpaid", nowIso, undefined), updatedAt: nowIso }
  )
}
