import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import type { TeamPrincipal } from "../access/model.ts"
import { ApprovalId, ApprovalsRepo, type ApprovalView } from "../approvals/index.ts"
import { Checkout } from "../checkout/index.ts"
import { CryptoPayouts } from "../crypto/index.ts"
import { TeamsRepo } from "../identity/index.ts"
import { nowIso, type PersistenceUnavailable, SealedSecrets, type TeamId } from "../shared/index.ts"
import { SpendRequests } from "../spend/index.ts"
import { Transfers } from "../transfers/index.ts"
import { ChatApprovalActions } from "./ChatApprovalMessage.ts"
import { ChatMessagesRepo } from "./ChatMessagesRepo.ts"
import { ChatMessaging } from "./ChatMessaging.ts"
import { ChatIntegrationsRepo } from "./ChatPorts.ts"
import { ChatUserLinksRepo } from "./ChatUserLinksRepo.ts"

/** A button of an approval message pressed in a chat workspace, as the platform reported it (signature verified). */
export interface ChatButtonPress {
  readonly workspaceId: string
  readonly chatUserId: string
  readonly actionId: string
  /** The button's value: the approval's id. */
  readonly value: string
  /** Where the platform takes a private answer to the person who pressed. */
  readonly responseUrl: string
}

/** What a press did, as told privately to the person who pressed. */
export type ChatPressOutcome =
  | "ignored"
  | "unlinked"
  | "not_allowed"
  | "not_found"
  | "already_decided"
  | "refused"
  | "recorded"
  | "decided"

const decidedMessage = (
  outcome: "approve" | "deny",
  approval: ApprovalView | null
): ["recorded" | "decided", string] => {
  if (approval !== null && approval.status === "pending") {
    const { received, required } = approval.approvals
    return ["recorded", `Your approval is recorded: ${received} of ${required} approvals so far.`]
  }
  return ["decided", outcome === "approve" ? "You approved the request." : "You denied the request."]
}

/**
 * Decides approvals from their chat messages' buttons as the team member the chat user is linked to: the link is made
 * on first use from the e-mail address the platform verified, matched to a member of the team that installed the app.
 * The decision goes through the same approve and deny of each subject type as the dashboard and the API, so a press
 * moves money at most once, and a press on a decided, expired or foreign approval changes nothing.
 */
export class ChatApprovalButtons extends Context.Service<
  ChatApprovalButtons,
  {
    /** Handles a press and answers the presser privately; a workspace without an integration is ignored. */
    readonly press: (press: ChatButtonPress) => Effect.Effect<ChatPressOutcome, PersistenceUnavailable>
  }
>()("@svc/domain/ChatApprovalButtons") {
  static readonly make = Effect.gen(function* () {
    const integrations = yield* ChatIntegrationsRepo
    const messages = yield* ChatMessagesRepo
    const links = yield* ChatUserLinksRepo
    const teams = yield* TeamsRepo
    const approvals = yield* ApprovalsRepo
    const messaging = yield* ChatMessaging
    const sealed = yield* SealedSecrets
    const spend = yield* SpendRequests
    const transfers = yield* Transfers
    const checkout = yield* Checkout
    const payouts = yield* CryptoPayouts

    /** The team member behind a chat user: linked before, or now by the platform's verified e-mail. */
    const memberOf = (teamId: TeamId, workspaceId: string, chatUserId: string, token: Redacted.Redacted<string>) =>
      Effect.gen(function* () {
        const linked = yield* links.find(workspaceId, chatUserId, teamId)
        if (Option.isSome(linked)) return Option.some(linked.value.userId)
        const email = yield* messaging
          .userEmail(token, chatUserId)
          .pipe(
            Effect.catchTag("ChatMessagingFailed", (e) =>
              Effect.as(Effect.logWarning("the chat user's e-mail could not be read", { code: e.code }), Option.none())
            )
          )
        if (Option.isNone(email)) return Option.none()
        const wanted = email.value.toLowerCase()
        const member = (yield* teams.members(teamId)).find((m) => m.email.toLowerCase() === wanted)
        if (member === undefined) return Option.none()
        const saved = yield* links.save({
          workspaceId,
          chatUserId,
          teamId,
          userId: member.userId,
          email: member.email,
          linkedAt: yield* nowIso
        })
        return Option.some(saved.userId)
      })

    const decide = (outcome: "approve" | "deny", teamId: TeamId, approver: TeamPrincipal, approvalId: ApprovalId) =>
      Effect.gen(function* () {
        const found = yield* approvals.find(teamId, approvalId)
        if (Option.isNone(found)) return ["not_found", "This approval is not one of your team's."] as const
        const subject =
          found.value.subjectType === "transfer"
            ? yield* transfers[outcome](approver, approvalId, null)
            : found.value.subjectType === "checkout_intent"
              ? yield* checkout[outcome](approver, approvalId, null)
              : found.value.subjectType === "crypto_payout"
                ? yield* payouts[outcome](approver, approvalId, null)
                : yield* spend[outcome](approver, approvalId, null)
        return decidedMessage(outcome, subject.approval)
      }).pipe(
        Effect.catchTags({
          ApprovalNotFound: () => Effect.succeed(["not_found", "This approval is not one of your team's."] as const),
          ApproverNotAllowed: (e) =>
            Effect.succeed(["not_allowed", `You cannot decide this approval: ${e.message}.`] as const),
          ApprovalStepRefused: (e) =>
            Effect.succeed(
              e.reason === "already_decided"
                ? (["already_decided", "You already decided this approval; nothing changed."] as const)
                : (["refused", `Your decision was refused: ${e.message}.`] as const)
            ),
          SpendingFrozen: (e) => Effect.succeed(["refused", `Your decision was refused: ${e.message}.`] as const),
          SpendRequestNotPending: (e) => Effect.succeed(alreadyDecided(e.status)),
          TransferNotPending: (e) => Effect.succeed(alreadyDecided(e.status)),
          CheckoutIntentNotUsable: (e) => Effect.succeed(alreadyDecided(e.status)),
          CryptoPayoutNotPending: (e) => Effect.succeed(alreadyDecided(e.status))
        })
      )

    const alreadyDecided = (status: string) =>
      ["already_decided", `This request is already ${status.replaceAll("_", " ")}; nothing changed.`] as const

    const answer = (responseUrl: string, text: string) =>
      messaging
        .respond(responseUrl, text)
        .pipe(
          Effect.catchTag("ChatMessagingFailed", (e) =>
            Effect.logWarning("the answer to a chat interaction could not be sent", { code: e.code })
          )
        )

    /**
     * The integration a press came through: the one of the team whose approval message carries the button, when that
     * team's app sits in the pressing workspace (several teams may install one workspace); else the workspace's.
     */
    const integrationOf = (press: ChatButtonPress) =>
      Effect.gen(function* () {
        const message = Schema.is(ApprovalId)(press.value) ? yield* messages.find(press.value) : Option.none()
        const ofTeam = Option.isSome(message)
          ? Option.filter(
              yield* integrations.forTeam(message.value.teamId),
              (integration) => integration.workspaceId === press.workspaceId
            )
          : Option.none()
        return Option.isSome(ofTeam) ? ofTeam : yield* integrations.forWorkspace(press.workspaceId)
      })

    const press = Effect.fn("ChatApprovalButtons.press")(function* (press: ChatButtonPress) {
      const action =
        press.actionId === ChatApprovalActions.approve
          ? "approve"
          : press.actionId === ChatApprovalActions.deny
            ? "deny"
            : undefined
      const integration = yield* integrationOf(press)
      if (Option.isNone(integration) || action === undefined) {
        yield* Effect.logInfo("chat interaction ignored: unknown workspace or action", { actionId: press.actionId })
        return "ignored" as const
      }
      const { teamId } = integration.value
      const opened = yield* Effect.result(sealed.open(integration.value.botToken))
      if (opened._tag === "Failure") {
        yield* Effect.logWarning("chat interaction ignored: the bot token cannot be opened", { teamId })
        return "ignored" as const
      }
      const userId = yield* memberOf(teamId, press.workspaceId, press.chatUserId, Redacted.make(opened.success))
      if (Option.isNone(userId)) {
        yield* answer(
          press.responseUrl,
          "Your chat account is not linked to a member of this team: the e-mail address of your chat profile must be " +
            "the one you sign in with. Nothing changed."
        )
        return "unlinked" as const
      }
      const membership = yield* teams.membership(teamId, userId.value)
      const role = Option.isSome(membership) ? membership.value.role : null
      if (role === null) {
        yield* answer(press.responseUrl, "You are no longer a member of this team. Nothing changed.")
        return "unlinked" as const
      }
      const approver: TeamPrincipal = {
        kind: "chat",
        userId: userId.value,
        teamId,
        role,
        scopes: null,
        credentialId: `chat:${press.workspaceId}:${press.chatUserId}`
      }
      const [outcome, text] = Schema.is(ApprovalId)(press.value)
        ? yield* decide(action, teamId, approver, press.value)
        : (["not_found", "This approval is not one of your team's."] as const)
      yield* answer(press.responseUrl, text)
      return outcome
    })

    return ChatApprovalButtons.of({ press })
  })
  static readonly layer = Layer.effect(ChatApprovalButtons, ChatApprovalButtons.make)
}
