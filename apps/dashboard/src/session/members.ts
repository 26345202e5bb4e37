import { useLoad } from "../ui/hooks.ts"
import { useWorkspace } from "./context.ts"

/** The team's members' e-mails by user id (every member may list the team's members). */
export const useMemberEmails = (): ReadonlyMap<string, string> => {
  const { client, team } = useWorkspace()
  const teamId = team?.id ?? ""
  const { loaded } = useLoad(
    () =>
      client.teamAdmin
        .listMembers({ params: { id: teamId }, query: { limit: 100 } })
        .then((page) => new Map(page.data.map((member) => [member.id, member.email]))),
    [client, teamId]
  )
  return loaded.state === "ready" ? loaded.value : new Map()
}
