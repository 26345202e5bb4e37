import { KillSwitch } from "../approvals/SpendFreeze.tsx"
import { useWorkspace } from "../session/context.ts"
import { PageHeader } from "../ui/components.tsx"
import { Members } from "./Members.tsx"
import { PersonalTokens } from "./PersonalTokens.tsx"
import { SpendingKeys } from "./SpendingKeys.tsx"
import { TeamApiKeys } from "./TeamApiKeys.tsx"
import { Webhooks } from "./Webhooks.tsx"

/** Keys, webhooks and people: what owners and admins change, and members read. */
export const Settings = () => {
  const { canManage } = useWorkspace()
  return (
    <>
      <PageHeader title="Settings">
        {canManage
          ? "Spending keys and their policies, team API keys, webhook endpoints, who is in the team, and your personal tokens."
          : "What is set up for the team (only owners and admins can change it), and your personal tokens."}
      </PageHeader>
      {canManage ? (
        <SpendingKeys />
      ) : (
        <p class="muted">Spending keys, team API keys and webhook endpoints are visible to owners and admins.</p>
      )}
      {canManage ? <KillSwitch /> : null}
      {canManage ? <TeamApiKeys /> : null}
      {canManage ? <Webhooks /> : null}
      <Members />
      <PersonalTokens />
    </>
  )
}
