import { ApiError } from "@svc/sdk"
import type { ComponentChildren } from "preact"
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks"
import { formatMoney } from "../format/money.ts"
import type { Loaded } from "./hooks.ts"
import { BASE, onLinkClick } from "./router.ts"

/** An amount in minor units shown in major units with its currency. */
export const Money = ({ amount, currency }: { readonly amount: number; readonly currency: string }) => (
  <span class="money">{formatMoney(amount, currency)}</span>
)

/** A link inside the app (no reload). */
export const Link = ({
  to,
  children,
  current
}: {
  readonly to: string
  readonly children: ComponentChildren
  readonly current?: boolean
}) => (
  <a href={`${BASE}${to}`} onClick={onLinkClick(to)} aria-current={current === true ? "page" : undefined}>
    {children}
  </a>
)

/** What went wrong, in words a person can act on. */
const describeError = (error: unknown): string => {
  if (error instanceof ApiError) {
    if (error.status === 0) return "The service could not be reached. Check your connection and try again."
    if (error.status === 403) return `You are not allowed to do this (${error.message}).`
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}

/** An error shown where the content would be, announced to screen readers; an ended session links to sign-in. */
export const ErrorNote = ({ error }: { readonly error: unknown }) =>
  error instanceof ApiError && error.status === 401 ? (
    <p class="error" role="alert">
      Your session has ended. <a href={`${BASE}/sign-in`}>Sign in again</a>.
    </p>
  ) : (
    <p class="error" role="alert">
      {describeError(error)}
    </p>
  )

/** The content of a load: a status line while loading, the error, or `children(value)`. */
export const Loading = <A,>({
  loaded,
  label,
  children
}: {
  readonly loaded: Loaded<A>
  readonly label: string
  readonly children: (value: A) => ComponentChildren
}) =>
  loaded.state === "loading" ? (
    <p class="muted" role="status">
      Loading {label}…
    </p>
  ) : loaded.state === "failed" ? (
    <ErrorNote error={loaded.error} />
  ) : loaded.refreshError === undefined ? (
    children(loaded.value)
  ) : (
    <>
      {loaded.refreshError instanceof ApiError && loaded.refreshError.status === 401 ? (
        <ErrorNote error={loaded.refreshError} />
      ) : (
        <p class="error" role="status">
          Could not refresh {label} ({describeError(loaded.refreshError)}); showing what was loaded before.
        </p>
      )}
      {children(loaded.value)}
    </>
  )

/** A page's heading and what it is for. */
export const PageHeader = ({ title, children }: { readonly title: string; readonly children?: ComponentChildren }) => (
  <header class="page-header">
    <h1 tabIndex={-1}>{title}</h1>
    {children === undefined ? null : <p class="muted">{children}</p>}
  </header>
)

/** A labelled form field with a help text the field is described by. */
export const Field = ({
  label,
  help,
  error,
  children
}: {
  readonly label: string
  readonly help?: string
  /** What is wrong with the value, shown under the field and announced with it; none when it is fine. */
  readonly error?: string | undefined
  readonly children: (props: {
    readonly id: string
    readonly "aria-describedby"?: string
    readonly "aria-invalid"?: true
  }) => ComponentChildren
}) => {
  const id = useId()
  const helpId = `${id}-help`
  const errorId = `${id}-error`
  const describedBy = [help === undefined ? null : helpId, error === undefined ? null : errorId]
    .filter((part) => part !== null)
    .join(" ")
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({
        id,
        ...(describedBy === "" ? {} : { "aria-describedby": describedBy }),
        ...(error === undefined ? {} : { "aria-invalid": true as const })
      })}
      {help === undefined ? null : (
        <small id={helpId} class="muted">
          {help}
        </small>
      )}
      {error === undefined ? null : (
        <small id={errorId} class="error">
          {error}
        </small>
      )}
    </div>
  )
}

/**
 * The field errors of a refused request by field name (the last part of each detail's path, e.g. `payload.name` →
 * `name`), when the service or the client refused the input; null for any other failure.
 */
export const fieldErrorsOf = (error: unknown): Readonly<Record<string, string>> | null => {
  if (!(error instanceof ApiError) || error.details === undefined || error.details.length === 0) return null
  const byField: Record<string, string> = {}
  for (const detail of error.details) {
    const field = detail.path.split(".").at(-1) ?? ""
    byField[field] ??= detail.message
  }
  return byField
}

/** A button that runs `action`, disabled while it runs, reporting its failure beside it. */
export const ActionButton = ({
  action,
  children,
  kind = "secondary",
  label
}: {
  readonly action: () => Promise<unknown>
  readonly children: ComponentChildren
  readonly kind?: "primary" | "secondary" | "danger"
  readonly label?: string
}) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  return (
    <span class="action">
      <button
        type="button"
        class={kind}
        disabled={busy}
        aria-label={label}
        onClick={() => {
          setBusy(true)
          setError(null)
          action().then(
            () => setBusy(false),
            (failure: unknown) => {
              setBusy(false)
              setError(failure)
            }
          )
        }}
      >
        {children}
      </button>
      {error === null ? null : <ErrorNote error={error} />}
    </span>
  )
}

/** A destructive action asked twice: the first press shows a confirmation with the consequence spelled out. */
export const ConfirmButton = ({
  action,
  children,
  question,
  confirmLabel
}: {
  readonly action: () => Promise<unknown>
  readonly children: ComponentChildren
  readonly question: string
  readonly confirmLabel: string
}) => {
  const [asking, setAsking] = useState(false)
  const wrapper = useRef<HTMLSpanElement>(null)
  const answered = useRef(false)
  useLayoutEffect(() => {
    // Keyboard focus follows the question: onto its confirm button, and back to the first button on cancel. In the
    // same commit as the question itself (a layout effect), so no key press can land between its showing and the focus.
    if (asking) wrapper.current?.querySelector("button")?.focus()
    else if (answered.current) wrapper.current?.querySelector("button")?.focus()
  }, [asking])
  return (
    <span ref={wrapper} class="confirm-wrap">
      {asking ? (
        <fieldset class="confirm">
          <legend>{question}</legend>
          <ActionButton kind="danger" action={action}>
            {confirmLabel}
          </ActionButton>
          <button
            type="button"
            onClick={() => {
              answered.current = true
              setAsking(false)
            }}
          >
            Cancel
          </button>
        </fieldset>
      ) : (
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          {children}
        </button>
      )}
    </span>
  )
}

/** A secret shown once, with a copy button and the warning that it will not be shown again. */
export const SecretOnce = ({ secret, what }: { readonly secret: string; readonly what: string }) => {
  const [copied, setCopied] = useState(false)
  return (
    <section class="secret" aria-label={`New ${what} secret`}>
      <p>
        <strong>Copy the {what} secret now:</strong> it is shown this once and never again.
      </p>
      <code>{secret}</code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(secret).then(() => setCopied(true))
        }}
      >
        {copied ? "Copied" : "Copy secret"}
      </button>
    </section>
  )
}

/** A status as a small coloured label. */
/**
 * Newer/Older buttons over a cursor list: `cursors` are the pages' cursors so far (the first page's is null), and the
 * page shown is the last; Older asks for the page after it while the list says there is one.
 */
export const Pager = ({
  cursors,
  onChange,
  meta
}: {
  readonly cursors: ReadonlyArray<string | null>
  readonly onChange: (cursors: ReadonlyArray<string | null>) => void
  readonly meta: { readonly hasNextPage: boolean; readonly cursor: string | null }
}) => (
  <nav class="pager" aria-label="Pages">
    <button type="button" disabled={cursors.length < 2} onClick={() => onChange(cursors.slice(0, -1))}>
      Newer
    </button>
    <button
      type="button"
      disabled={!meta.hasNextPage || meta.cursor === null}
      onClick={() => onChange([...cursors, meta.cursor])}
    >
      Older
    </button>
  </nav>
)

export const StatusBadge = ({ status }: { readonly status: string }) => (
  <span class={`badge badge-${status}`}>{status.replaceAll("_", " ")}</span>
)

/** The mark of a test-mode object, as Stripe marks test data; a live object carries none. */
export const ModeBadge = ({ mode }: { readonly mode: "live" | "test" | null }) =>
  mode === "test" ? (
    <span class="badge badge-test" title="Test mode: no real money moves">
      Test
    </span>
  ) : null
