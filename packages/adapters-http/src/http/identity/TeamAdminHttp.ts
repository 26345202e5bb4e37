import {
  type TeamActor,
  TeamManagement,
  Teams,
  teamInviteView,
  teamMemberView,
  teamView,
  type UserId,
  Users
} from "@svc/domain"
import { Clock, Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentTeamPrincipal, CurrentUser, conflict, forbidden, notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, roleInTeam } from "../shared/index.ts"
import { userProfiles } from "./UserProfile.ts"

const refused = (e: { readonly action: string }) => Effect.fail(forbidden("forbidden", `your role may not ${e.action}`))
const lastOwner = () => Effect.fail(conflict("last_owner", "a team keeps at least one owner"))
const noMember = (userId: string) => () => Effect.fail(notFound(`no member ${userId} in this team`))

export const TeamAdminHttp = HttpApiBuilder.group(Api, "teamAdmin", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const teams = yield* Teams
    const management = yield* TeamManagement
    const users = yield* Users
    const userProfile = yield* userProfiles
    const actorIn = (teamId: string) =>
      Effect.map(
        roleInTeam(teams, teamId),
        ({ principal, teamId, role }): TeamActor => ({ userId: principal.userId, teamId, role })
      )

    return handlers
      .handle("getTeam", ({ params }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          const team = yield* management.get(actor.teamId)
          return teamView({ team, role: actor.role })
        }).pipe(
          Effect.catchTag("TeamNotFound", () => Effect.fail(notFound(`no team ${params.id}`))),
          orServiceUnavailable
        )
      )
      .handle("updateTeam", ({ params, payload }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          const team = yield* management.update(actor, payload)
          return teamView({ team, role: actor.role })
        }).pipe(
          Effect.catchTags({
            TeamNotFound: () => Effect.fail(notFound(`no team ${params.id}`)),
            TeamActionForbidden: refused
          }),
          orServiceUnavailable
        )
      )
      .handle("listMembers", ({ params, query }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          const members = (yield* management.members(actor.teamId)).map((m) => ({
            ...m,
            id: m.userId,
            createdAt: m.joinedAt
          }))
          return yield* pageOfList(`team-members:${actor.teamId}`, query, members, teamMemberView)
        }).pipe(orServiceUnavailable)
      )
      .handle("updateMember", ({ params, payload }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          return teamMemberView(yield* management.changeRole(actor, params.userId as UserId, payload.role))
        }).pipe(
          Effect.catchTags({
            TeamActionForbidden: refused,
            MemberNotFound: noMember(params.userId),
            LastOwner: lastOwner
          }),
          orServiceUnavailable
        )
      )
      .handle("removeMember", ({ params }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          return teamMemberView(yield* management.removeMember(actor, params.userId as UserId))
        }).pipe(
          Effect.catchTags({
            TeamActionForbidden: refused,
            MemberNotFound: noMember(params.userId),
            LastOwner: lastOwner
          }),
          orServiceUnavailable
        )
      )
      .handle("invite", ({ params, payload }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          const invite = yield* management.invite(actor, payload)
          return teamInviteView(invite, yield* Clock.currentTimeMillis)
        }).pipe(Effect.catchTag("TeamActionForbidden", refused), orServiceUnavailable)
      )
      .handle("listInvites", ({ params, query }) =>
        Effect.gen(function* () {
          const actor = yield* actorIn(params.id)
          const now = yield* Clock.currentTimeMillis
          const invites = yield* management.invites(actor.teamId)
          return yield* pageOfList(`team-invites:${actor.teamId}`, query, invites, (i) => teamInviteView(i, now))
        }).pipe(orServiceUnavailable)
      )
      .handle("updateMe", ({ payload }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentTeamPrincipal
          const user = yield* users.updateProfile(principal.userId, payload)
          if (Option.isNone(user))
            return yield* forbidden("forbidden", "the user behind this credential no longer exists")
          return yield* userProfile(user.value)
        }).pipe(orServiceUnavailable)
      )
  })
)

export const InvitesHttp = HttpApiBuilder.group(Api, "invites", (handlers) =>
  Effect.gen(function* () {
    const management = yield* TeamManagement
    return handlers.handle("accept", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* CurrentUser
        return teamMemberView(yield* management.accept(user, payload.token))
      }).pipe(
        Effect.catchTags({
          InviteNotFound: () => Effect.fail(notFound("no invitation has this token")),
          InviteNotUsable: (e) =>
            Effect.fail(
              e.reason === "used"
                ? conflict("invite_used", "this invitation was accepted already")
                : conflict("invite_expired", "this invitation has expired")
            ),
          InviteEmailMismatch: () =>
            Effect.fail(forbidden("invite_email_mismatch", "this invitation is for another e-mail address")),
          AlreadyMember: () => Effect.fail(conflict("already_member", "you are a member of this team already"))
        }),
        orServiceUnavailable
      )
    )
  })
)
