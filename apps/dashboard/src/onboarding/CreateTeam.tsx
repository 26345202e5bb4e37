import type { Team } from "@svc/sdk"
import { useRef, useState } from "preact/hooks"
import type { Workspace } from "../session/context.ts"
import { ErrorNote, Field, fieldErrorsOf } from "../ui/components.tsx"

type Errors = Readonly<Record<string, string>>

/** What the form can tell before asking the service: an empty name or a currency that is not three letters. */
const localErrors = (name: string, baseCurrency: string): Errors => ({
  ...(name === "" ? { name: "Enter the team's name." } : {}),
  ...(/^[A-Z]{3}$/u.test(baseCurrency) ? {} : { baseCurrency: "Enter a three-letter ISO 4217 code, e.g. USD." })
})

/**
 * The first page of a signed-in person without a team: create one (they become its owner), or wait for an
 * invitation. One press creates one team: the form ignores a second submit while the first is on its way.
 */
export const CreateTeam = ({
  workspace,
  onCreated
}: {
  readonly workspace: Workspace
  readonly onCreated: (team: Team) => void
}) => {
  const [name, setName] = useState("")
  const [baseCurrency, setBaseCurrency] = useState("USD")
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const sending = useRef(false)

  const submit = async () => {
    if (sending.current) return
    const payload = { name: name.trim(), baseCurrency: baseCurrency.trim().toUpperCase() }
    const found = localErrors(payload.name, payload.baseCurrency)
    setErrors(found)
    setFailure(null)
    if (Object.keys(found).length > 0) return
    sending.current = true
    setBusy(true)
    try {
      onCreated(await workspace.client.teams.create({ payload }))
    } catch (error) {
      const byField = fieldErrorsOf(error)
      if (byField === null) setFailure(error)
      else setErrors(byField)
    } finally {
      sending.current = false
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="create-team-heading" class="create-team">
      <h1 id="create-team-heading" tabIndex={-1}>
        Create your team
      </h1>
      <p class="muted">
        Everything here belongs to a team: its spend accounts, agents' keys, approvals and ledger. Create one and you
        become its owner; then invite the others from Settings. Were you invited instead? Open the invitation mailed to
        you.
      </p>
      <form
        class="inline-form"
        aria-label="Create a team"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <Field label="Team name" help="As your colleagues know it, e.g. your company." error={errors.name}>
          {(props) => <input {...props} maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field
          label="Base currency"
          help="The ISO 4217 code reports convert to and the spend accounts open in, e.g. USD, EUR, GBP."
          error={errors.baseCurrency}
        >
          {(props) => (
            <input
              {...props}
              maxLength={3}
              autoCapitalize="characters"
              value={baseCurrency}
              onInput={(e) => setBaseCurrency(e.currentTarget.value.toUpperCase())}
            />
          )}
        </Field>
        <span class="action">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? "Creating…" : "Create team"}
          </button>
        </span>
        {failure === null ? null : <ErrorNote error={failure} />}
      </form>
    </section>
  )
}
