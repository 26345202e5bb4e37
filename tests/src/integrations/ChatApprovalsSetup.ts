import { domainServices, type Ports } from "@svc/api"
import {
  ChatApprovalButtons,
  ChatApprovals,
  ChatIntegration,
  ChatIntegrationsRepo,
  CursorKey,
  FileKeys,
  FileLinks,
  type Role,
  SealedSecrets,
  type TeamId,
  TeamsRepo,
  type UserId,
  UsersRepo
} from "@svc/domain"
import { ConfigProvider, Effect, Layer } from "effect"
import { testConfig } from "../support/InProcessApp.ts"
import { BOT_TOKEN, buttonPress, ChatPlatformFake } from "./ChatPlatformFake.ts"

/** The chat channel every test integration posts to. */
export const CHANNEL = "C-APPROVALS"

/**
 * The application's domain services over `ports`, talking to a fake chat platform (`ChatPlatformFake`), with the
 * background jobs off: tests run the chat pass and the posting worker step by step. Answers to presses reach the
 * platform's loopback response URLs in development mode (`WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`, as the webhook suites
 * reach their loopback receivers); `production: true` holds them to public destinations.
 */
export const chatDomainOver = <E>(ports: Layer.Layer<Ports, E>, options: { readonly production?: boolean } = {}) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const fake = yield* ChatPlatformFake
      return domainServices({ ...testConfig, chatApiUrl: fake.apiUrl }, ports)
    })
  ).pipe(
    Layer.provideMerge(ChatPlatformFake.layer),
    Layer.provide([
      FileKeys.layer("test-file-key-secret"),
      CursorKey.layer("test-cursor-signing-key"),
      FileLinks.layer("test-presigned-url-key")
    ]),
    Layer.provide(
      ConfigProvider.layer(
        ConfigProvider.fromUnknown({
          BACKGROUND_JOBS: "false",
          WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: String(options.production !== true)
        })
      )
    )
  )

/** Installs the chat app for `teamId` in a workspace (a new one by default), its bot token sealed; answers its id. */
export const installChat = (teamId: TeamId, installedBy: UserId, workspaceId = `T-${crypto.randomUUID()}`) =>
  Effect.gen(function* () {
    const sealed = yield* SealedSecrets
    yield* ChatIntegrationsRepo.use((repo) =>
      Effect.gen(function* () {
        yield* repo.save(
          new ChatIntegration({
            id: crypto.randomUUID(),
            teamId,
            workspaceId,
            workspaceName: "Acme workspace",
            channelId: CHANNEL,
            channelName: "approvals",
            botUserId: "B-BOT",
            botToken: yield* sealed.seal(BOT_TOKEN),
            scopes: ["chat:write", "users:read", "users:read.email"],
            installedBy,
            installedAt: new Date().toISOString()
          })
        )
      })
    )
    return workspaceId
  })

/** A new member of `teamId` with `role`, known to the chat workspace as `chatUserId` under the same e-mail. */
export const chatMember = (teamId: TeamId, role: Role, chatUserId = `U-${crypto.randomUUID()}`) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID() as UserId
    const email = `${role}-${id}@example.com`
    yield* UsersRepo.use((users) => users.ensure({ id, email, fullName: `An ${role}` }))
    yield* TeamsRepo.use((teams) => teams.addMember(teamId, id, role))
    const fake = yield* ChatPlatformFake
    fake.addUser(chatUserId, { email: email.toUpperCase() })
    return { id, email, chatUserId }
  })

/** Chat passes until the outbox is drained, then one posting step: what the background job does each round. */
export const chatRound = Effect.gen(function* () {
  const chat = yield* ChatApprovals
  while ((yield* chat.fromEvents) > 0) {}
  return yield* chat.postDue
})

/** `chatUserId` presses `action` on the message of `approvalId` in `workspaceId`; answers the outcome and the replies. */
export const press = (workspaceId: string, chatUserId: string, action: string, approvalId: string) =>
  Effect.gen(function* () {
    const fake = yield* ChatPlatformFake
    const response = fake.responseUrl()
    const interaction = buttonPress({ workspaceId, user: chatUserId, action, approvalId, responseUrl: response.url })
    const outcome = yield* ChatApprovalButtons.use((buttons) =>
      buttons.press({
        workspaceId: interaction.team.id,
        chatUserId: interaction.user.id,
        actionId: interaction.actions[0]!.action_id,
        value: interaction.actions[0]!.value,
        responseUrl: interaction.response_url
      })
    )
    return { outcome, replies: response.answers() }
  })
