import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import {
  ApprovalId,
  ApprovalsRepo,
  approvalMessageTag,
  CHAT_EVENTS,
  ChatApprovals,
  ChatIntegrationsRepo,
  ChatMessagesRepo,
  ChatMessaging,
  chatApprovalContent,
  EventOutbox,
  isoOfMillis,
  Ledger,
  Notifications,
  notifyAllPending,
  pageRequest,
  SpendRequests,
  type TeamId,
  Transactor
} from "@svc/domain"
import { Clock, Effect, type Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent, spend } from "../spend/SpendSetup.ts"
import { CHANNEL, chatDomainOver, chatMember, chatRound, installChat, press } from "./ChatApprovalsSetup.ts"
import { BOT_TOKEN, ChatPlatformFake } from "./ChatPlatformFake.ts"

/** A funded team with the chat app installed, its owner known to the workspace, and a request of 60.00 USD pending. */
const pendingInChat = (policy: { readonly approvalTtlSeconds?: number } = {}) =>
  Effect.gen(function* () {
    const funded = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000, ...policy } })
    const workspaceId = yield* installChat(funded.team.id, funded.approver.userId)
    const owner = `U-OWNER-${crypto.randomUUID()}`
    ;(yield* ChatPlatformFake).addUser(owner, { email: "owner@example.com" })
    const pending = yield* spend(funded.agent, 6_000)
    assert.strictEqual(pending.status, "pending_approval")
    const approvalId = ApprovalId.make(pending.approval!.id)
    return { ...funded, workspaceId, owner, pending, approvalId }
  })

const firstPage = Effect.runSync(pageRequest(undefined, 100))

const messageOf = (approvalId: string) =>
  Effect.map(ChatPlatformFake, (fake) =>
    fake.messages(CHANNEL).filter((m) => m.metadata?.event_payload.approval_id === approvalId)
  )

const postsOf = (approvalId: string) =>
  Effect.map(ChatPlatformFake, (fake) =>
    fake.requests("chat.postMessage").filter((r) => r.body.metadata?.event_payload?.approval_id === approvalId)
  )

const buttonsOf = (blocks: ReadonlyArray<{ readonly type: string }>) =>
  blocks
    .filter((b) => b.type === "actions")
    .flatMap((b) => (b as unknown as { elements: Array<{ action_id: string }> }).elements.map((e) => e.action_id))

const balanceOf = (teamId: TeamId, accountId: string) =>
  Effect.map(
    Ledger.use((l) => l.account(teamId, accountId as never)),
    (a) => a.balance
  )

/** How approvals reach the team's chat and are decided there, over whichever ports the caller provides. */
export const chatApprovalsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(chatDomainOver(ports), { timeout: "120 seconds" })(`approvals in chat (${name})`, (it) => {
    it.effect("a pending approval posts exactly one message, whatever the number of workers", () =>
      Effect.gen(function* () {
        const { approvalId } = yield* pendingInChat()
        const other = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 1 } })
        const withoutChat = yield* spend(other.agent, 500)
        yield* Effect.all([chatRound, chatRound, chatRound], { concurrency: "unbounded" })
        yield* chatRound
        const posts = yield* postsOf(approvalId)
        assert.strictEqual(posts.length, 1)
        const post = posts[0]!
        assert.strictEqual(post.token, BOT_TOKEN)
        assert.strictEqual(post.body.channel, CHANNEL)
        assert.deepStrictEqual(post.body.metadata, {
          event_type: "approval_requested",
          event_payload: { approval_id: approvalId }
        })
        const text = post.body.blocks[0].text.text as string
        for (const part of ["60.00 USD", "OpenAI", "tokens", "agent (agent key)", "Expires:", "approval threshold"]) {
          assert.include(text.toLowerCase(), part.toLowerCase())
        }
        assert.deepStrictEqual(buttonsOf(post.body.blocks), ["approve", "deny"])
        assert.deepStrictEqual(
          post.body.blocks[1].elements.map((e: { value: string }) => e.value),
          [approvalId, approvalId]
        )
        const fake = yield* ChatPlatformFake
        assert.isFalse(
          fake
            .requests("chat.postMessage")
            .some((r) => r.body.metadata?.event_payload?.approval_id === withoutChat.approval!.id),
          "a team without the chat app gets no message"
        )
        const stored = yield* ChatMessagesRepo.use((r) => r.find(approvalId))
        assert.strictEqual(Option.getOrThrow(stored).status, "posted")
      })
    )

    it.effect("every event type the chat pass follows reaches it, for a team with the chat app", () =>
      Effect.gen(function* () {
        const { team, approver } = yield* fundedAgent({ funds: 0 })
        yield* installChat(team.id, approver.userId)
        const events = CHAT_EVENTS.map((type) => ({
          id: crypto.randomUUID(),
          teamId: team.id,
          mode: "test" as const,
          type,
          data: {},
          createdAt: new Date().toISOString()
        }))
        yield* Transactor.use((t) => t.withTransaction(EventOutbox.use((o) => o.publish(...events))))
        const taken = yield* ChatMessagesRepo.use((r) => r.lockUntakenEvents(10_000))
        assert.deepStrictEqual(
          taken
            .filter((e) => e.teamId === team.id)
            .map((e) => e.type)
            .toSorted(),
          [...CHAT_EVENTS].toSorted()
        )
        yield* chatRound
        assert.isFalse(
          (yield* ChatMessagesRepo.use((r) => r.lockUntakenEvents(10_000))).some((e) => e.teamId === team.id)
        )
      })
    )

    it.effect("a worker that crashed after posting, before recording, never makes a second post", () =>
      Effect.gen(function* () {
        const { approvalId } = yield* pendingInChat()
        yield* Effect.flatMap(ChatApprovals, (c) => c.fromEvents)
        const nowMs = yield* Clock.currentTimeMillis
        const [claimed] = yield* ChatMessagesRepo.use((r) =>
          r.claimDue({ now: isoOfMillis(nowMs), leaseUntil: isoOfMillis(nowMs + 60_000), limit: 100 })
        )
        assert.strictEqual(claimed?.approvalId, approvalId)
        // What the crashed worker did before it died: the post reached the platform, the outcome was never recorded.
        yield* ChatMessaging.use((m) =>
          m.post(
            Redacted.make(BOT_TOKEN),
            CHANNEL,
            chatApprovalContent(claimed!, {
              approval: {
                status: "pending",
                decidedAt: null,
                approvers: { required: 1, roles: ["owner", "admin"], requireOwner: false },
                decisions: []
              },
              decidedByName: null
            }),
            approvalMessageTag(approvalId)
          )
        )
        assert.strictEqual(yield* chatRound, 0, "the message is held by the crashed worker's lease")
        yield* TestClock.adjust("61 seconds")
        yield* chatRound
        assert.strictEqual((yield* postsOf(approvalId)).length, 1)
        const stored = Option.getOrThrow(yield* ChatMessagesRepo.use((r) => r.find(approvalId)))
        assert.strictEqual(stored.status, "posted")
        assert.strictEqual(stored.ts, (yield* messageOf(approvalId))[0]!.ts)
      })
    )

    it.effect("Approve pressed in chat posts the money once; a second press changes nothing and says so", () =>
      Effect.gen(function* () {
        const { team, key, workspaceId, owner, approvalId, pending } = yield* pendingInChat()
        yield* chatRound
        const [first, concurrent] = yield* Effect.all(
          [press(workspaceId, owner, "approve", approvalId), press(workspaceId, owner, "approve", approvalId)],
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual([first.outcome, concurrent.outcome].toSorted(), ["already_decided", "decided"])
        const again = yield* press(workspaceId, owner, "approve", approvalId)
        assert.strictEqual(again.outcome, "already_decided")
        assert.match(again.replies[0]!, /already approved; nothing changed/u)
        const denyLate = yield* press(workspaceId, owner, "deny", approvalId)
        assert.strictEqual(denyLate.outcome, "already_decided")
        assert.deepStrictEqual(yield* balanceOf(team.id, key.accountId), {
          posted: 4_000,
          pending: 0,
          available: 4_000
        })
        const approved = yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))
        assert.strictEqual(approved.status, "approved")
        const entries = yield* Ledger.use((l) => l.transactions(team.id, { accountId: key.accountId }, firstPage))
        assert.strictEqual(entries.filter((t) => t.id === approved.ledgerTransactionId).length, 1)
        yield* assertLedgerInvariants(team.id)
        yield* chatRound
        const [shown] = yield* messageOf(approvalId)
        assert.deepStrictEqual(buttonsOf(shown!.blocks), [], "the buttons are gone")
        assert.match(shown!.text, /Approved by Owner/u)
      })
    )

    it.effect("Deny pressed in chat denies the request and releases its hold", () =>
      Effect.gen(function* () {
        const { team, key, workspaceId, owner, approvalId, pending } = yield* pendingInChat()
        yield* chatRound
        const denied = yield* press(workspaceId, owner, "deny", approvalId)
        assert.strictEqual(denied.outcome, "decided")
        assert.deepStrictEqual(denied.replies, ["You denied the request."])
        assert.strictEqual((yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status, "denied")
        assert.deepStrictEqual(yield* balanceOf(team.id, key.accountId), {
          posted: 10_000,
          pending: 0,
          available: 10_000
        })
        yield* chatRound
        assert.match((yield* messageOf(approvalId))[0]!.text, /Denied by Owner/u)
      })
    )

    it.effect("a press after expiry changes nothing and says so; the message shows the expiry", () =>
      Effect.gen(function* () {
        const { team, key, workspaceId, owner, approvalId } = yield* pendingInChat({ approvalTtlSeconds: 600 })
        yield* chatRound
        yield* TestClock.adjust("601 seconds")
        const late = yield* press(workspaceId, owner, "approve", approvalId)
        assert.strictEqual(late.outcome, "already_decided")
        assert.match(late.replies[0]!, /already expired; nothing changed/u)
        assert.deepStrictEqual(yield* balanceOf(team.id, key.accountId), {
          posted: 10_000,
          pending: 0,
          available: 10_000
        })
        yield* chatRound
        assert.match((yield* messageOf(approvalId))[0]!.text, /Expired/u)
      })
    )

    it.effect("a decision in the API updates the posted message, buttons removed", () =>
      Effect.gen(function* () {
        const { approver, approvalId } = yield* pendingInChat()
        yield* chatRound
        assert.deepStrictEqual(buttonsOf((yield* messageOf(approvalId))[0]!.blocks), ["approve", "deny"])
        yield* SpendRequests.use((s) => s.approve(approver, approvalId, null))
        yield* chatRound
        const fake = yield* ChatPlatformFake
        const updates = fake
          .requests("chat.update")
          .filter(
            (r) =>
              r.body.ts === fake.messages(CHANNEL).find((m) => m.metadata?.event_payload.approval_id === approvalId)?.ts
          )
        assert.strictEqual(updates.length, 1)
        const [shown] = yield* messageOf(approvalId)
        assert.deepStrictEqual(buttonsOf(shown!.blocks), [])
        assert.match(shown!.text, /Approved by Owner/u)
        assert.strictEqual(Option.getOrThrow(yield* ChatMessagesRepo.use((r) => r.find(approvalId))).status, "closed")
        yield* chatRound
        assert.strictEqual(
          fake.requests("chat.update").filter((r) => r.body.ts === shown!.ts).length,
          1,
          "updated once"
        )
      })
    )

    it.effect("a quorum of two: the first press is recorded and shown, the second decides; the money moves once", () =>
      Effect.gen(function* () {
        const funded = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000 } })
        const { team, key, approver } = funded
        yield* ApprovalsRepo.use((r) =>
          r.setTiers(
            team.id,
            [{ minAmount: 1, approvals: 2, roles: ["owner", "admin"] }],
            approver.userId,
            new Date().toISOString()
          )
        )
        const workspaceId = yield* installChat(team.id, approver.userId)
        ;(yield* ChatPlatformFake).addUser("U-Q-OWNER", { email: "owner@example.com" })
        const admin = yield* chatMember(team.id, "admin")
        const pending = yield* spend(funded.agent, 6_000)
        const approvalId = ApprovalId.make(pending.approval!.id)
        yield* chatRound
        const first = yield* press(workspaceId, "U-Q-OWNER", "approve", approvalId)
        assert.strictEqual(first.outcome, "recorded")
        assert.deepStrictEqual(first.replies, ["Your approval is recorded: 1 of 2 approvals so far."])
        assert.strictEqual((yield* press(workspaceId, "U-Q-OWNER", "approve", approvalId)).outcome, "already_decided")
        yield* chatRound
        const [midway] = yield* messageOf(approvalId)
        assert.match(midway!.blocks[0].text.text, /Approvals: 1 of 2/u)
        assert.deepStrictEqual(buttonsOf(midway!.blocks), ["approve", "deny"], "still open for the second approver")
        assert.strictEqual((yield* press(workspaceId, admin.chatUserId, "approve", approvalId)).outcome, "decided")
        assert.deepStrictEqual(yield* balanceOf(team.id, key.accountId), {
          posted: 4_000,
          pending: 0,
          available: 4_000
        })
        yield* chatRound
        assert.match((yield* messageOf(approvalId))[0]!.text, /Approved by An admin/u)
      })
    )

    it.effect("an unlinked chat user and a member without the admin role are refused; nothing changes", () =>
      Effect.gen(function* () {
        const { team, workspaceId, approvalId, pending } = yield* pendingInChat()
        const fake = yield* ChatPlatformFake
        fake.addUser("U-STRANGER", { email: "stranger@example.com" })
        fake.addUser("U-BOT", { email: "owner@example.com", isBot: true })
        const member = yield* chatMember(team.id, "member")
        const stranger = yield* press(workspaceId, "U-STRANGER", "approve", approvalId)
        assert.strictEqual(stranger.outcome, "unlinked")
        assert.match(stranger.replies[0]!, /not linked to a member/u)
        assert.strictEqual((yield* press(workspaceId, "U-BOT", "approve", approvalId)).outcome, "unlinked")
        assert.strictEqual((yield* press(workspaceId, "U-NOBODY", "approve", approvalId)).outcome, "unlinked")
        const refused = yield* press(workspaceId, member.chatUserId, "approve", approvalId)
        assert.strictEqual(refused.outcome, "not_allowed")
        assert.match(refused.replies[0]!, /owners and admins/u)
        assert.strictEqual(
          (yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status,
          "pending_approval"
        )
        const admin = yield* chatMember(team.id, "admin")
        assert.strictEqual((yield* press(workspaceId, admin.chatUserId, "approve", approvalId)).outcome, "decided")
      })
    )

    it.effect(
      "an approval of another team pressed in this workspace is not found, and an unknown workspace is ignored",
      () =>
        Effect.gen(function* () {
          const ours = yield* pendingInChat()
          const theirs = yield* pendingInChat()
          const crossed = yield* press(ours.workspaceId, ours.owner, "approve", theirs.approvalId)
          assert.strictEqual(crossed.outcome, "not_found")
          assert.strictEqual((yield* press("T-UNKNOWN", ours.owner, "approve", ours.approvalId)).outcome, "ignored")
          assert.strictEqual(
            (yield* SpendRequests.use((s) => s.get(theirs.team.id, undefined, theirs.pending.id))).status,
            "pending_approval"
          )
        })
    )

    it.effect("two teams in one workspace: a press decides the approval of the team whose message carries it", () =>
      Effect.gen(function* () {
        const first = yield* pendingInChat()
        const later = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000 } })
        yield* installChat(later.team.id, later.approver.userId, first.workspaceId)
        yield* chatRound
        const pressed = yield* press(first.workspaceId, first.owner, "approve", first.approvalId)
        assert.strictEqual(pressed.outcome, "decided", pressed.replies.join(" "))
        const decided = yield* SpendRequests.use((s) => s.get(first.team.id, undefined, first.pending.id))
        assert.strictEqual(decided.status, "approved")
      })
    )

    it.effect("a rate limit and an outage are retried with back-off; the message is posted once", () =>
      Effect.gen(function* () {
        yield* chatRound
        const { approvalId } = yield* pendingInChat()
        const fake = yield* ChatPlatformFake
        fake.script("chat.postMessage", {
          status: 429,
          headers: { "retry-after": "30" },
          body: { ok: false, error: "ratelimited" }
        })
        yield* chatRound
        const waiting = Option.getOrThrow(yield* ChatMessagesRepo.use((r) => r.find(approvalId)))
        assert.strictEqual(waiting.status, "to_post")
        assert.strictEqual(waiting.lastError, "the chat platform answered ratelimited")
        yield* TestClock.adjust("29 seconds")
        yield* chatRound
        assert.strictEqual((yield* postsOf(approvalId)).length, 1, "not retried before Retry-After")
        fake.setDown(true)
        yield* TestClock.adjust("2 seconds")
        yield* chatRound
        fake.setDown(false)
        yield* TestClock.adjust("10 minutes")
        yield* chatRound
        yield* chatRound
        assert.strictEqual((yield* messageOf(approvalId)).length, 1)
        assert.strictEqual(Option.getOrThrow(yield* ChatMessagesRepo.use((r) => r.find(approvalId))).status, "posted")
      })
    )

    it.effect("a revoked bot token gives up the team's messages, disconnects the app and tells the team", () =>
      Effect.gen(function* () {
        yield* chatRound
        const { team, approver, approvalId } = yield* pendingInChat()
        const fake = yield* ChatPlatformFake
        fake.script("chat.postMessage", { body: { ok: false, error: "token_revoked" } })
        yield* chatRound
        const stored = Option.getOrThrow(yield* ChatMessagesRepo.use((r) => r.find(approvalId)))
        assert.strictEqual(stored.status, "failed")
        assert.isTrue(Option.isNone(yield* ChatIntegrationsRepo.use((r) => r.forTeam(team.id))), "disconnected")
        yield* notifyAllPending
        const told = yield* Notifications.use((n) =>
          n.list({ teamId: team.id, userId: approver.userId }, { statuses: null }, firstPage)
        )
        const disconnected = told.filter((n) => n.type === "chat_integration_disconnected")
        assert.strictEqual(disconnected.length, 1)
        assert.notInclude(JSON.stringify(disconnected), BOT_TOKEN)
        yield* TestClock.adjust("1 hour")
        yield* chatRound
        assert.strictEqual((yield* postsOf(approvalId)).length, 1, "never tried again")
      })
    )
  })
