import { DateFormat, KnownCurrency, Role, TeamInviteView, TeamMemberView, TeamView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  EmailAddress,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  SessionAuth,
  UuidParam
} from "../shared/index.ts"
import { UserResponse } from "./TeamsApi.ts"

/** A member of a team. */
export const TeamMemberResponse = TeamMemberView

/** An invitation (never its token). */
export const TeamInviteResponse = TeamInviteView

const Name = Schema.String.check(
  Schema.isTrimmed({ message: "must not start or end with spaces" }),
  Schema.isBetweenLength(1, 200)
)

export const UpdateTeamRequest = Schema.Struct({
  name: Schema.optionalKey(Name),
  baseCurrency: Schema.optionalKey(KnownCurrency)
})

export const InviteRequest = Schema.Struct({
  email: EmailAddress(),
  role: Role
})

/** Whether the runtime's `Intl` accepts `make(text)` (it throws a RangeError on what it does not know). */
const intlAccepts = (make: (text: string) => unknown) => (text: string) => {
  try {
    make(text)
    return true
  } catch {
    return false
  }
}

const Locale = Schema.String.check(
  Schema.isBetweenLength(2, 35),
  Schema.makeFilter(
    intlAccepts((text) => Intl.getCanonicalLocales(text)),
    { message: "expected a BCP 47 language tag, e.g. en-US" }
  )
)

const TimeZone = Schema.String.check(
  Schema.isBetweenLength(1, 64),
  Schema.makeFilter(
    intlAccepts((text) => new Intl.DateTimeFormat("en", { timeZone: text })),
    { message: "expected an IANA time zone, e.g. Europe/Stockholm or UTC" }
  )
)

const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))

/** The signed-in user's own profile: each field given replaces the stored one, null clears it. */
export const UpdateUserRequest = Schema.Struct({
  fullName: optional(Name),
  locale: optional(Locale),
  timezone: optional(TimeZone),
  timezoneAutoSync: optional(Schema.Boolean),
  weekStartsOnMonday: optional(Schema.Boolean),
  timeFormat: optional(Schema.Literals([12, 24])),
  dateFormat: optional(DateFormat)
})

const errors = [...CommonErrors, Forbidden, NotFound] as const
const team = { id: UuidParam }
const member = { id: UuidParam, userId: UuidParam }

/** A team, its members and invitations, and the caller's profile: session, OAuth or generic API key, by scope. */
export class TeamAdminApi extends HttpApiGroup.make("teamAdmin")
  .add(
    HttpApiEndpoint.get("getTeam", "/teams/:id", { params: team, success: TeamView, error: errors })
      .annotate(RequiredScope, "teams.read")
      .annotate(OpenApi.Summary, "Get a team")
      .annotate(OpenApi.Description, "A team of the caller; any other id is 404."),
    HttpApiEndpoint.patch("updateTeam", "/teams/:id", {
      params: team,
      payload: UpdateTeamRequest,
      success: TeamView,
      error: errors
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Update a team")
      .annotate(
        OpenApi.Description,
        "Owners and admins change the name or the base currency (what reports convert to; accounts keep theirs)."
      ),
    HttpApiEndpoint.get("listMembers", "/teams/:id/members", {
      params: team,
      query: ListQuery,
      success: ListOf(TeamMemberResponse),
      error: errors
    })
      .annotate(RequiredScope, "teams.read")
      .annotate(OpenApi.Summary, "List a team's members"),
    HttpApiEndpoint.patch("updateMember", "/teams/:id/members/:userId", {
      params: member,
      payload: Schema.Struct({ role: Role }),
      success: TeamMemberResponse,
      error: [...errors, Conflict]
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Change a member's role")
      .annotate(
        OpenApi.Description,
        "Owners and admins; only owners give or take the owner role. The last owner cannot step down (409 last_owner)."
      ),
    HttpApiEndpoint.delete("removeMember", "/teams/:id/members/:userId", {
      params: member,
      success: TeamMemberResponse,
      error: [...errors, Conflict]
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Remove a member")
      .annotate(
        OpenApi.Description,
        "Owners and admins remove members (only owners remove owners); anyone may remove themselves. The last owner " +
          "cannot go (409 last_owner)."
      ),
    HttpApiEndpoint.post("invite", "/teams/:id/invites", {
      params: team,
      payload: InviteRequest,
      success: TeamInviteResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "teams.write")
      .annotate(OpenApi.Summary, "Invite a member by e-mail")
      .annotate(
        OpenApi.Description,
        "Owners and admins (only owners invite owners). Mails the invitee a single-use token, valid 7 days, " +
          "accepted with POST /invites/accept; the token is never answered nor stored in clear."
      ),
    HttpApiEndpoint.get("listInvites", "/teams/:id/invites", {
      params: team,
      query: ListQuery,
      success: ListOf(TeamInviteResponse),
      error: errors
    })
      .annotate(RequiredScope, "teams.read")
      .annotate(OpenApi.Summary, "List a team's invitations"),
    HttpApiEndpoint.patch("updateMe", "/users/me", {
      payload: UpdateUserRequest,
      success: UserResponse,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "users.write")
      .annotate(OpenApi.Summary, "Update the signed-in user")
      .annotate(
        OpenApi.Description,
        "Each field given replaces the stored one and null clears it: the name and the display preferences " +
          "(`locale` BCP 47, `timezone` IANA, `timeFormat` 12 or 24, `dateFormat`, `weekStartsOnMonday`, " +
          "`timezoneAutoSync`), which the service stores for its clients. The e-mail and avatar are not changed here."
      )
  )
  .middleware(PlatformAuth) {}

/** Accepting an invitation: the invitee's session. */
export class InvitesApi extends HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.post("accept", "/invites/accept", {
      payload: Schema.Struct({ token: Schema.String.check(Schema.isBetweenLength(1, 512)) }),
      success: TeamMemberResponse,
      error: [...CommonErrors, Forbidden, NotFound, Conflict]
    })
      .annotate(OpenApi.Summary, "Accept an invitation")
      .annotate(
        OpenApi.Description,
        "Joins the invitation's team with its role and makes it the caller's current team. The caller's e-mail must " +
          "be the invited one (403 invite_email_mismatch); the token works once (409 invite_used) before it expires " +
          "(409 invite_expired); an unknown token is 404."
      )
  )
  .middleware(SessionAuth) {}
