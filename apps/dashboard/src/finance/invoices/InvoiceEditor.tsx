import { ApiError, type PromiseClient } from "@svc/sdk"
import { useState } from "preact/hooks"
import { useWorkspace } from "../../session/context.ts"
import { ErrorNote, Field } from "../../ui/components.tsx"

export type InvoiceItem = Awaited<ReturnType<PromiseClient["invoices"]["get"]>>
export type CustomerItem = Awaited<ReturnType<PromiseClient["customers"]["get"]>>

/** A line as typed: numbers stay text until they are sent, so the service names what is wrong with them. */
interface LineDraft {
  readonly name: string
  readonly quantity: string
  readonly unitPrice: string
  readonly taxRate: string
}

const EMPTY_LINE: LineDraft = { name: "", quantity: "1", unitPrice: "", taxRate: "" }

/** A typed number as sent: a number when it reads as one, else the text (the service then names the field). */
const numberOf = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text.trim().replace(",", ".")))

/**
 * What is wrong, by field path as the request names it (`dueDate`, `lineItems.0.quantity`), when the service or the
 * client refused the input; null for any other failure.
 */
const errorsByPath = (error: unknown): Readonly<Record<string, string>> | null => {
  if (!(error instanceof ApiError) || error.details === undefined || error.details.length === 0) return null
  const byPath: Record<string, string> = {}
  for (const detail of error.details) byPath[detail.path.replace(/^payload\./u, "")] ??= detail.message
  return byPath
}

/**
 * The editor of a draft invoice: its customer, currency, dates and lines, created (no `invoice`) or replaced. A
 * refusal shows each field's problem under the field.
 */
export const InvoiceEditor = ({
  invoice,
  customers,
  onSaved,
  onCancel
}: {
  readonly invoice: InvoiceItem | null
  readonly customers: ReadonlyArray<CustomerItem>
  readonly onSaved: (invoice: InvoiceItem) => void
  readonly onCancel: () => void
}) => {
  const { client, team } = useWorkspace()
  const [customerId, setCustomerId] = useState(invoice?.customerId ?? customers[0]?.id ?? "")
  const [currency, setCurrency] = useState(invoice?.currency ?? team?.baseCurrency ?? "USD")
  const [issueDate, setIssueDate] = useState(invoice?.issueDate ?? "")
  const [dueDate, setDueDate] = useState(invoice?.dueDate ?? "")
  const [note, setNote] = useState(invoice?.note ?? "")
  const [lines, setLines] = useState<ReadonlyArray<LineDraft>>(
    invoice === null || invoice.lineItems.length === 0
      ? [EMPTY_LINE]
      : invoice.lineItems.map((line) => ({
          name: line.name,
          quantity: String(line.quantity),
          unitPrice: String(line.unitPrice),
          taxRate: line.taxRate === null ? "" : String(line.taxRate)
        }))
  )
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const errors = errorsByPath(error) ?? {}
  const setLine = (index: number, field: keyof LineDraft, value: string) =>
    setLines((previous) => previous.map((line, at) => (at === index ? { ...line, [field]: value } : line)))
  const save = () => {
    const content = {
      customerId,
      currency: currency.trim().toUpperCase(),
      ...(issueDate === "" ? {} : { issueDate }),
      ...(dueDate === "" ? {} : { dueDate }),
      note: note.trim() === "" ? null : note,
      lineItems: lines.map((line) => ({
        name: line.name.trim(),
        quantity: numberOf(line.quantity),
        unitPrice: numberOf(line.unitPrice),
        taxRate: line.taxRate.trim() === "" ? null : numberOf(line.taxRate)
      }))
    }
    setBusy(true)
    setError(null)
    const saved =
      invoice === null
        ? client.invoices.create({ payload: content })
        : client.invoices.update({ params: { id: invoice.id }, payload: content })
    saved.then(
      (answer) => {
        setBusy(false)
        onSaved(answer)
      },
      (failure: unknown) => {
        setBusy(false)
        setError(failure)
      }
    )
  }
  const title = invoice === null ? "New draft invoice" : `Edit draft ${invoice.invoiceNumber}`
  return (
    <form
      class="card invoice-editor"
      aria-label={title}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        save()
      }}
    >
      <h2>{title}</h2>
      <Field label="Customer" error={errors.customerId}>
        {(props) => (
          <select {...props} value={customerId} onChange={(event) => setCustomerId(event.currentTarget.value)}>
            {customers.map((customer) => (
              <option key={customer.id} value={customer.id}>
                {customer.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="row">
        <Field label="Currency" help="ISO 4217 code, e.g. USD" error={errors.currency}>
          {(props) => (
            <input
              {...props}
              type="text"
              maxLength={3}
              autoCapitalize="characters"
              value={currency}
              onInput={(event) => setCurrency(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Issue date" help="Today when empty" error={errors.issueDate}>
          {(props) => (
            <input
              {...props}
              type="date"
              value={issueDate}
              onInput={(event) => setIssueDate(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Due date" help="30 days after issue when empty" error={errors.dueDate}>
          {(props) => (
            <input {...props} type="date" value={dueDate} onInput={(event) => setDueDate(event.currentTarget.value)} />
          )}
        </Field>
      </div>
      <fieldset>
        <legend>Line items</legend>
        {errors.lineItems === undefined ? null : <p class="error">{errors.lineItems}</p>}
        {lines.map((line, index) => {
          const at = (field: string) => errors[`lineItems.${index}.${field}`]
          return (
            <fieldset class="line-item" key={index}>
              <legend>Line {index + 1}</legend>
              <Field label="Description" error={at("name")}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    maxLength={500}
                    value={line.name}
                    onInput={(event) => setLine(index, "name", event.currentTarget.value)}
                  />
                )}
              </Field>
              <Field label="Quantity" error={at("quantity")}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    inputMode="decimal"
                    value={line.quantity}
                    onInput={(event) => setLine(index, "quantity", event.currentTarget.value)}
                  />
                )}
              </Field>
              <Field label={`Unit price (${currency})`} error={at("unitPrice")}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    inputMode="decimal"
                    value={line.unitPrice}
                    onInput={(event) => setLine(index, "unitPrice", event.currentTarget.value)}
                  />
                )}
              </Field>
              <Field label="Tax rate (%)" error={at("taxRate")}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    inputMode="decimal"
                    value={line.taxRate}
                    onInput={(event) => setLine(index, "taxRate", event.currentTarget.value)}
                  />
                )}
              </Field>
              {lines.length > 1 ? (
                <button
                  type="button"
                  aria-label={`Remove line ${index + 1}`}
                  onClick={() => setLines((previous) => previous.filter((_, other) => other !== index))}
                >
                  Remove
                </button>
              ) : null}
            </fieldset>
          )
        })}
        <button type="button" onClick={() => setLines((previous) => [...previous, EMPTY_LINE])}>
          Add line
        </button>
      </fieldset>
      <Field label="Note for the customer" error={errors.note}>
        {(props) => (
          <textarea {...props} maxLength={5000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
        )}
      </Field>
      {error === null || errorsByPath(error) !== null ? null : <ErrorNote error={error} />}
      {errorsByPath(error) === null ? null : (
        <p class="error" role="alert">
          The invoice was not saved: see the fields marked above.
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={busy || customerId === ""}>
          Save draft
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
