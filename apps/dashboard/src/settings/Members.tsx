import { useState } from "preact/hooks"
import { formatDate } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { ActionButton, ConfirmButton, ErrorNote, Field, Loading } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"

type Role = "owner" | "admin" | "member"

const ROLES: ReadonlyArray<Role> = ["owner", "admin", "member"]

/** The team's members and their roles: owners and admins invite, change roles and remove. */
export const Members = () => {
  const { client, canManage, team, session } = useWorkspace()
  const teamId = team?.id ?? ""
  const members = useLoad(
    () => client.teamAdmin.listMembers({ params: { id: teamId }, query: { limit: 100 } }).then((p) => p.data),
    [client, teamId]
  )
  const invites = useLoad(
    () =>
      client.teamAdmin
        .listInvites({ params: { id: teamId }, query: { limit: 100 } })
        .then((p) => p.data.filter((invite) => invite.status === "pending")),
    [client, teamId]
  )
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<Role>("member")
  const [invited, setInvited] = useState<string | null>(null)
  const [roleError, setRoleError] = useState<unknown>(null)
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members and roles</h2>
      <p class="muted">Owners and admins decide approvals and change settings; members can look but not change.</p>
      {canManage ? (
        <form class="inline-form" aria-label="Invite a member" onSubmit={(e) => e.preventDefault()}>
          <Field label="Invitee e-mail">
            {(props) => (
              <input {...props} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            )}
          </Field>
          <Field label="Invitee role">
            {(props) => (
              <select {...props} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <ActionButton
            kind="primary"
            action={async () => {
              await client.teamAdmin.invite({ params: { id: teamId }, payload: { email: email.trim(), role } })
              setInvited(email.trim())
              setEmail("")
              await invites.reload()
            }}
          >
            Send invitation
          </ActionButton>
          {invited === null ? null : <p role="status">Invitation sent to {invited}.</p>}
        </form>
      ) : null}
      <Loading loaded={invites.loaded} label="invitations">
        {(pending) =>
          pending.length === 0 ? null : (
            <div class="table-wrap">
              <table>
                <caption>Pending invitations</caption>
                <thead>
                  <tr>
                    <th scope="col">Invitee</th>
                    <th scope="col">Role</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {pending.map((invite) => (
                    <tr key={invite.id}>
                      <td>{invite.email}</td>
                      <td>{invite.role}</td>
                      <td>{formatDate(invite.expiresAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loading>
      {roleError === null ? null : <ErrorNote error={roleError} />}
      <Loading loaded={members.loaded} label="members">
        {(list) => (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Members</caption>
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((member) => {
                  const self = member.id === session.user.id
                  return (
                    <tr key={member.id}>
                      <td>
                        {member.fullName ?? member.email}
                        {member.fullName === null ? null : <span class="muted"> {member.email}</span>}
                        {self ? <span class="muted"> (you)</span> : null}
                      </td>
                      <td>
                        {canManage && !self ? (
                          <select
                            aria-label={`Role of ${member.email}`}
                            value={member.role}
                            onChange={(e) => {
                              setRoleError(null)
                              client.teamAdmin
                                .updateMember({
                                  params: { id: teamId, userId: member.id },
                                  payload: { role: e.currentTarget.value as Role }
                                })
                                .then(() => members.reload(), setRoleError)
                            }}
                          >
                            {ROLES.map((r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ))}
                          </select>
                        ) : (
                          member.role
                        )}
                      </td>
                      <td>{formatDate(member.joinedAt)}</td>
                      <td>
                        {canManage && !self ? (
                          <ConfirmButton
                            question={`Remove ${member.email} from the team?`}
                            confirmLabel="Yes, remove"
                            action={async () => {
                              await client.teamAdmin.removeMember({ params: { id: teamId, userId: member.id } })
                              await members.reload()
                            }}
                          >
                            Remove
                          </ConfirmButton>
                        ) : null}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        )}
      </Loading>
    </section>
  )
}
