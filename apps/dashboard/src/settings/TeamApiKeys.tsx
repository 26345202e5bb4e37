import { useState } from "preact/hooks"
import { formatDateTime } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { ActionButton, ConfirmButton, Field, Loading, SecretOnce } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"

const SCOPES = [
  ["spend.read", "Read spend requests and approvals"],
  ["spend.write", "Create spend requests"],
  ["accounts.read", "Read balances"]
] as const

type Scope = (typeof SCOPES)[number][0]

/** Team API keys for /v1 integrations: create with scopes (secret shown once), revoke. */
export const TeamApiKeys = () => {
  const { client, canManage } = useWorkspace()
  const keys = useLoad(() => client.agentKeys.listTeamApiKeys({ query: { limit: 100 } }).then((p) => p.data), [client])
  const [name, setName] = useState("")
  const [scopes, setScopes] = useState<ReadonlyArray<Scope>>(["spend.read"])
  const [created, setCreated] = useState<{ readonly name: string; readonly secret: string } | null>(null)
  return (
    <section aria-labelledby="team-keys-heading">
      <h2 id="team-keys-heading">Team API keys</h2>
      <p class="muted">Keys for your own systems to call the API for the whole team, limited to the scopes you pick.</p>
      {created === null ? null : <SecretOnce secret={created.secret} what={`team API key "${created.name}"`} />}
      {canManage ? (
        <form class="inline-form" aria-label="New team API key" onSubmit={(e) => e.preventDefault()}>
          <Field label="Team key name">
            {(props) => (
              <input {...props} maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            )}
          </Field>
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map(([scope, label]) => (
              <label key={scope}>
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(e) =>
                    setScopes(e.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))
                  }
                />{" "}
                {label} <code>{scope}</code>
              </label>
            ))}
          </fieldset>
          <ActionButton
            kind="primary"
            action={async () => {
              const key = await client.agentKeys.createTeamApiKey({
                payload: { name: name.trim(), mode: "live", scopes }
              })
              setCreated({ name: key.name, secret: key.secret })
              setName("")
              await keys.reload()
            }}
          >
            Create team key
          </ActionButton>
        </form>
      ) : null}
      <Loading loaded={keys.loaded} label="team API keys">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No team API keys.</p>
          ) : (
            <ul class="plain" aria-label="Team API keys">
              {list.map((key) => (
                <li key={key.id}>
                  <strong>{key.name}</strong> <span class="muted">{key.scopes.join(", ")}</span>{" "}
                  <span class="muted">created {formatDateTime(key.createdAt)}</span>
                  {key.revokedAt !== null ? (
                    <span class="muted"> · revoked</span>
                  ) : canManage ? (
                    <ConfirmButton
                      question={`Revoke ${key.name}?`}
                      confirmLabel="Yes, revoke"
                      action={async () => {
                        await client.agentKeys.revokeTeamApiKey({ params: { id: key.id } })
                        await keys.reload()
                      }}
                    >
                      Revoke
                    </ConfirmButton>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </section>
  )
}
