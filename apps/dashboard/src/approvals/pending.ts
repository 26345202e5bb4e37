import { type Approval, type Page, paginate } from "@svc/sdk"

/** The most pending approvals one refresh reads (ten pages); the inbox says so when more are waiting. */
export const PENDING_CAP = 1_000

/** The list route of approvals, as the inbox calls it. */
type ApprovalList = (request: {
  readonly query: { readonly status: "pending"; readonly limit: number; readonly cursor?: string }
}) => Promise<Page<Approval>>

/**
 * Every pending approval, page after page, ordered the soonest to expire first (the list itself runs newest first);
 * `more` when over `cap` are waiting, in which case the newest `cap` are the ones read.
 */
export const pendingByExpiry = async (list: ApprovalList, cap = PENDING_CAP) => {
  const approvals: Array<Approval> = []
  for await (const approval of paginate(list, { query: { status: "pending", limit: Math.min(cap + 1, 100) } })) {
    approvals.push(approval)
    if (approvals.length > cap) break
  }
  const more = approvals.length > cap
  return {
    approvals: approvals.slice(0, cap).sort((a, b) => a.expiresAt.localeCompare(b.expiresAt)),
    more
  }
}
