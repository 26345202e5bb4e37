import { assert, describe, it } from "@effect/vitest"
import type { Approval, Page } from "@svc/sdk"
import { pendingByExpiry } from "../src/approvals/pending.ts"

/** A pending approval that expires `minutes` from a fixed start; the list serves `all` newest first, by cursor. */
const approval = (n: number, minutes: number) =>
  ({
    id: `a${n}`,
    status: "pending",
    expiresAt: new Date(Date.UTC(2026, 10, 27, 0, minutes)).toISOString()
  }) as Approval

const listOf = (all: ReadonlyArray<Approval>) => {
  const asked: Array<{ readonly cursor?: string; readonly limit: number }> = []
  const list = async (request: { readonly query: { readonly limit: number; readonly cursor?: string } }) => {
    asked.push(request.query)
    const from = request.query.cursor === undefined ? 0 : Number(request.query.cursor)
    const data = all.slice(from, from + request.query.limit)
    const hasNextPage = from + request.query.limit < all.length
    return {
      data,
      meta: { cursor: hasNextPage ? String(from + request.query.limit) : null, hasNextPage, hasPreviousPage: from > 0 }
    } satisfies Page<Approval>
  }
  return { list, asked }
}

describe("the inbox's pending approvals", () => {
  it("reads every page and orders all of them the soonest to expire first, not just the first page", async () => {
    // 250 approvals, newest first; the one expiring soonest is the oldest, on the last page.
    const all = Array.from({ length: 250 }, (_, i) => approval(i, 1_000 - i * 3 + (i === 249 ? -5_000 : 0)))
    const { list, asked } = listOf(all)
    const { approvals, more } = await pendingByExpiry(list)
    assert.strictEqual(approvals.length, 250)
    assert.isFalse(more)
    assert.strictEqual(approvals[0]?.id, "a249")
    assert.isTrue(approvals.every((a, i) => i === 0 || (approvals[i - 1]?.expiresAt ?? "") <= a.expiresAt))
    assert.deepStrictEqual(
      asked.map((q) => q.cursor),
      [undefined, "100", "200"]
    )
  })

  it("stops at the cap and says more are waiting", async () => {
    const all = Array.from({ length: 30 }, (_, i) => approval(i, 100 - i))
    const { list, asked } = listOf(all)
    const { approvals, more } = await pendingByExpiry(list, 12)
    assert.strictEqual(approvals.length, 12)
    assert.isTrue(more)
    assert.deepStrictEqual(
      approvals.map((a) => a.id),
      Array.from({ length: 12 }, (_, i) => `a${11 - i}`)
    )
    assert.isBelow(asked.length, 4, "it stops reading once past the cap")
  })

  it("an empty queue is one request and nothing more", async () => {
    const { list, asked } = listOf([])
    assert.deepStrictEqual(await pendingByExpiry(list), { approvals: [], more: false })
    assert.strictEqual(asked.length, 1)
  })
})
