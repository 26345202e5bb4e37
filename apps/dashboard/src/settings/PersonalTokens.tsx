import { useState } from "preact/hooks"
import { formatDate } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { ActionButton, ConfirmButton, Field, fieldErrorsOf, Loading, SecretOnce } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"

const LIFETIMES = [
  [30, "30 days"],
  [90, "90 days"],
  [365, "1 year"]
] as const

/**
 * The signed-in person's own tokens for the CLI (`svc login`): each acts as them, with their role in the team, until
 * it expires or is revoked; its secret is shown once.
 */
export const PersonalTokens = () => {
  const { client } = useWorkspace()
  const tokens = useLoad(() => client.personalTokens.list({ query: { limit: 100 } }).then((p) => p.data), [client])
  const [name, setName] = useState("")
  const [days, setDays] = useState<number>(90)
  const [nameError, setNameError] = useState<string | undefined>(undefined)
  const [created, setCreated] = useState<{ readonly name: string; readonly secret: string } | null>(null)
  return (
    <section aria-labelledby="personal-tokens-heading">
      <h2 id="personal-tokens-heading">Personal tokens</h2>
      <p class="muted">
        Your own credential for the command line and other tools: it acts as you, with your role in the team (an
        approver lists and answers approvals with <code>svc approvals</code>), never as a team key. Run{" "}
        <code>svc login --base-url {location.origin}</code> and paste the token when asked.
      </p>
      {created === null ? null : <SecretOnce secret={created.secret} what={`personal token "${created.name}"`} />}
      <form class="inline-form" aria-label="New personal token" onSubmit={(e) => e.preventDefault()}>
        <Field label="Token name" help="Where you will use it, e.g. work laptop." error={nameError}>
          {(props) => <input {...props} maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Expires after">
          {(props) => (
            <select {...props} value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
              {LIFETIMES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ActionButton
          kind="primary"
          action={async () => {
            setNameError(undefined)
            if (name.trim() === "") return setNameError("Name the token, so you know it later.")
            try {
              const token = await client.personalTokens.create({ payload: { name: name.trim(), expiresInDays: days } })
              setCreated({ name: token.name, secret: token.secret })
              setName("")
              await tokens.reload()
            } catch (error) {
              const byField = fieldErrorsOf(error)
              if (byField?.name === undefined) throw error
              setNameError(byField.name)
            }
          }}
        >
          Create personal token
        </ActionButton>
      </form>
      <Loading loaded={tokens.loaded} label="personal tokens">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No personal tokens.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Personal tokens</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Token</th>
                    <th scope="col">Created</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((token) => (
                    <tr key={token.id}>
                      <td>{token.name}</td>
                      <td>
                        <code>{token.preview}</code>
                      </td>
                      <td>{formatDate(token.createdAt)}</td>
                      <td>{formatDate(token.expiresAt)}</td>
                      <td>
                        <ConfirmButton
                          question={`Revoke "${token.name}"? Tools using it stop working at once.`}
                          confirmLabel="Yes, revoke"
                          action={async () => {
                            await client.personalTokens.revoke({ params: { id: token.id } })
                            await tokens.reload()
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loading>
    </section>
  )
}
