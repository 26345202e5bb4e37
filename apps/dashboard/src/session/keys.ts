import { useLoad } from "../ui/hooks.ts"
import { useWorkspace } from "./context.ts"

/** A spending key as a label: its id and name. */
export interface KeyName {
  readonly id: string
  readonly name: string
}

/**
 * The team's spending keys by name. Owners and admins list them; a member, who may not, learns the unrevoked keys'
 * names from the spend statistics of both modes, which members may read.
 */
export const useKeyNames = (): ReadonlyArray<KeyName> => {
  const { client, canManage } = useWorkspace()
  const { loaded } = useLoad(async (): Promise<ReadonlyArray<KeyName>> => {
    if (canManage) {
      const page = await client.agentKeys.listSpendingKeys({ query: { limit: 100 } })
      return page.data.map((key) => ({ id: key.id, name: key.name }))
    }
    const modes = await Promise.all(
      (["live", "test"] as const).map((mode) => client.treasury.spendStats({ query: { days: 1, mode } }))
    )
    return modes.flatMap((stats) => stats.keys.map((key) => ({ id: key.keyId, name: key.keyName })))
  }, [client, canManage])
  return loaded.state === "ready" ? loaded.value : []
}
