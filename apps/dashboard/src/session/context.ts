import type { PromiseClient, Team } from "@svc/sdk"
import { createContext } from "preact"
import { useContext } from "preact/hooks"
import type { DashboardSession } from "./api.ts"

/** Who is signed in, in which team and role, and the SDK client acting for them. */
export interface Workspace {
  readonly session: DashboardSession
  readonly client: PromiseClient
  /** The person's current team, null until they have one. */
  readonly team: Team | null
  /** Owners and admins decide approvals and change settings; members read. */
  readonly canManage: boolean
  readonly signOut: () => void
}

export const WorkspaceContext = createContext<Workspace | null>(null)

/** The signed-in workspace; only rendered inside the signed-in shell. */
export const useWorkspace = (): Workspace => {
  const workspace = useContext(WorkspaceContext)
  if (workspace === null) throw new Error("useWorkspace outside the signed-in shell")
  return workspace
}
