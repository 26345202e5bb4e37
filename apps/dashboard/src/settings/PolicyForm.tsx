import { useState } from "preact/hooks"
import { parseMajor, toMajorText } from "../format/money.ts"
import { Field } from "../ui/components.tsx"

/** The policy fields the form edits (the rest of a key's policy is kept as it is). */
export interface PolicyFields {
  readonly perRequestLimit?: number
  readonly dailyBudget?: number
  readonly monthlyBudget?: number
  readonly approvalThreshold?: number
  readonly maxRequestsPerDay?: number
  readonly approvalTtlSeconds?: number
  readonly reviewNewMerchants?: boolean
}

const AMOUNTS = [
  [
    "approvalThreshold",
    "Approval threshold",
    "A request above this amount waits in the approvals inbox for an owner or admin instead of going through."
  ],
  ["perRequestLimit", "Per-request limit", "The most one request may ask for; above it the request is denied."],
  ["dailyBudget", "Daily budget", "What the key may spend per UTC day, approved and pending together."],
  ["monthlyBudget", "Monthly budget", "What the key may spend per UTC calendar month."]
] as const

type AmountName = (typeof AMOUNTS)[number][0]

/** The form's text of every field, so a half-typed amount stays as typed. */
type Texts = Record<AmountName | "maxRequestsPerDay" | "approvalTtlHours", string>

const textsOf = (policy: PolicyFields, currency: string): Texts => ({
  approvalThreshold: policy.approvalThreshold === undefined ? "" : toMajorText(policy.approvalThreshold, currency),
  perRequestLimit: policy.perRequestLimit === undefined ? "" : toMajorText(policy.perRequestLimit, currency),
  dailyBudget: policy.dailyBudget === undefined ? "" : toMajorText(policy.dailyBudget, currency),
  monthlyBudget: policy.monthlyBudget === undefined ? "" : toMajorText(policy.monthlyBudget, currency),
  maxRequestsPerDay: policy.maxRequestsPerDay === undefined ? "" : String(policy.maxRequestsPerDay),
  approvalTtlHours: policy.approvalTtlSeconds === undefined ? "" : String(policy.approvalTtlSeconds / 3600)
})

/** The policy the texts say, or the first field that is not a valid value. */
const policyOf = (
  texts: Texts,
  reviewNewMerchants: boolean,
  base: Readonly<Record<string, unknown>>,
  currency: string
): { readonly policy: Record<string, unknown> } | { readonly invalid: string } => {
  const policy: Record<string, unknown> = { ...base }
  for (const [name, label] of AMOUNTS) {
    delete policy[name]
    if (texts[name].trim() === "") continue
    const minor = parseMajor(texts[name], currency)
    if (minor === undefined) return { invalid: `${label} is not an amount in ${currency}` }
    policy[name] = minor
  }
  delete policy.maxRequestsPerDay
  if (texts.maxRequestsPerDay.trim() !== "") {
    const count = Number(texts.maxRequestsPerDay)
    if (!Number.isInteger(count) || count < 1) return { invalid: "Requests per day must be a whole number above 0" }
    policy.maxRequestsPerDay = count
  }
  delete policy.approvalTtlSeconds
  if (texts.approvalTtlHours.trim() !== "") {
    const hours = Number(texts.approvalTtlHours)
    if (!Number.isFinite(hours) || hours <= 0) return { invalid: "Approval window must be a number of hours above 0" }
    policy.approvalTtlSeconds = Math.round(hours * 3600)
  }
  policy.reviewNewMerchants = reviewNewMerchants
  return { policy }
}

/**
 * A spend policy form that says what each field does; empty fields impose no limit. `onSubmit` gets the whole policy
 * (fields the form does not show are kept from `initial`).
 */
export const PolicyForm = ({
  initial,
  currency,
  submitLabel,
  onSubmit,
  children
}: {
  readonly initial: Readonly<Record<string, unknown>> & PolicyFields
  readonly currency: string
  readonly submitLabel: string
  readonly onSubmit: (policy: Record<string, unknown>) => Promise<void>
  readonly children?: preact.ComponentChildren
}) => {
  const [texts, setTexts] = useState(() => textsOf(initial, currency))
  const [review, setReview] = useState(initial.reviewNewMerchants === true)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const text = (name: keyof Texts) => ({
    value: texts[name],
    onInput: (event: Event) => setTexts({ ...texts, [name]: (event.currentTarget as HTMLInputElement).value })
  })
  return (
    <form
      class="policy-form"
      onSubmit={(event) => {
        event.preventDefault()
        const result = policyOf(texts, review, initial, currency)
        if ("invalid" in result) {
          setProblem(result.invalid)
          return
        }
        setProblem(null)
        setBusy(true)
        onSubmit(result.policy).then(
          () => setBusy(false),
          (error: unknown) => {
            setBusy(false)
            setProblem(error instanceof Error ? error.message : String(error))
          }
        )
      }}
    >
      {children}
      <p class="muted">Amounts are in {currency}. Leave a field empty for no limit.</p>
      {AMOUNTS.map(([name, label, help]) => (
        <Field key={name} label={`${label} (${currency})`} help={help}>
          {(props) => <input {...props} inputMode="decimal" autocomplete="off" {...text(name)} />}
        </Field>
      ))}
      <Field label="Requests per day" help="The most requests the key may make per UTC day, whatever their amounts.">
        {(props) => <input {...props} inputMode="numeric" autocomplete="off" {...text("maxRequestsPerDay")} />}
      </Field>
      <Field
        label="Approval window (hours)"
        help="How long an approval waits for a decision before it expires and the held amount is released."
      >
        {(props) => <input {...props} inputMode="decimal" autocomplete="off" {...text("approvalTtlHours")} />}
      </Field>
      <div class="field checkbox">
        <label>
          <input type="checkbox" checked={review} onChange={(event) => setReview(event.currentTarget.checked)} /> Review
          new merchants
        </label>
        <small class="muted">The first request to a merchant the team has never paid waits for approval.</small>
      </div>
      {problem === null ? null : (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  )
}
